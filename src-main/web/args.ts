// The web CLI's options, apart from the CLI so they are tested without starting anything.
import { resolve } from 'node:path';

export const USAGE = 'usage: npm run web -- --port <0-65535> --data <dir>';

export interface WebArgs {
  readonly port: number;
  readonly dataDir: string;
}

/** Strict: every option once, every value present and valid; the error is one line. */
export function parseWebArgs(argv: readonly string[]): WebArgs | string {
  let port: number | undefined;
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    const value = argv[i + 1];
    if (name !== '--port' && name !== '--data') return `unknown option ${JSON.stringify(name)} (${USAGE})`;
    if (value === undefined || value.startsWith('--')) return `${name} needs a value (${USAGE})`;
    if (name === '--port') {
      if (port !== undefined) return `--port given twice (${USAGE})`;
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) return `--port must be a whole number from 0 to 65535, not ${JSON.stringify(value)}`;
      port = Number(value);
    } else {
      if (dataDir !== undefined) return `--data given twice (${USAGE})`;
      if (value === '') return `--data needs a folder (${USAGE})`;
      dataDir = resolve(value);
    }
  }
  if (port === undefined) return `--port is required (${USAGE})`;
  if (dataDir === undefined) return `--data is required (${USAGE})`;
  return { port, dataDir };
}
