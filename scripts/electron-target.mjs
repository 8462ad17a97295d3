// The platform and arch of the Electron binary that electron's own install script (node_modules/electron/install.js)
// downloaded, so that scripts/native-electron.mjs builds better-sqlite3 for that binary and not for the Node
// running npm: they differ on an Apple silicon Mac whose Node is the Intel build under Rosetta, where electron
// takes arm64 but process.arch says x64.
import { execSync } from 'node:child_process';

/**
 * @param {{ platform: string, arch: string, env: Record<string, string | undefined>, underRosetta: () => boolean }} host
 * @returns {{ platform: string, arch: string }}
 */
export function electronTarget({ platform, arch, env, underRosetta }) {
  const target = { platform: env.npm_config_platform || platform, arch: env.npm_config_arch || arch };
  // The same test as electron's install.js: an Intel Node on macOS, no arch asked for, translated by Rosetta.
  if (target.platform === 'darwin' && platform === 'darwin' && target.arch === 'x64' && env.npm_config_arch === undefined && underRosetta()) {
    return { ...target, arch: 'arm64' };
  }
  return target;
}

/** Whether this process is an Intel build translated by Rosetta (macOS only; false anywhere else). */
export function underRosetta() {
  try {
    return execSync('sysctl -in sysctl.proc_translated', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() === '1';
  } catch {
    return false;
  }
}
