// The local venue for load from another process: a fresh data folder, no rate limits. Prints its URLs.
// `--traders N` also opens N funded traders with a trading key each and names the file that lists them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVenue } from '../../src-main/venue/server';

const at = process.argv.indexOf('--traders');
const traders = at > 0 ? Number(process.argv[at + 1]) : 0;
const dataDir = mkdtempSync(join(tmpdir(), 'nova-bench-venue-'));
const running = await startVenue({
  port: 0,
  dataDir,
  orderRate: 0,
  requestRate: 0,
  maxOpenOrders: 10_000_000,
  ws: { messagesPerSecond: 0, maxBufferedBytes: 64 * 1024 * 1024 },
});
const tradersFile = join(dataDir, 'traders.json');
if (traders > 0) {
  const { venue } = running;
  const keys = await venue.run(() =>
    Array.from({ length: traders }, () => {
      const user = venue.exchange.createUser({ isAdmin: false, makerFeeRate: '0.001', takerFeeRate: '0.002' });
      // Enough that no order of a long run is refused for its hold.
      venue.exchange.deposit(user.id, 'BTC', 10n ** 15n);
      venue.exchange.deposit(user.id, 'VND', 10n ** 18n);
      return venue.keys.create(user.id, { name: 'bench', readOnly: false, expiredAt: null }, venue.now());
    }),
  );
  await venue.store.commit({ apiKeys: keys.map((k) => k.row) });
  writeFileSync(tradersFile, JSON.stringify(keys.map((k) => ({ api_key: k.row.apiKey, api_secret: k.secret }))));
}
process.stdout.write(`ready ${running.baseUrl} ${running.wsUrl} ${join(dataDir, 'bootstrap.json')} ${tradersFile}\n`);
process.on('SIGTERM', () =>
  void running.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }),
);
