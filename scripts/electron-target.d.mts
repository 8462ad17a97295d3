// Types for scripts/electron-target.mjs, which runs under plain Node on `npm install` (no TypeScript there).
export interface Host {
  readonly platform: string;
  readonly arch: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly underRosetta: () => boolean;
}

export function electronTarget(host: Host): { platform: string; arch: string };
export function underRosetta(): boolean;
