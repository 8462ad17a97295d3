// The packaging config as electron-builder itself loads and validates it: targets per OS, fuses, artifacts named
// with the version, no file associations; and the icons each platform needs, read from the files' headers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Arch, type Configuration } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import config, { keyringPackage, projectHomepage, stageNativeModules, stagedNativeDir } from '../../../electron-builder';
import { APP_ID, PRODUCT_NAME } from '../../../src-main/app/product';

const root = join(import.meta.dirname, '../../..');
const require = createRequire(join(root, 'package.json'));

/** Loaded the way `electron-builder` loads it (finds electron-builder.ts, merges package.json), then validated. */
async function loadedConfig(): Promise<Configuration> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    getConfig: (projectDir: string, configPath: string | null, fromOptions: null) => Promise<Configuration>;
    validateConfiguration: (config: Configuration, logger: unknown) => Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

const targets = (platform: { target?: unknown } | null | undefined): { target: string; arch: string[] }[] =>
  (platform?.target ?? []) as { target: string; arch: string[] }[];

describe('the packaging config', () => {
  it('is what electron-builder loads, and passes its schema', async () => {
    const config = await loadedConfig();
    expect(config).toMatchObject({ appId: APP_ID, productName: PRODUCT_NAME, asar: true, npmRebuild: false });
    expect(PRODUCT_NAME).toBe('Nova Desk');
  });

  it('builds a dmg per Mac arch, an NSIS installer, an AppImage and a deb', async () => {
    const config = await loadedConfig();
    expect(targets(config.mac)).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }]);
    expect(targets(config.win).map((t) => t.target)).toEqual(['nsis']);
    expect(targets(config.linux).map((t) => t.target)).toEqual(['AppImage', 'deb']);
  });

  it('gives the deb the project URL it needs from any checkout, and ties Linux windows to their launcher', async () => {
    const config = await loadedConfig();
    // electron-builder would otherwise take the URL from a GitHub `origin` only, and refuse the deb without one.
    expect(config.extraMetadata).toMatchObject({ homepage: projectHomepage(), desktopName: 'nova-desk.desktop' });
    expect(projectHomepage({})).toBe('https://novadesk.invalid');
    expect(projectHomepage({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'nova/desk' })).toBe('https://github.com/nova/desk');
    expect(config.linux).toMatchObject({ syncDesktopName: true });
  });

  it('names every artifact with the version and arch, and claims no file types or links', async () => {
    const config = await loadedConfig();
    for (const name of [config.artifactName, config.dmg?.artifactName, config.nsis?.artifactName]) {
      expect(name).toMatch(/\$\{version\}/);
      expect(name).toMatch(/\$\{arch\}/);
    }
    expect(config.fileAssociations).toBeUndefined();
    expect(config.protocols).toBeUndefined();
    expect(config.publish).toBeNull();
  });

  it("sets the fuses that close Electron's back doors in a packaged app", async () => {
    const config = await loadedConfig();
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
    });
  });

  it('ships the built output only, with native modules outside the archive', () => {
    const included = (config.files as string[]).filter((p) => !p.startsWith('!'));
    expect(included).toEqual(['out/**/*', 'package.json']);
    expect(config.asarUnpack).toEqual(['**/*.node']);
  });
});

describe('native modules for the packaged app', () => {
  it('names the keychain package @napi-rs/keyring loads on each target', () => {
    expect(keyringPackage('darwin', 'arm64')).toBe('@napi-rs/keyring-darwin-arm64');
    expect(keyringPackage('darwin', 'x64')).toBe('@napi-rs/keyring-darwin-x64');
    expect(keyringPackage('win32', 'x64')).toBe('@napi-rs/keyring-win32-x64-msvc');
    expect(keyringPackage('linux', 'x64')).toBe('@napi-rs/keyring-linux-x64-gnu');
    const optional = (JSON.parse(readFileSync(require.resolve('@napi-rs/keyring/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }).optionalDependencies;
    for (const [platform, arch] of [['darwin', 'arm64'], ['darwin', 'x64'], ['win32', 'x64'], ['linux', 'x64']] as const) {
      expect(optional).toHaveProperty([keyringPackage(platform, arch)]);
    }
  });

  it('stops packaging, before fetching anything, when the target arch has no keychain module installed', () => {
    const missing = ['darwin', 'linux', 'win32'].map((p) => keyringPackage(p, 'arm64')).find((name) => {
      try {
        require.resolve(`${name}/package.json`);
        return false;
      } catch {
        return true;
      }
    });
    if (missing === undefined) throw new Error('every keychain package is installed here');
    const platform = missing.split('-')[2] ?? '';
    expect(() => stageNativeModules({ electronPlatformName: platform, arch: Arch.arm64 })).toThrow(missing);
    expect(stagedNativeDir('arm64')).toBe(join(root, '.native', 'packaged-arm64'));
  });
});

// ---- icons, read from their headers

function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(data.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

const resource = (path: string): Buffer => readFileSync(join(root, 'resources', path));

describe('icons', () => {
  it('has the 1024 master and every Linux size', () => {
    expect(pngSize(resource('icon.png'))).toEqual({ width: 1024, height: 1024 });
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(resource(`icons/${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
  });

  it('has a Windows .ico holding PNGs of 16 to 256', () => {
    const ico = resource('icon.ico');
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const declared = ico[entry] === 0 ? 256 : (ico[entry] ?? -1);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(pngSize(ico.subarray(offset, offset + length))).toEqual({ width: declared, height: declared });
      sizes.push(declared);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('has a macOS .icns with every size from 16 to 1024, the @2x ones included', () => {
    const icns = resource('icon.icns');
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const entries = new Map<string, number>();
    for (let at = 8; at < icns.length; ) {
      const type = icns.toString('ascii', at, at + 4);
      const length = icns.readUInt32BE(at + 4);
      entries.set(type, pngSize(icns.subarray(at + 8, at + length)).width);
      at += length;
    }
    expect(Object.fromEntries(entries)).toEqual({
      icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512,
    });
  });

  it("is what each platform's config points at", async () => {
    const config = await loadedConfig();
    expect(config.mac?.icon).toBe('resources/icon.icns');
    expect(config.win?.icon).toBe('resources/icon.ico');
    expect(config.linux?.icon).toBe('resources/icons');
  });
});
