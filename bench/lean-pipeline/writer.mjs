import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
// The client order id and updated time are written either way; only the indexes differ.
db.exec(`CREATE TABLE orders (seq INTEGER PRIMARY KEY, order_id BLOB NOT NULL UNIQUE, user INTEGER NOT NULL, client_order_id TEXT NOT NULL, status INTEGER NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL, body BLOB NOT NULL) STRICT;
CREATE INDEX o_uc ON orders(user, created);
CREATE INDEX o_open ON orders(seq) WHERE status = 1;
CREATE TABLE trades (seq INTEGER PRIMARY KEY, maker INTEGER NOT NULL, taker INTEGER NOT NULL, product INTEGER NOT NULL, body BLOB NOT NULL) STRICT;
CREATE INDEX t_maker ON trades(maker);`);
if (workerData.historyIndexes) {
  db.exec(`CREATE INDEX o_uu ON orders(user, updated);
CREATE INDEX o_coid ON orders(user, client_order_id COLLATE NOCASE, created);
CREATE INDEX t_taker ON trades(taker);
CREATE INDEX t_product ON trades(product, seq);`);
}
const ins = db.prepare('INSERT INTO orders VALUES (?,?,?,?,?,?,?,?)');
const ins2 = db.prepare('INSERT INTO trades VALUES (?,?,?,?,?)');
const upd = db.prepare('UPDATE orders SET status = 2, updated = ?, body = ? WHERE seq = ?');
let tradeSeq = 0;
let appliedOrders = 0;
const pending = [];
let pendingOrders = 0;
const apply = db.transaction((batches) => {
  for (const b of batches) {
    const f = new Float64Array(b.data);
    const idb = Buffer.from(b.ids);
    let o = 0;
    for (let i = 0; i < f.length; i += 10) {
      const bytes = Buffer.from(f.buffer, i * 8, 80);
      const at = BigInt(Math.round(f[i + 8]));
      if (f[i] === 1) { ins.run(f[i + 1], idb.subarray(o * 16, o * 16 + 16), f[i + 2], `b${f[i + 1]}`, f[i + 7], at, at, bytes); o++; }
      else { ins2.run(++tradeSeq, f[i + 1], f[i + 2], 1, bytes); upd.run(at, bytes, f[i + 1]); }
    }
  }
});
let port;
function pump() {
  if (pending.length === 0) return;
  const take = pending.splice(0);
  const n = take.reduce((a, b) => a + b.orders, 0);
  apply(take);
  appliedOrders += n;
  pendingOrders -= n;
  parentPort.postMessage({ appliedOrders });
}
parentPort.on('message', (m) => {
  port = m.port;
  port.on('message', (b) => {
    pending.push(b);
    pendingOrders += b.orders;
    if (pendingOrders >= 1000) pump();
    else setImmediate(pump);
  });
});
