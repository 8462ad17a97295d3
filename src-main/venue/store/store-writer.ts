/**
 * The core's side of the store's writer thread (writer-thread.ts), which applies durable journal records to the
 * tables on the machine's other core. It gets the records from the journal thread directly; the core only asks
 * it to catch up (a read must see every acknowledged change: it waits for that, synchronously or not) and to close.
 */
import type { MessagePort } from 'node:worker_threads';
import { StoreThread } from './store-thread';
import type { ForgetRequest, Forgotten } from './forgetting';
import type { ThreadData } from './thread-answer';

/** How long a read waits for the writer thread to catch up before it gives up (see whenApplied). */
const WAIT_LIMIT_MS = 60_000;

export type WriterRequest =
  | { type: 'apply'; through: number }
  | { type: 'forget'; request: ForgetRequest }
  | { type: 'close' };

export type WriterAnswer =
  | { type: 'applied'; through: number; rows: number; durable: boolean; busyMs: number }
  | { type: 'applyFailed'; message: string; diskFault: boolean }
  | { type: 'forgot'; orders: number; trades: number; failure?: string }
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
  /** Told once, of the first failure to apply that was the disk's (full, or failing): see VenueStore.onDiskFault. */
  onDiskFault(fault: Error): void;
}

export class StoreWriter {
  private readonly thread: StoreThread<WriterRequest, WriterAnswer>;
  private applied: number;
  private durable: number;
  private applyFailure: Error | undefined;
  /** The first failure to apply that was the disk's. */
  private diskFault: Error | undefined;
  private closed = false;
  private closedAnswer = false;
  /** Callers of forget() waiting for their answer, in the order asked (the thread answers in that order). */
  private forgetting: { resolve: (forgotten: Forgotten) => void; reject: (err: Error) => void }[] = [];
  /** Reads waiting, without blocking the core, for the tables to hold a seq (see whenApplied). */
  private waiters: { seq: number; resolve: () => void; reject: (err: Error) => void }[] = [];

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
      (err) => {
        this.settleWaiters(err);
        this.failForgets(err);
      },
    );
  }

  /**
   * Resolves once the tables hold every journal record through `seq`, while the core goes on serving: a read
   * that follows a large change (20,000 orders cancelled at once) waits for its rows without stalling every other
   * client the way applyThrough's blocking wait does. Rejects if the thread could not apply them.
   */
  whenApplied(seq: number): Promise<void> {
    if (this.applied >= seq) return Promise.resolve();
    if (this.thread.dead !== undefined) return Promise.reject(this.thread.dead);
    this.applyFailure = undefined;
    this.thread.post({ type: 'apply', through: seq });
    this.thread.keepAlive(true);
    return new Promise((resolve, reject) => {
      // As applyThrough does, a thread silent this long is taken for stuck: the read fails rather than hang.
      const silence = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        if (this.waiters.length === 0) this.thread.keepAlive(false);
        reject(new Error(`the store's writer thread has not answered for ${WAIT_LIMIT_MS / 1000} s`));
      }, WAIT_LIMIT_MS);
      silence.unref();
      const waiter = { seq, resolve: () => (clearTimeout(silence), resolve()), reject: (err: Error) => (clearTimeout(silence), reject(err)) };
      this.waiters.push(waiter);
    });
  }

  /** See forgetting.ts: done on the writer thread, a bounded transaction at a time, between records it applies. */
  forget(request: ForgetRequest): Promise<Forgotten> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (this.thread.dead !== undefined) return Promise.reject(this.thread.dead);
    this.thread.post({ type: 'forget', request });
    return new Promise((resolve, reject) => this.forgetting.push({ resolve, reject }));
  }

  /** Resolves the waiters the tables now satisfy, or rejects every waiter with `failure`. */
  private settleWaiters(failure?: Error): void {
    const waiting: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (failure !== undefined) w.reject(failure);
      else if (this.applied >= w.seq) w.resolve();
      else waiting.push(w);
    }
    this.waiters = waiting;
    if (waiting.length === 0) this.thread.keepAlive(false);
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
    if (this.waiters.length > 0) this.settleWaiters(new Error('the store closed before the tables held what a read waited for'));
    this.failForgets(new Error('the store closed before the writer thread answered'));
    return failure ?? this.applyFailure;
  }

  private failForgets(err: Error): void {
    for (const caller of this.forgetting.splice(0)) caller.reject(err);
  }

  private take(answer: WriterAnswer): void {
    switch (answer.type) {
      case 'applied':
        this.applied = answer.through;
        if (answer.durable) this.durable = answer.through;
        this.options.onApplied({ through: answer.through, rows: answer.rows, durable: this.durable, busyMs: answer.busyMs });
        if (this.waiters.length > 0) this.settleWaiters();
        break;
      case 'applyFailed':
        this.applyFailure = new Error(answer.message);
        if (answer.diskFault && this.diskFault === undefined) {
          this.diskFault = this.applyFailure;
          this.options.onDiskFault(this.diskFault);
        }
        if (this.waiters.length > 0) this.settleWaiters(this.applyFailure);
        break;
      case 'forgot': {
        const caller = this.forgetting.shift();
        if (answer.failure === undefined) caller?.resolve({ orders: answer.orders, trades: answer.trades });
        else caller?.reject(new Error(answer.failure));
        break;
      }
      case 'closed':
        this.closedAnswer = true;
        break;
    }
  }
}
