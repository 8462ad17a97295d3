/**
 * The core's side of the store's writer thread (writer-thread.ts), which applies durable journal records to the
 * tables on the machine's other core. It gets the records from the journal thread directly; the core only asks
 * it to catch up (a read must see every acknowledged change, so it waits for that synchronously) and to close.
 */
import type { MessagePort } from 'node:worker_threads';
import { StoreThread } from './store-thread';
import type { ThreadData } from './thread-answer';

export type WriterRequest = { type: 'apply'; through: number } | { type: 'close' };

export type WriterAnswer =
  | { type: 'applied'; through: number; rows: number; durable: boolean; busyMs: number }
  | { type: 'applyFailed'; message: string }
  | { type: 'closed' };

export interface WriterData extends ThreadData {
  file: string;
  nativeBinding: string | undefined;
  /** The journal thread's channel: durable records, in seq order. */
  journal: MessagePort;
  /** Pending table rows past which the thread applies without being asked. */
  eagerRows: number;
  /** About how many table rows one applying transaction takes, so a read never waits long behind one. */
  chunkRows: number;
  /** How long after the last record the thread applies what is pending. */
  idleDelayMs: number;
}

export interface WriterOptions {
  file: string;
  nativeBinding: string | undefined;
  journal: MessagePort;
  eagerRows: number;
  chunkRows: number;
  idleDelayMs: number;
  /** The newest journal record the tables held when the store opened. */
  position: number;
  /**
   * Told of every application: the tables hold the journal records through `through`, and through `durable` also
   * after a power cut; `busyMs` is how long the thread spent on it (reading the records, writing, committing).
   */
  onApplied(applied: { through: number; rows: number; durable: number; busyMs: number }): void;
}

export class StoreWriter {
  private readonly thread: StoreThread<WriterRequest, WriterAnswer>;
  private applied: number;
  private durable: number;
  private applyFailure: Error | undefined;
  private closed = false;
  private closedAnswer = false;

  constructor(private readonly options: WriterOptions) {
    const { file, nativeBinding, journal, eagerRows, chunkRows, idleDelayMs } = options;
    this.applied = options.position;
    this.durable = options.position;
    this.thread = new StoreThread<WriterRequest, WriterAnswer>(
      'store-writer',
      'writer-thread.ts',
      { file, nativeBinding, journal, eagerRows, chunkRows, idleDelayMs },
      [journal],
      (answer) => this.take(answer),
      () => undefined,
    );
  }

  /** Blocks until the tables hold every journal record through `seq`; throws if the thread could not apply them. */
  applyThrough(seq: number): void {
    if (this.applied >= seq) return;
    if (this.thread.dead !== undefined) throw this.thread.dead;
    this.applyFailure = undefined;
    this.thread.post({ type: 'apply', through: seq });
    const failure = this.thread.waitUntil(() => this.applied >= seq, () => this.applyFailure);
    if (failure !== undefined) throw failure;
  }

  /**
   * Applies everything the journal thread handed over (close that first), closes the thread's connection and
   * waits for it. Returns the failure to apply, if any.
   */
  close(): Error | undefined {
    if (this.closed) return undefined;
    this.closed = true;
    this.applyFailure = undefined;
    this.thread.post({ type: 'close' });
    const failure = this.thread.waitUntil(() => this.closedAnswer, () => undefined);
    this.thread.closePort();
    return failure ?? this.applyFailure;
  }

  private take(answer: WriterAnswer): void {
    switch (answer.type) {
      case 'applied':
        this.applied = answer.through;
        if (answer.durable) this.durable = answer.through;
        this.options.onApplied({ through: answer.through, rows: answer.rows, durable: this.durable, busyMs: answer.busyMs });
        break;
      case 'applyFailed':
        this.applyFailure = new Error(answer.message);
        break;
      case 'closed':
        this.closedAnswer = true;
        break;
    }
  }
}
