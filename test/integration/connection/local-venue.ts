// The real local venue for the connection tests: a fresh data folder on a port chosen up front, so it can be
// stopped and started again on the same folder and the same port, as a desk would see a venue restart.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startVenue, type RunningVenue } from '../../../src-main/venue/server';
import { VenueRestClient, type VenueCredentials } from '../../../src-main/connection/rest-client';

export interface Account {
  readonly userId: string;
  readonly credentials: VenueCredentials;
}

export interface LocalVenueOptions {
  /** Per key and second; 0 (the default here) is unlimited. */
  readonly orderRate?: number;
  readonly requestRate?: number;
}

export class LocalVenue {
  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly options: LocalVenueOptions,
    public running: RunningVenue | undefined,
    /** The bootstrap user: funded, the venue's admin. */
    readonly admin: Account,
  ) {}

  static async start(options: LocalVenueOptions = {}): Promise<LocalVenue> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-connection-'));
    const port = await freePort();
    const running = await startVenue({ port, dataDir, orderRate: options.orderRate ?? 0, requestRate: options.requestRate ?? 0 });
    const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
    return new LocalVenue(port, dataDir, options, running, { userId: boot.user_id, credentials: { apiKey: boot.api_key, apiSecret: boot.api_secret } });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  /** A client of this venue with no retries of its own to hide what the test is looking at. */
  client(account?: Account, options: Partial<ConstructorParameters<typeof VenueRestClient>[0]> = {}): VenueRestClient {
    return new VenueRestClient({ baseUrl: this.baseUrl, ...(account === undefined ? {} : { credentials: account.credentials }), ...options });
  }

  /** A new user funded through POST /sim/users. */
  async newAccount(balances: Readonly<Record<string, string>> = { BTC: '10', VND: '100000000000' }): Promise<Account> {
    const user = await this.client(this.admin).createSimUser(balances);
    const secret = user.api_key.api_secret;
    if (secret === undefined) throw new Error('POST /sim/users answered without the secret');
    return { userId: user.user_id, credentials: { apiKey: user.api_key.api_key, apiSecret: secret } };
  }

  async stop(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  /** Start again on the same data folder and the same port. */
  async restart(): Promise<void> {
    await this.stop();
    this.running = await startVenue({
      port: this.port,
      dataDir: this.dataDir,
      orderRate: this.options.orderRate ?? 0,
      requestRate: this.options.requestRate ?? 0,
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A port nothing listens on right now: a throwaway server on port 0 tells it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export { eventually } from '../eventually';

export const BTC = 'BTC-VND';
/** A plausible BTC-VND price, and prices `ticks` increments of 10000 away from it. */
export function px(ticks = 0): string {
  return String(2_500_000_000 + ticks * 10_000);
}
