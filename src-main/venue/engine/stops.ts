import type { Side } from './types';

export type StopType = 'STOP_LOSS' | 'TAKE_PROFIT';

interface StopEntry {
  seq: number;
  triggerTicks: number;
  firesOnRise: boolean;
}

/**
 * Whether the stop fires when the last trade rises to or above its trigger (rather than falls to or below it).
 * STOP_LOSS limits a loss: a SELL fires as the price falls, a BUY as it rises. TAKE_PROFIT the other way round.
 */
function firesOnRise(side: Side, stopType: StopType): boolean {
  return (stopType === 'STOP_LOSS') === (side === 'BUY');
}

/**
 * The stop orders of one product waiting for their trigger. The book only knows seqs and triggers; the caller
 * keeps the orders and submits the ones `triggered` returns.
 *
 * Two arrays, one per direction, sorted so the next stop to fire is the last element: a trade then pops stops
 * off the end until one is not met.
 */
export class StopBook {
  /** Fire when last >= trigger; sorted by trigger descending (lowest, the first to fire, at the end). */
  private readonly rising: StopEntry[] = [];
  /** Fire when last <= trigger; sorted by trigger ascending (highest, the first to fire, at the end). */
  private readonly falling: StopEntry[] = [];
  private readonly bySeq = new Map<number, StopEntry>();

  get size(): number {
    return this.bySeq.size;
  }

  has(seq: number): boolean {
    return this.bySeq.has(seq);
  }

  add(seq: number, side: Side, stopType: StopType, triggerTicks: number): void {
    if (this.bySeq.has(seq)) throw new RangeError(`stop ${seq} is already waiting`);
    if (!Number.isSafeInteger(triggerTicks) || triggerTicks <= 0) {
      throw new RangeError(`stop ${seq}: triggerTicks must be a positive whole number`);
    }
    const entry: StopEntry = { seq, triggerTicks, firesOnRise: firesOnRise(side, stopType) };
    const list = entry.firesOnRise ? this.rising : this.falling;
    list.splice(this.firstAfter(list, entry.firesOnRise, triggerTicks), 0, entry);
    this.bySeq.set(seq, entry);
  }

  /** False when no stop with that seq is waiting. */
  remove(seq: number): boolean {
    const entry = this.bySeq.get(seq);
    if (entry === undefined) return false;
    this.bySeq.delete(seq);
    const list = entry.firesOnRise ? this.rising : this.falling;
    list.splice(list.indexOf(entry), 1);
    return true;
  }

  /**
   * Removes and returns the seqs of every stop met by trades printed between `lowTicks` and `highTicks` (one
   * sweep can print through a trigger and end on the other side of it), in arrival (seq) order.
   */
  triggered(lowTicks: number, highTicks: number = lowTicks): number[] {
    const fired: number[] = [];
    const rising = this.rising;
    while (rising.length !== 0 && (rising[rising.length - 1] as StopEntry).triggerTicks <= highTicks) {
      fired.push((rising.pop() as StopEntry).seq);
    }
    const falling = this.falling;
    while (falling.length !== 0 && (falling[falling.length - 1] as StopEntry).triggerTicks >= lowTicks) {
      fired.push((falling.pop() as StopEntry).seq);
    }
    for (const seq of fired) this.bySeq.delete(seq);
    return fired.sort((a, b) => a - b);
  }

  /** Whether a stop with these terms would fire at once: such a stop is rejected at arrival. */
  wouldTriggerNow(side: Side, stopType: StopType, triggerTicks: number, lastTradeTicks: number | undefined): boolean {
    if (lastTradeTicks === undefined) return false;
    return firesOnRise(side, stopType) ? lastTradeTicks >= triggerTicks : lastTradeTicks <= triggerTicks;
  }

  /** Index at which a new trigger goes so the list stays sorted with the first to fire at the end. */
  private firstAfter(list: StopEntry[], rising: boolean, triggerTicks: number): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const t = (list[mid] as StopEntry).triggerTicks;
      if (rising ? t >= triggerTicks : t <= triggerTicks) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
