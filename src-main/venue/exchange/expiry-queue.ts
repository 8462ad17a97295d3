// The orders waiting to expire, by the time they expire: a binary min-heap, so that finding what is due looks at
// what is due and at nothing else. Walking every order with an expiry made each sweep cost as many steps as there
// were GTT orders resting, however far off their time (review-e p3: 5,000 orders an hour out made a place that
// found an expiry due take ten times as long).
//
// An item that leaves before its time (filled, cancelled) is only forgotten: its entry stays in the heap and is
// dropped when it comes to the top, or when such entries outnumber the items still waiting (the heap is then
// rebuilt from those), so leaving costs O(1) and the heap holds at most about twice the items waiting.

interface Entry<T> {
  readonly at: bigint;
  readonly item: T;
}

/** Entries of items gone beyond this many more than those waiting rebuild the heap. */
const SLACK = 64;

export class ExpiryQueue<T> {
  private heap: Entry<T>[] = [];
  private readonly waiting = new Set<T>();

  /** Items waiting. */
  get size(): number {
    return this.waiting.size;
  }

  has(item: T): boolean {
    return this.waiting.has(item);
  }

  /** The item expires at `at` (an item's time never changes); added again while it waits, nothing changes. */
  add(item: T, at: bigint): void {
    if (this.waiting.has(item)) return;
    this.waiting.add(item);
    this.heap.push({ at, item });
    this.up(this.heap.length - 1);
  }

  /** The item no longer waits to expire. */
  remove(item: T): void {
    if (!this.waiting.delete(item)) return;
    if (this.heap.length > 2 * this.waiting.size + SLACK) this.rebuild();
  }

  /** Takes every item whose time is at or before `now` out of the queue, earliest first. */
  takeDue(now: bigint): T[] {
    const due: T[] = [];
    for (let top = this.top(); top !== undefined && top.at <= now; top = this.top()) {
      this.pop();
      this.waiting.delete(top.item);
      due.push(top.item);
    }
    return due;
  }

  /** The earliest entry of an item still waiting, those of items gone dropped on the way. */
  private top(): Entry<T> | undefined {
    let top = this.heap[0];
    while (top !== undefined && !this.waiting.has(top.item)) {
      this.pop();
      top = this.heap[0];
    }
    return top;
  }

  private pop(): void {
    const last = this.heap.pop();
    if (last === undefined || this.heap.length === 0) return;
    this.heap[0] = last;
    this.down(0);
  }

  /** The heap again from the entries of items waiting, one each (an item forgotten and added again had two). */
  private rebuild(): void {
    const kept = new Set<T>();
    this.heap = this.heap.filter((entry) => this.waiting.has(entry.item) && !kept.has(entry.item) && kept.add(entry.item));
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(index: number): void {
    const { heap } = this;
    const entry = heap[index] as Entry<T>;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as Entry<T>;
      if (above.at <= entry.at) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = entry;
  }

  private down(index: number): void {
    const { heap } = this;
    const entry = heap[index] as Entry<T>;
    const half = heap.length >> 1;
    let i = index;
    while (i < half) {
      let child = 2 * i + 1;
      const right = child + 1;
      if (right < heap.length && (heap[right] as Entry<T>).at < (heap[child] as Entry<T>).at) child = right;
      const below = heap[child] as Entry<T>;
      if (entry.at <= below.at) break;
      heap[i] = below;
      i = child;
    }
    heap[i] = entry;
  }
}
