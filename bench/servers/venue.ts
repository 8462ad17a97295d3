// The local venue for load from another process: a fresh data folder, no rate limits. Prints its URLs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVenue } from '../../src-main/venue/server';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-bench-venue-'));
const running = await startVenue({
  port: 0,
  dataDir,
  orderRate: 0,
  requestRate: 0,
  maxOpenOrders: 10_000_000,
  ws: { messagesPerSecond: 0, maxBufferedBytes: 64 * 1024 * 1024 },
});
process.stdout.write(`ready ${running.baseUrl} ${running.wsUrl} ${join(dataDir, 'bootstrap.json')}\n`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
