/**
 * The core's side of the store's journal thread (journal-thread.ts). The core hands it each group commit as one
 * journal record and acknowledges the orders in it once the thread says the record is durable; the thread then
 * passes the record straight to the writer thread over their own channel. The core tells it which records the
 * tables durably hold, so it can delete the segments holding only those.
 */
import type { MessagePort } from 'node:worker_threads';
import type { ThreadData } from './thread-answer';
import { StoreThread } from './store-thread';

export type JournalRequest =
  | { type: 'append'; seq: number; text: string; rows: number }
  | { type: 'retire'; through: number }
  | { type: 'close' };

export type JournalAnswer =
  | { type: 'appended'; through: number }
  | { type: 'appendFailed'; through: number; message: string }
  | { type: 'closed' };

/** A durable record, from the journal thread to the writer thread, with the table rows it holds. */
export interface TableEntry {
  seq: number;
  text: string;
  rows: number;
}

export interface JournalData extends ThreadData {
  folder: string;
  segmentBytes: number | undefined;
  /** Where durable records go: the writer thread's end of their channel. */
  tables: MessagePort;
}

export class JournalWriter {
  /** Started by the first record: a restart restores its state without a thread booting beside it. */
  private thread: StoreThread<JournalRequest, JournalAnswer> | undefined;
  private readonly acks: { through: number; resolve(): void; reject(err: Error): void }[] = [];
  /** The newest record the thread has made durable (and handed to the writer thread). */
  durableThrough: number;
  private closed = false;
  private closedAnswer = false;
  /** A record could not be written: the thread refuses every later one, and so does this side. */
  private failure: Error | undefined;

  constructor(
    private readonly folder: string,
    private readonly tables: MessagePort,
    durableThrough: number,
    private readonly segmentBytes?: number,
  ) {
    this.durableThrough = durableThrough;
  }

  /** Resolves once the record is durable; rejects if it could not be written (and so does every later one). */
  append(seq: number, text: string, rows: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the venue store is closed'));
    const failure = this.writeFailure;
    if (failure !== undefined) return Promise.reject(failure);
    const thread = this.start();
    return new Promise<void>((resolve, reject) => {
      if (this.acks.length === 0) thread.keepAlive(true);
      this.acks.push({ through: seq, resolve, reject });
      thread.post({ type: 'append', seq, text, rows });
    });
  }

  /** The tables durably hold every record through `through`: segments holding only those may go. */
  retire(through: number): void {
    if (!this.closed && this.thread !== undefined && this.thread.dead === undefined) this.thread.post({ type: 'retire', through });
  }

  /** Blocks until every record handed over so far is durable (or has failed). */
  waitUntilDurable(seq: number): Error | undefined {
    if (this.durableThrough >= seq || this.thread === undefined) return undefined;
    return this.thread.waitUntil(() => this.durableThrough >= seq, () => this.failure);
  }

  /** Writes what is queued and stops the thread, waiting for it. Returns the failure to write, if any. */
  close(): Error | undefined {
    if (this.closed) return undefined;
    this.closed = true;
    const thread = this.thread;
    if (thread === undefined) {
      this.tables.close();
      return undefined;
    }
    thread.post({ type: 'close' });
    const failure = thread.waitUntil(() => this.closedAnswer, () => undefined);
    thread.closePort();
    return failure ?? this.failure;
  }

  /** The write failure that refuses every later record, if there was one. */
  get writeFailure(): Error | undefined {
    return this.thread?.dead ?? this.failure;
  }

  private start(): StoreThread<JournalRequest, JournalAnswer> {
    this.thread ??= new StoreThread<JournalRequest, JournalAnswer>(
      'journal-writer',
      'journal-thread.ts',
      { folder: this.folder, segmentBytes: this.segmentBytes, tables: this.tables },
      [this.tables],
      (answer) => this.take(answer),
      (dead) => {
        for (const ack of this.acks.splice(0)) ack.reject(dead);
      },
    );
    return this.thread;
  }

  private take(answer: JournalAnswer): void {
    switch (answer.type) {
      case 'appended':
        this.durableThrough = answer.through;
        while (this.acks.length > 0 && (this.acks[0]?.through ?? Infinity) <= answer.through) this.acks.shift()?.resolve();
        if (this.acks.length === 0) this.thread?.keepAlive(false);
        break;
      case 'appendFailed': {
        const error = new Error(`the journal could not be written: ${answer.message}`);
        this.failure ??= error;
        while (this.acks.length > 0 && (this.acks[0]?.through ?? Infinity) <= answer.through) this.acks.shift()?.reject(error);
        if (this.acks.length === 0) this.thread?.keepAlive(false);
        break;
      }
      case 'closed':
        this.closedAnswer = true;
        break;
    }
  }
}
