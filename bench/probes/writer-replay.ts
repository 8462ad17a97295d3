/**
 * Probe, not part of `npm run bench`: what the writer thread's table writes cost alone, without the core and the
 * journal thread competing for the machine. It keeps the journal records of one bench/committed-orders.ts run
 * (200,000 orders; cached in /tmp, `--fresh` to take them again) and replays them with the writer's own
 * TableWriter into fresh tables, `CHUNK` table rows a transaction (default 1,000), printing µs an order. To try a
 * variant: `PRE` pragmas before the schema is made (page_size), `SQL` statements after it (DROP INDEX ...),
 * `PRAGMAS` after that, each list separated by ';'.
 *
 *   npx tsx bench/probes/writer-replay.ts [runs] [--fresh]
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalWriter } from '../../src-main/venue/store/journal-writer';
import { openDatabase } from '../../src-main/venue/store/database';
import { migrate } from '../../src-main/venue/store/migrations';
import { TableWriter } from '../../src-main/venue/store/table-writer';
import { benchCommittedOrders } from '../committed-orders';

const cache = '/tmp/nova-writer-replay.json';
let records: { seq: number; text: string; rows: number }[] = [];
if (existsSync(cache) && !process.argv.includes('--fresh')) records = JSON.parse(readFileSync(cache, 'utf8')) as typeof records;
else {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the writer as this
  const original = JournalWriter.prototype.append;
  JournalWriter.prototype.append = function (this: JournalWriter, seq: number, text: string, rows: number) {
    records.push({ seq, text, rows });
    return original.call(this, seq, text, rows);
  };
  await benchCommittedOrders({ orders: 200_000 });
  writeFileSync(cache, JSON.stringify(records));
}
const runs = Number(process.argv[2] ?? 3);
for (let r = 0; r < runs; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'nova-replay-'));
  const db = openDatabase(join(dir, 'venue.sqlite'), undefined);
  for (const pragma of (process.env.PRE ?? '').split(';').filter(Boolean)) db.pragma(pragma);
  migrate(db);
  for (const sql of (process.env.SQL ?? '').split(';').filter(Boolean)) db.exec(sql);
  for (const pragma of (process.env.PRAGMAS ?? '').split(';').filter(Boolean)) db.pragma(pragma);
  const tables = new TableWriter(db);
  let rows = 0;
  const t0 = performance.now();
  let chunk: typeof records = [];
  let chunkRows = 0;
  for (const rec of records) {
    chunk.push(rec);
    chunkRows += rec.rows;
    if (chunkRows >= Number(process.env.CHUNK ?? 1000)) {
      rows += tables.apply(chunk, false);
      chunk = [];
      chunkRows = 0;
    }
  }
  if (chunk.length) rows += tables.apply(chunk, true);
  const ms = performance.now() - t0;
  console.log(`replay: ${records.length} records, ${rows} table rows, ${ms.toFixed(0)} ms, ${((ms * 1000) / 200_000).toFixed(2)} us an order`);
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
