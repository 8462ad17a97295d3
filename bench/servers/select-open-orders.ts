// The restart baseline: open the venue's database with the store's settings and read the rows a restart
// restores, the open orders, with one SELECT. Reports the time it took and the time since the process started,
// in ms, and the number of rows.
import { join } from 'node:path';
import Database from 'better-sqlite3';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('select-open-orders.ts needs the data folder');
const begin = performance.now();
const db = new Database(join(dataDir, 'venue.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('cache_size = -65536');
db.defaultSafeIntegers(true);
const rows = db.prepare("SELECT * FROM orders WHERE status != 'DONE' ORDER BY seq").all();
const ready = performance.now();
db.close();
process.stdout.write(`ready ${ready - begin} ${ready} ${rows.length}\n`);
