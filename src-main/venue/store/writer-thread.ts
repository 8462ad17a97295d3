// Entry of the store's writer thread: journal rows in (one fsync for everything that arrived together), then
// the journal applied to the tables whenever it is asked for, has grown past a threshold, or has been idle for a
// moment. Every answer is posted on the port and counted in the shared signal, so the core can also wait for
// one synchronously (a read must see every acknowledged change). See store-writer.ts for the other side.
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database';
import type { WriterAnswer, WriterData, WriterRequest } from './store-writer';
import { TableWriter, type JournalRow } from './table-writer';

const data = workerData as WriterData;
const { port, signal } = data;
const db = openDatabase(data.file, data.nativeBinding);
const tables = new TableWriter(db);

/** Journal rows written and not yet applied, with their table rows; oldest first. */
const pending: { row: JournalRow; rows: number }[] = [];
let pendingRows = 0;
/** The highest seq the core asked to see in the tables. */
let wanted = 0;
let applied = 0;
/** After a failure to apply, nothing is retried until the core asks again (it reports the failure). */
let applyStalled = false;
/** Once a journal row could not be written, every later one is refused: the core must not run ahead of disk. */
let appendFailure: string | undefined;
let closing = false;
let idleTimer: NodeJS.Timeout | undefined;
let idleExpired = false;

function answer(message: WriterAnswer): void {
  port.postMessage(message);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function receive(request: WriterRequest, appends: JournalRow[], rowsOf: number[]): void {
  switch (request.type) {
    case 'append':
      appends.push([request.seq, request.text]);
      rowsOf.push(request.rows);
      break;
    case 'apply':
      wanted = Math.max(wanted, request.through);
      applyStalled = false;
      break;
    case 'close':
      closing = true;
      applyStalled = false;
      break;
  }
}

function writeAppends(appends: JournalRow[], rowsOf: number[]): void {
  const through = appends.at(-1)?.[0];
  if (through === undefined) return;
  if (appendFailure === undefined) {
    try {
      tables.append(appends);
    } catch (err) {
      appendFailure = err instanceof Error ? err.message : String(err);
    }
  }
  if (appendFailure !== undefined) {
    answer({ type: 'appendFailed', through, message: appendFailure });
    return;
  }
  appends.forEach((row, i) => {
    const rows = rowsOf[i] ?? 0;
    pending.push({ row, rows });
    pendingRows += rows;
  });
  answer({ type: 'appended', through });
  if (!closing) armIdleTimer();
}

function shouldApply(): boolean {
  if (pending.length === 0 || applyStalled) return false;
  return closing || idleExpired || wanted > applied || pendingRows >= data.eagerRows;
}

/** Applies the oldest pending rows, at most about chunkRows table rows, so appends never wait long behind it. */
function applyChunk(): void {
  let take = 0;
  let rows = 0;
  while (take < pending.length && (take === 0 || rows < data.chunkRows)) rows += pending[take++]?.rows ?? 0;
  const chunk = pending.slice(0, take).map((p) => p.row);
  let written: number;
  try {
    written = tables.apply(chunk);
  } catch (err) {
    applyStalled = true;
    answer({ type: 'applyFailed', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  pending.splice(0, take);
  pendingRows -= rows;
  applied = chunk.at(-1)?.[0] ?? applied;
  if (pending.length === 0) idleExpired = false;
  answer({ type: 'applied', through: applied, entries: take, rows: written });
}

/** Everything that has arrived (appends in one transaction), then one chunk applied, until nothing is due. */
function pump(first?: WriterRequest): void {
  for (let next = first; ; next = undefined) {
    const appends: JournalRow[] = [];
    const rowsOf: number[] = [];
    if (next !== undefined) receive(next, appends, rowsOf);
    for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
      receive(m.message as WriterRequest, appends, rowsOf);
    }
    writeAppends(appends, rowsOf);
    if (!shouldApply()) break;
    applyChunk();
  }
  if (closing) {
    clearTimeout(idleTimer);
    db.close();
    answer({ type: 'closed' });
    port.close();
  }
}

function armIdleTimer(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleExpired = true;
    pump();
  }, data.idleDelayMs);
}

port.on('message', (request: WriterRequest) => pump(request));
