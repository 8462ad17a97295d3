import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
const fd = fs.openSync(workerData.file, 'a');
let port;
const queue = [];
let busy = false;
function drain() {
  if (queue.length === 0) { busy = false; return; }
  busy = true;
  const items = queue.splice(0);
  fs.writevSync(fd, items.flatMap((m) => [new Uint8Array(m.data), new Uint8Array(m.ids)]));
  fs.fdatasyncSync(fd);
  for (const m of items) {
    parentPort.postMessage({ seq: m.seq });
    port.postMessage(m, [m.data, m.ids]);
  }
  setImmediate(drain);
}
parentPort.on('message', (m) => {
  if (m.port) { port = m.port; return; }
  queue.push(m);
  if (!busy) { busy = true; setImmediate(drain); }
});
