// Entry of the store's journal thread: journal records in, everything that arrived together written with one
// writev and one fdatasync, then each record handed to the writer thread (which applies it to the tables) and
// the core told it is durable. It does nothing else, so an acknowledgement never waits behind a table
// transaction. See journal-writer.ts for the core's side.
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { JournalAppender } from './journal-file';
import type { JournalAnswer, JournalData, JournalRequest, TableEntry } from './journal-writer';
import { answerCore } from './thread-answer';

const data = workerData as JournalData;
const tables: MessagePort = data.tables;

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/**
 * Once a record could not be written, every later one is refused: the core must not run ahead of disk. The
 * thread itself never dies of it, so the core hears why instead of waiting for a thread that is gone.
 */
let failure: string | undefined;
let appender: JournalAppender | undefined;
try {
  appender = new JournalAppender(data.folder, data.segmentBytes);
} catch (err) {
  failure = reason(err);
}

function pump(first: JournalRequest): void {
  const records: TableEntry[] = [];
  let retire = 0;
  let closing = false;
  const receive = (request: JournalRequest): void => {
    switch (request.type) {
      case 'append':
        records.push(request);
        break;
      case 'retire':
        retire = Math.max(retire, request.through);
        break;
      case 'close':
        closing = true;
        break;
    }
  };
  receive(first);
  for (let m = receiveMessageOnPort(data.port); m !== undefined; m = receiveMessageOnPort(data.port)) receive(m.message as JournalRequest);

  const last = records.at(-1);
  if (last !== undefined) {
    if (failure === undefined) {
      try {
        appender?.append(records);
      } catch (err) {
        failure = reason(err);
      }
    }
    if (failure === undefined) {
      // The writer thread hears of a record only once it is durable: the tables never get ahead of the journal.
      for (const { seq, text, rows } of records) tables.postMessage({ seq, text, rows } satisfies TableEntry);
      answerCore<JournalAnswer>(data, { type: 'appended', through: last.seq });
    } else {
      answerCore<JournalAnswer>(data, { type: 'appendFailed', through: last.seq, message: failure });
    }
  }
  if (retire > 0) appender?.retire(retire);
  if (closing) {
    try {
      appender?.close();
    } catch {
      // Everything acknowledged was synced before; closing the descriptor adds nothing to keep.
    }
    tables.close();
    answerCore<JournalAnswer>(data, { type: 'closed' });
    data.port.close();
  }
}

data.port.on('message', pump);
