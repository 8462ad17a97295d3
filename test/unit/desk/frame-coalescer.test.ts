// Events reach a window at most once a frame, and what reaches it is the book as it stands. Frames are stepped
// by hand so the test counts frames, not milliseconds.
import { describe, expect, it } from 'vitest';
import { LocalBook } from '../../../src-main/connection/local-book';
import { DeskEvents, FrameCoalescer, type DeskEvent, type FrameScheduler } from '../../../src-main/desk/desk-events';
import type { Order } from '../../../src-shared/protocol/records';

class ManualFrames {
  private queued: (() => void) | undefined;
  readonly schedule: FrameScheduler = (flush) => {
    this.queued = flush;
    return () => {
      this.queued = undefined;
    };
  };
  frame(): void {
    const flush = this.queued;
    this.queued = undefined;
    flush?.();
  }
}

function snapshot(book: LocalBook): DeskEvent & { name: 'book.changed' } {
  const view = book.view(50);
  return { name: 'book.changed', payload: { productId: view.productId, sequence: view.sequence, time: view.time, source: view.source, bids: [...view.bids], asks: [...view.asks] } };
}

describe('FrameCoalescer', () => {
  it('hands a window one whole book a frame while the book changes a thousand times a second', () => {
    const hub = new DeskEvents();
    const frames = new ManualFrames();
    const delivered: DeskEvent[] = [];
    const coalescer = new FrameCoalescer(hub.onDidEmit, (e) => delivered.push(e), frames.schedule);
    const book = new LocalBook('BTC-VND');
    book.applySnapshot({ product_id: 'BTC-VND', sequence: 1, time: '1', bids: [{ price: '100', size: '1', order_count: 1 }], asks: [{ price: '200', size: '1', order_count: 1 }] }, 'stream');

    // A thousand changes over one second: about 16 to a 60 Hz frame.
    let sequence = 1;
    for (let frame = 0; frame < 60; frame++) {
      for (let i = 0; i < 17 && sequence < 1001; i++) {
        sequence++;
        book.applyUpdate({
          channel: 'level2',
          type: 'l2update',
          product_id: 'BTC-VND',
          sequence,
          time: String(sequence),
          changes: [{ side: sequence % 2 === 0 ? 'bid' : 'ask', price: String(sequence % 2 === 0 ? 100 - (sequence % 7) : 200 + (sequence % 5)), size: String(sequence % 3), order_count: sequence % 3 }],
        });
        hub.emit('book.changed', snapshot(book).payload);
      }
      frames.frame();
    }
    expect(sequence).toBe(1001);
    expect(delivered.length).toBeLessThanOrEqual(60);
    expect(delivered.every((e) => e.name === 'book.changed')).toBe(true);
    expect(delivered.at(-1)).toEqual(snapshot(book));
    // Every delivery is a book the desk held at some moment: sequences only go forward.
    const sequences = delivered.map((e) => (e.name === 'book.changed' ? e.payload.sequence : 0));
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    coalescer.dispose();
  });

  it('delivers nothing until the frame, then each kind once', () => {
    const hub = new DeskEvents();
    const frames = new ManualFrames();
    const delivered: DeskEvent[] = [];
    const coalescer = new FrameCoalescer(hub.onDidEmit, (e) => delivered.push(e), frames.schedule);
    const order = (id: string, status: string): Order => ({ order_id: id, status }) as unknown as Order;
    hub.emit('orders.changed', [order('a', 'SUBMITTED'), order('b', 'ACTIVE')]);
    hub.emit('orders.changed', [order('a', 'ACTIVE')]);
    hub.emit('trades.received', { productId: 'BTC-VND', trades: [{ id: '1', product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: '1' }] });
    hub.emit('trades.received', { productId: 'BTC-VND', trades: [{ id: '2', product_id: 'BTC-VND', price: '1', size: '1', side: 'BUY', time: '2' }] });
    expect(delivered).toEqual([]);
    frames.frame();
    expect(delivered).toHaveLength(2);
    expect(delivered[0]).toEqual({ name: 'orders.changed', payload: [order('a', 'ACTIVE'), order('b', 'ACTIVE')] });
    expect(delivered[1]?.name === 'trades.received' && delivered[1].payload.trades.map((t) => t.id)).toEqual(['1', '2']);
    coalescer.dispose();
  });

  it('stops delivering once disposed', () => {
    const hub = new DeskEvents();
    const frames = new ManualFrames();
    const delivered: DeskEvent[] = [];
    const coalescer = new FrameCoalescer(hub.onDidEmit, (e) => delivered.push(e), frames.schedule);
    hub.emit('account.changed', { id: 'u' } as never);
    coalescer.dispose();
    frames.frame();
    hub.emit('account.changed', { id: 'u' } as never);
    frames.frame();
    expect(delivered).toEqual([]);
  });

  it('on real timers, a burst of a thousand books reaches the window as the last one', async () => {
    const hub = new DeskEvents();
    const delivered: DeskEvent[] = [];
    const coalescer = new FrameCoalescer(hub.onDidEmit, (e) => delivered.push(e));
    for (let i = 1; i <= 1000; i++) hub.emit('book.changed', { productId: 'ETH-VND', sequence: i, time: String(i), source: 'stream', bids: [], asks: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.name === 'book.changed' && delivered[0].payload.sequence).toBe(1000);
    coalescer.dispose();
  });

  it("delivers what the old session sent before a change of session, never after it on the new one's panels", () => {
    const hub = new DeskEvents();
    const frames = new ManualFrames();
    const delivered: DeskEvent[] = [];
    new FrameCoalescer(hub.onDidEmit, (e) => delivered.push(e), frames.schedule);
    const development = { environment: 'development', production: false, state: 'live', apiKey: 'd', detail: '' } as const;
    const production = { environment: 'production', production: true, state: 'live', apiKey: 'p', detail: '' } as const;
    hub.emit('connection.changed', development);
    frames.frame();
    delivered.length = 0;
    const trade = { id: 't1', product_id: 'BTC-VND', price: '100', size: '1', side: 'BUY', time: '1' } as const;
    // In one frame: Development's trade, the switch, then Production's trade of the same product.
    hub.emit('trades.received', { productId: 'BTC-VND', trades: [trade] });
    hub.emit('connection.changed', production);
    hub.emit('trades.received', { productId: 'BTC-VND', trades: [{ ...trade, id: 't2' }] });
    frames.frame();
    expect(delivered.map((e) => (e.name === 'trades.received' ? e.payload.trades.map((t) => t.id).join() : e.name))).toEqual(['t1', 'connection.changed', 't2']);
    // A status of the same session (a latency measured) waits for the frame: one batch, not two.
    delivered.length = 0;
    hub.emit('trades.received', { productId: 'BTC-VND', trades: [{ ...trade, id: 't3' }] });
    hub.emit('connection.changed', { ...production, latencyMs: 3 });
    expect(delivered).toEqual([]);
    frames.frame();
    expect(delivered.map((e) => e.name)).toEqual(['trades.received', 'connection.changed']);
  });
});
