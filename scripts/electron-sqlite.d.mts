// Types for scripts/electron-sqlite.mjs, which runs under plain Node on `npm install` (no TypeScript there).
export function builtBinary(target: string): string;
export function buildStamp(platform: string, arch: string): string;
export function builtFor(binary: string, stampFile: string, stamp: string): boolean;
export function ensureElectronBuild(target: string, platform: string, arch: string): { stamp: string; binary: string | undefined; made: boolean };
