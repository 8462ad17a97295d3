// Entry of the store's writer thread: durable journal records in from the journal thread, applied to the tables
// whenever the core asks (a read), the pending records have grown past a threshold, or they have been idle for a
// moment. Every answer is posted to the core and counted in the shared signal, so the core can also wait for one
// synchronously. See store-writer.ts for the core's side.
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { openDatabase } from './database';
import type { JournalRecord } from './journal-file';
import type { TableEntry } from './journal-writer';
import type { WriterAnswer, WriterData, WriterRequest } from './store-writer';
import { Forgetting, type ForgetRequest, type Forgotten } from './forgetting';
import { TableWriter } from './table-writer';
import { answerCore } from './thread-answer';

const data = workerData as WriterData;
const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/** A thread that cannot open the database stays up to say so on every request, rather than die unheard. */
let opened: { db: Database.Database; tables: TableWriter; forgetting: Forgetting } | string;
try {
  const db = openDatabase(data.file, data.nativeBinding);
  opened = { db, tables: new TableWriter(db), forgetting: new Forgetting(db) };
} catch (err) {
  opened = `the store's writer thread could not open the database: ${reason(err)}`;
}

/** Durable records not yet applied, with their table rows; oldest first. */
const pending: { record: JournalRecord; rows: number }[] = [];
let pendingRows = 0;
/** The highest seq the core asked to see in the tables. */
let wanted = 0;
let applied = 0;
/** forget() requests, oldest first, with what each has deleted so far (see forgetting.ts). */
const forgets: { request: ForgetRequest; forgotten: Forgotten }[] = [];
/** Rows one forgetting transaction deletes at most: a few milliseconds, so a read never waits long behind one. */
const FORGET_BUDGET = 1_000;
let forgetQueued = false;
let closed = false;
/** After a failure to apply, nothing is retried until the core asks again (it reports the failure). */
let applyStalled = false;
let closing = false;
let idleTimer: NodeJS.Timeout | undefined;
let idleExpired = false;
/** When the last applying transaction was committed durably (FULL): at most about this often under load. */
let durableAt = 0;
const DURABLE_EVERY_MS = 1_000;

function receive(request: WriterRequest): void {
  switch (request.type) {
    case 'apply':
      wanted = Math.max(wanted, request.through);
      applyStalled = false;
      break;
    case 'forget':
      forgets.push({ request: request.request, forgotten: { orders: 0, trades: 0 } });
      break;
    case 'close':
      closing = true;
      applyStalled = false;
      break;
  }
}

/**
 * One transaction of the oldest forget asked (the core asks once the tables hold what was acknowledged before it).
 * A forget is answered once a step leaves budget unused; while closing, each is answered with what it did so far.
 * Returns whether one remains, for the pump's next turn.
 */
function forgetStep(): boolean {
  const head = forgets[0];
  if (head === undefined) return false;
  if (closing || typeof opened === 'string') {
    for (const { forgotten } of forgets.splice(0)) answerCore<WriterAnswer>(data, { type: 'forgot', ...forgotten });
    return false;
  }
  try {
    const step = opened.forgetting.forget(head.request, FORGET_BUDGET);
    head.forgotten.orders += step.orders;
    head.forgotten.trades += step.trades;
    if (step.orders + step.trades >= FORGET_BUDGET) return true;
    forgets.shift();
    answerCore<WriterAnswer>(data, { type: 'forgot', ...head.forgotten });
  } catch (err) {
    forgets.shift();
    answerCore<WriterAnswer>(data, { type: 'forgot', ...head.forgotten, failure: reason(err) });
  }
  return forgets.length > 0;
}

function receiveRecord(entry: TableEntry): void {
  pending.push({ record: { seq: entry.seq, text: entry.text }, rows: entry.rows });
  pendingRows += entry.rows;
}

function shouldApply(): boolean {
  if (pending.length === 0 || applyStalled) return false;
  return closing || idleExpired || wanted > applied || pendingRows >= data.eagerRows;
}

/** Applies the oldest pending records, at most about chunkRows table rows, so no read waits long behind one. */
function applyChunk(): void {
  let take = 0;
  let rows = 0;
  while (take < pending.length && (take === 0 || rows < data.chunkRows)) rows += pending[take++]?.rows ?? 0;
  const chunk = pending.slice(0, take).map((p) => p.record);
  // Durable when the journal may be trimmed: now and then under load, and whenever this catches up.
  const now = performance.now();
  const durable = closing || take === pending.length || now - durableAt >= DURABLE_EVERY_MS;
  let written: number;
  try {
    if (typeof opened === 'string') throw new Error(opened);
    written = opened.tables.apply(chunk, durable);
  } catch (err) {
    applyStalled = true;
    answerCore<WriterAnswer>(data, { type: 'applyFailed', message: reason(err), diskFault: isDiskFault(err) });
    return;
  }
  pending.splice(0, take);
  pendingRows -= rows;
  applied = chunk.at(-1)?.seq ?? applied;
  if (pending.length === 0) idleExpired = false;
  if (durable) durableAt = now;
  answerCore<WriterAnswer>(data, { type: 'applied', through: applied, rows: written, durable, busyMs: performance.now() - now });
}

/** Everything that has arrived on either port, then one chunk applied, until nothing is due. */
function pump(): void {
  for (;;) {
    let arrived = false;
    for (let m = receiveMessageOnPort(data.port); m !== undefined; m = receiveMessageOnPort(data.port)) receive(m.message as WriterRequest);
    for (let m = receiveMessageOnPort(data.journal); m !== undefined; m = receiveMessageOnPort(data.journal)) {
      receiveRecord(m.message as TableEntry);
      arrived = true;
    }
    if (arrived && !closing) armIdleTimer();
    if (!shouldApply()) break;
    applyChunk();
  }
  // Forgetting goes a step a turn, so records and reads arriving meanwhile are taken between its transactions.
  if (forgetStep() && !forgetQueued) {
    forgetQueued = true;
    setImmediate(() => {
      forgetQueued = false;
      if (!closed) pump();
    });
  }
  if (closing) {
    clearTimeout(idleTimer);
    if (typeof opened !== 'string') opened.db.close();
    answerCore<WriterAnswer>(data, { type: 'closed' });
    closed = true;
    data.port.close();
    data.journal.close();
  }
}

/**
 * SQLite's own verdict of a full disk or a failing one, anywhere in the error's causes: unlike a busy database or a
 * row another connection made, retrying does not help, and every read of the tables fails meanwhile.
 */
function isDiskFault(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'))) return true;
  }
  return false;
}

function armIdleTimer(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleExpired = true;
    pump();
  }, data.idleDelayMs);
}

// A message on either port starts a pump, which takes whatever has arrived on both.
data.port.on('message', (request: WriterRequest) => {
  receive(request);
  pump();
});
data.journal.on('message', (entry: TableEntry) => {
  receiveRecord(entry);
  if (!closing) armIdleTimer();
  pump();
});
