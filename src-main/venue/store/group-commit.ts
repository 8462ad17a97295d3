/**
 * Group commit: work that arrives while the core is busy is written as one transaction on the next turn of the
 * event loop, so a burst of orders costs one fsync instead of one each. Every caller's promise settles only after
 * its transaction has committed (or failed), which is what lets the venue acknowledge an order once it is durable.
 * The write may finish later (on another thread): the next batch is gathered and handed over meanwhile.
 */

export interface GroupCommitStats {
  /** Transactions committed. */
  batches: number;
  /** Items (change sets) those transactions held. */
  changeSets: number;
  /** Transactions that failed and rolled back; every promise in them was rejected. */
  failedBatches: number;
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

export class GroupCommit<T> {
  private items: T[] = [];
  /** Callers of commit() and flush() waiting on the batch being gathered; same batch, same outcome. */
  private waiters: Waiter[] = [];
  private scheduled = false;
  private closed = false;
  /** The newest batch handed to writeBatch: resolves when it is written or has failed (its callers hear which). */
  private lastBatch: Promise<void> = Promise.resolve();
  private readonly counts: GroupCommitStats = { batches: 0, changeSets: 0, failedBatches: 0 };

  /**
   * @param writeBatch writes the items, in order, in one transaction; throws (having written nothing) on failure,
   *   or returns a promise that settles when the write has finished or failed. Batches finish in the order given.
   * @param maxBatch a batch this large is written at once instead of waiting for the next turn, which bounds
   *   the memory and the length of one transaction under a flood.
   */
  constructor(
    private readonly writeBatch: (items: readonly T[]) => void | Promise<void>,
    private readonly maxBatch: number,
  ) {
    if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  /** `now`: write the batch at once (with whatever is queued) rather than on the next turn. */
  commit(item: T, now = false): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the venue store is closed'));
    return new Promise<void>((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (now || this.items.length >= this.maxBatch) this.drain();
      else this.schedule();
    });
  }

  /** Settles once everything committed before it is written; rejects if the batch it joins fails. */
  flush(): Promise<void> {
    if (this.items.length === 0) return this.lastBatch;
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
    });
  }

  /**
   * Hands over what is queued now, synchronously, and refuses further commits. Returns the error of a write that
   * failed at once, if any (a later failure reaches the callers' promises).
   */
  close(): Error | undefined {
    this.closed = true;
    return this.drain();
  }

  stats(): GroupCommitStats {
    return { ...this.counts };
  }

  /** Whether commits are waiting for the next batch. */
  get queued(): boolean {
    return this.items.length > 0;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // A failure has already reached every caller through its promise.
      this.drain();
    });
  }

  private drain(): Error | undefined {
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    if (items.length === 0) {
      for (const w of waiters) w.resolve();
      return undefined;
    }
    const failed = (err: unknown): Error => {
      this.counts.failedBatches += 1;
      const error = err instanceof Error ? err : new Error(String(err));
      for (const w of waiters) w.reject(error);
      return error;
    };
    const written = (): void => {
      this.counts.batches += 1;
      this.counts.changeSets += items.length;
      for (const w of waiters) w.resolve();
    };
    let pending: void | Promise<void>;
    try {
      pending = this.writeBatch(items);
    } catch (err) {
      return failed(err);
    }
    if (pending === undefined) {
      written();
      return undefined;
    }
    this.lastBatch = pending.then(written, (err: unknown) => {
      failed(err);
    });
    return undefined;
  }
}
