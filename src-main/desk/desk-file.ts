/**
 * What the desk remembers between sessions, in one JSON file in its data folder: the environments' addresses,
 * the active one, the keys' descriptions (never their secrets: those are in the keychain), the settings and
 * the saved layouts. Read through one schema; a file that does not parse stops the desk with a message naming
 * it rather than being silently replaced. Written whole to a temporary file and renamed, so a crash never
 * leaves half a file.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EnvironmentId, LayoutJson, Settings } from '../../src-shared/ipc/contract';

export const KeyRecord = z.strictObject({
  environment: EnvironmentId,
  apiKey: z.string(),
  name: z.string(),
  readOnly: z.boolean(),
  expiredAt: z.string(),
  createdAt: z.string(),
  userId: z.string().optional(),
  origin: z.enum(['bootstrap', 'created', 'imported']),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

const Addresses = z.strictObject({ baseUrl: z.string(), wsUrl: z.string() });

const DESK_FILE_VERSION = 1;

const DeskFileSchema = z.strictObject({
  version: z.literal(DESK_FILE_VERSION),
  active: EnvironmentId,
  addresses: z.strictObject({ development: Addresses, production: Addresses }),
  keys: z.array(KeyRecord),
  activeKeys: z.strictObject({ local: z.string().optional(), development: z.string().optional(), production: z.string().optional() }),
  settings: Settings,
  layouts: z.record(z.string(), LayoutJson),
});
export type DeskFileContent = z.infer<typeof DeskFileSchema>;

export const DESK_FILE = 'desk.json';

export function defaultDeskFile(): DeskFileContent {
  return {
    version: 1,
    active: 'local',
    addresses: { development: { baseUrl: '', wsUrl: '' }, production: { baseUrl: '', wsUrl: '' } },
    keys: [],
    activeKeys: {},
    // Production confirms every order unless the trader turns it off; the checks start at values a trader
    // would call a fat finger.
    settings: { preTrade: { maxDeviationPercent: '10', maxNotional: '' }, confirmOrders: { local: false, development: false, production: true } },
    layouts: {},
  };
}

export class DeskFile {
  private constructor(
    readonly path: string,
    private content: DeskFileContent,
  ) {}

  /** `dataDir` exists: the desk makes it before it locks it (desk.ts). */
  static open(dataDir: string): DeskFile {
    const path = join(dataDir, DESK_FILE);
    if (!existsSync(path)) return new DeskFile(path, defaultDeskFile());
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`${path} is not JSON (${err instanceof Error ? err.message : String(err)}); move it aside to start afresh`);
    }
    // A later build's file (it names a later version) is not damaged, and moving it aside would leave its keys and
    // layouts behind: the trader is told to run that build rather than start afresh.
    const version = (json as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > DESK_FILE_VERSION) {
      throw new Error(`${path} was written by a newer Nova Desk (desk file version ${version}; this build reads version ${DESK_FILE_VERSION}): run that newer build, or move the file aside to start afresh here, without its keys and layouts`);
    }
    let parsed: ReturnType<typeof DeskFileSchema.safeParse>;
    try {
      parsed = DeskFileSchema.safeParse(json);
    } catch (err) {
      // A file no build would have written (a layout nested past what the stack holds, say).
      throw new Error(`${path} is not a desk file (${err instanceof Error ? err.message : String(err)}); move it aside to start afresh`);
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${path} is not a desk file (${issue === undefined ? 'unexpected shape' : `${issue.path.join('.')}: ${issue.message}`}); move it aside to start afresh`);
    }
    return new DeskFile(path, parsed.data);
  }

  get(): Readonly<DeskFileContent> {
    return this.content;
  }

  /** Change and write at once: what the trader set survives a crash a second later. */
  update(change: (draft: DeskFileContent) => void): void {
    const draft = structuredClone(this.content);
    change(draft);
    const checked = DeskFileSchema.parse(draft);
    const temporary = `${this.path}.tmp`;
    // Synced before it replaces the file: a power cut must leave the old file or the new one, never an empty one.
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, JSON.stringify(checked, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.path);
    this.content = checked;
  }
}
