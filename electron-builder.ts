// Packaging: `npm run dist` builds the installers of the current OS into dist/ (macOS: a dmg each for Apple silicon
// and Intel; Windows: an NSIS installer; Linux: an AppImage and a deb). electron-builder finds this file by name.
//
// Native modules. node_modules keeps Node's build of better-sqlite3 for `npm test`: electron-builder's own
// rebuild (npmRebuild) works in place and would leave it built for Electron, so it is off. Instead, before each
// platform/arch is packed, stageNativeModules() fetches better-sqlite3's Electron build for that arch into
// .native/packaged-<arch>/ (as scripts/native-electron.mjs does the checkout's into .native/electron/) and the app
// ships its binary as resources/native/better_sqlite3.node, where
// src-main/app/native-binding.ts looks in a packaged app. The keychain module (@napi-rs/keyring) is N-API, so
// its prebuilt package works under Electron as it is; it is only checked to be there for the target arch.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arch, type Configuration } from 'electron-builder';
import { ensureElectronBuild } from './scripts/electron-sqlite.mjs';
import { NATIVE_MODULE_FILE, PACKAGED_NATIVE_DIR } from './src-main/app/native-binding';
import { APP_ID, PRODUCT_NAME } from './src-main/app/product';

const root = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(root, 'package.json'));

/** What the beforePack hook is told of the package being made. */
export interface PackTarget {
  /** darwin, win32 or linux */
  readonly electronPlatformName: string;
  readonly arch: Arch;
}

/** Where the Electron build of better-sqlite3 for one arch is staged before packing. */
export function stagedNativeDir(arch: string): string {
  return join(root, '.native', `packaged-${arch}`);
}

/** The prebuilt keychain package that @napi-rs/keyring loads on a platform and arch. */
export function keyringPackage(platform: string, arch: string): string {
  const abi = platform === 'win32' ? '-msvc' : platform === 'linux' ? '-gnu' : '';
  return `@napi-rs/keyring-${platform}-${arch}${abi}`;
}

export function stageNativeModules(context: PackTarget): void {
  const platform = context.electronPlatformName;
  const arch = Arch[context.arch];

  const keyring = keyringPackage(platform, arch);
  try {
    require.resolve(`${keyring}/package.json`);
  } catch {
    throw new Error(
      `${keyring} is not installed, so the ${arch} app would have no keychain. npm installs only the host's; fetch this one ` +
        `(see .github/workflows/release.yml, step "keychain module for Intel Macs") before packaging for ${arch}.`,
    );
  }

  const { stamp, binary } = ensureElectronBuild(stagedNativeDir(arch), platform, arch);
  if (binary === undefined) throw new Error(`could not get better-sqlite3 built for ${stamp}`);
}

/**
 * The deb must name a project URL, which electron-builder otherwise takes from a GitHub `origin` only: the
 * repository a GitHub workflow builds from, and otherwise an address that claims no site (.invalid), as the
 * maintainer's does, so that a checkout from anywhere else still packs.
 */
export function projectHomepage(env: NodeJS.ProcessEnv = process.env): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository } = env;
  return server !== undefined && server !== '' && repository !== undefined && repository !== '' ? `${server}/${repository}` : 'https://novadesk.invalid';
}

const config: Configuration = {
  appId: APP_ID,
  // desktopName: Electron names its Linux windows (WM_CLASS, Wayland app_id) by it, and syncDesktopName names the
  // installed .desktop entry the same, so the desktop ties running windows to the launcher's icon.
  extraMetadata: { homepage: projectHomepage(), desktopName: 'nova-desk.desktop' },
  productName: PRODUCT_NAME,
  copyright: 'Copyright © Nova Desk',
  directories: { output: 'dist', buildResources: 'resources' },
  // The built app only: out/ holds main, the venue worker, preload and renderer. electron-builder adds the
  // production dependencies itself; left out are better-sqlite3's Node build and C sources, and the packages
  // the renderer bundle already contains.
  files: [
    'out/**/*',
    'package.json',
    '!out/**/*.map',
    '!**/node_modules/better-sqlite3/{build,deps,src}/**',
    '!**/node_modules/{react,react-dom,scheduler,zustand,lightweight-charts,fancy-canvas}/**',
  ],
  // Where ensureElectronBuild leaves the binary under stagedNativeDir (scripts/electron-sqlite.mjs builtBinary).
  extraResources: [{ from: '.native/packaged-${arch}/node_modules/better-sqlite3/build/Release', to: PACKAGED_NATIVE_DIR, filter: [NATIVE_MODULE_FILE] }],
  asar: true,
  // A native module cannot be loaded from inside the archive.
  asarUnpack: ['**/*.node'],
  npmRebuild: false,
  beforePack: (context) => stageNativeModules(context),
  // No spaces: release assets and download links keep the names as they are.
  artifactName: 'Nova-Desk-${version}-${os}-${arch}.${ext}',
  publish: null,
  electronFuses: {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
    enableCookieEncryption: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    // Left on: the renderer is loaded from file:// as ES modules, which need the file protocol's privileges.
    grantFileProtocolExtraPrivileges: true,
    // An unsigned build (CI without certificates) still starts on Apple silicon after the fuses are flipped.
    resetAdHocDarwinSignature: true,
  },
  mac: {
    target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
    icon: 'resources/icon.icns',
    category: 'public.app-category.finance',
    hardenedRuntime: true,
  },
  dmg: { artifactName: 'Nova-Desk-${version}-mac-${arch}.${ext}' },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'resources/icon.ico',
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    deleteAppDataOnUninstall: false,
    // No spaces: release assets and download links keep the names as they are.
    artifactName: 'Nova-Desk-${version}-win-${arch}-setup.${ext}',
  },
  linux: {
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    icon: 'resources/icons',
    category: 'Finance',
    syncDesktopName: true,
    synopsis: 'Desktop trading terminal with an embedded local venue',
    maintainer: 'Nova Desk <desk@novadesk.invalid>',
  },
};

export default config;
