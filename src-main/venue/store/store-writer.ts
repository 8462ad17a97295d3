/**
 * The core's side of the store's writer thread (writer-thread.ts). The core hands it each group commit as one
 * journal row and acknowledges the orders in it once the thread says the row is durable; the thread also applies
 * the journal to the tables, on the machine's other core. A read must see every acknowledged change, so the core
 * can wait for the tables synchronously: the thread counts every answer in a shared word the core sleeps on
 * (Atomics.wait), and the answers themselves are taken off the port without returning to the event loop.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

export type WriterRequest =
  | { type: 'append'; seq: number; text: string; rows: number }
  | { type: 'apply'; through: number }
  | { type: 'close' };

export type WriterAnswer =
  | { type: 'appended'; through: number }
  | { type: 'appendFailed'; through: number; message: string }
  | { type: 'applied'; through: number; entries: number; rows: number }
  | { type: 'applyFailed'; message: string }
  | { type: 'closed' };

export interface WriterData {
  file: string;
  nativeBinding: string | undefined;
  port: MessagePort;
  signal: Int32Array;
  /** Pending table rows past which the thread applies without being asked. */
  eagerRows: number;
  /** About how many table rows one applying transaction takes, so appends never wait long behind one. */
  chunkRows: number;
  /** How long after the last append the thread applies what is pending. */
  idleDelayMs: number;
}

export interface WriterOptions {
  file: string;
  nativeBinding: string | undefined;
  eagerRows: number;
  chunkRows: number;
  idleDelayMs: number;
  /** Told of every application: the journal rows through this seq are in the tables. */
  onApplied(through: number, entries: number, rows: number): void;
}

/** A thread that says nothing for this long is taken for dead: a read gives up rather than hang the venue. */
const SILENCE_LIMIT_MS = 60_000;

export class StoreWriter {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly acks: { through: number; resolve(): void; reject(err: Error): void }[] = [];
  private applied = 0;
  private applyFailure: Error | undefined;
  private closed = false;
  /** The thread died (it could not open the database, say): every later request fails with this. */
  private dead: Error | undefined;
  /** A journal row could not be written: the thread refuses every later one, and so does this side. */
  private journalFailure: Error | undefined;

  constructor(private readonly options: WriterOptions) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: WriterData = {
      file: options.file,
      nativeBinding: options.nativeBinding,
      port: port2,
      signal: this.signal,
      eagerRows: options.eagerRows,
      chunkRows: options.chunkRows,
      idleDelayMs: options.idleDelayMs,
    };
    const entry = writerEntry();
    this.worker = new Worker(entry.script, { workerData: data, transferList: [port2], argv: entry.argv });
    // The journal is safe on disk: the thread never keeps the process alive.
    this.worker.unref();
    this.port.on('message', (message: WriterAnswer) => this.take(message));
    this.port.unref();
    // The thread starts while the venue restores its state; requests wait in the port until it listens.
    this.worker.on('error', (err) => {
      this.dead = new Error(`the store's writer thread stopped: ${err.message}`, { cause: err });
      for (const ack of this.acks.splice(0)) ack.reject(this.dead);
      this.port.unref();
    });
  }

  /** Resolves once the row is durable; rejects if it could not be written (and so does every later one). */
  append(seq: number, text: string, rows: number): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the venue store is closed'));
    const failure = this.dead ?? this.journalFailure;
    if (failure !== undefined) return Promise.reject(failure);
    return new Promise<void>((resolve, reject) => {
      // Someone waits for this answer: the process stays up for it.
      if (this.acks.length === 0) this.port.ref();
      this.acks.push({ through: seq, resolve, reject });
      this.port.postMessage({ type: 'append', seq, text, rows } satisfies WriterRequest);
    });
  }

  /** Blocks until the tables hold every journal row through `seq`; throws if the thread could not apply them. */
  applyThrough(seq: number): void {
    if (this.applied >= seq) return;
    this.applyFailure = undefined;
    this.port.postMessage({ type: 'apply', through: seq } satisfies WriterRequest);
    this.waitFor(() => this.applied >= seq);
  }

  /** Applies everything, closes the thread's connection and waits for it. Returns the failure to apply, if any. */
  close(): Error | undefined {
    if (this.closed) return undefined;
    this.closed = true;
    this.applyFailure = undefined;
    this.port.postMessage({ type: 'close' } satisfies WriterRequest);
    let done = false;
    const failure = this.tryWait(() => done, (message) => {
      if (message.type === 'closed') done = true;
    });
    this.port.close();
    return failure ?? this.journalFailure ?? this.applyFailure;
  }

  private waitFor(condition: () => boolean): void {
    const failure = this.tryWait(condition);
    if (failure !== undefined) throw failure;
  }

  /** Takes answers off the port, sleeping on the signal between them, until the condition holds or it fails. */
  private tryWait(condition: () => boolean, also?: (message: WriterAnswer) => void): Error | undefined {
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
        const message = m.message as WriterAnswer;
        this.take(message);
        also?.(message);
      }
      if (condition()) return undefined;
      if (this.dead !== undefined) return this.dead;
      if (!this.closed && (this.journalFailure ?? this.applyFailure) !== undefined) return this.journalFailure ?? this.applyFailure;
      if (Atomics.wait(this.signal, 0, seen, SILENCE_LIMIT_MS) === 'timed-out' && Atomics.load(this.signal, 0) === seen) {
        return new Error(`the store's writer thread has not answered for ${SILENCE_LIMIT_MS / 1000} s`);
      }
    }
  }

  private take(message: WriterAnswer): void {
    switch (message.type) {
      case 'appended':
        while (this.acks.length > 0 && (this.acks[0]?.through ?? Infinity) <= message.through) this.acks.shift()?.resolve();
        if (this.acks.length === 0) this.port.unref();
        break;
      case 'appendFailed': {
        const error = new Error(`the journal could not be written: ${message.message}`);
        // The thread refuses every later row too, and what it refused will never reach the tables.
        this.journalFailure ??= error;
        while (this.acks.length > 0 && (this.acks[0]?.through ?? Infinity) <= message.through) this.acks.shift()?.reject(error);
        if (this.acks.length === 0) this.port.unref();
        break;
      }
      case 'applied':
        this.applied = message.through;
        this.options.onApplied(message.through, message.entries, message.rows);
        break;
      case 'applyFailed':
        this.applyFailure = new Error(message.message);
        break;
      case 'closed':
        break;
    }
  }
}

/**
 * The thread's script: the built `store-writer.js` beside this bundle (Electron), or this folder's TypeScript
 * through the tsx loader (tests, benches, `npm run venue`).
 */
function writerEntry(): { script: string; argv: string[] } {
  const built = join(import.meta.dirname, 'store-writer.js');
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return { script: built, argv: [] };
  return { script: join(import.meta.dirname, '../ts-worker-loader.mjs'), argv: [join(import.meta.dirname, 'writer-thread.ts')] };
}
