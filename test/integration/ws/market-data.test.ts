// Market data on the WebSocket (the venue contract's extension, docs/api.md "WebSocket messages"): level2
// snapshot and sequenced updates that rebuild the REST book, trades with the taker's side, ticker, candles,
// unknown products, unsub, and resubscribing on a new connection.
import { describe, expect, it } from 'vitest';
import { atoms, type Trader, type WireLevel, type WireOrderBook, type WirePublicTrade } from '../harness';
import type { Frame, TestSocket } from './ws-client';
import { BTC, ETH, SOL, expectErrorEvent, limitData, orderUpdate, px, useWsVenue, type WsVenue } from './ws-venue';

const venue = useWsVenue();

async function restOrder(v: WsVenue, trader: Trader, body: Record<string, unknown>): Promise<{ order_id: string; status: string }> {
  const reply = await v.call<{ order: { order_id: string; status: string } }>('POST', '/api/v1/orders', { key: trader.creds, body: { product_id: BTC, wait: true, ...body } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.order;
}

async function restCancel(v: WsVenue, trader: Trader, orderId: string): Promise<void> {
  const reply = await v.call('DELETE', '/api/v1/order/active', { key: trader.creds, query: { order_id: orderId } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

async function sub(socket: TestSocket, channel: string, productIds: string[]): Promise<Frame> {
  const answer = await socket.request({ op: 'sub', channel, product_ids: productIds });
  expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'subscriptions', type: 'update' });
  return answer;
}

function frames(socket: TestSocket, channel: string, type: string, productId: string, from = 0): Frame[] {
  return socket.frames.slice(from).filter((f) => f['channel'] === channel && f['type'] === type && f['product_id'] === productId);
}

/** A book kept from a snapshot and absolute level changes, as a client keeps it. */
class LocalBook {
  private readonly sides = { bid: new Map<string, WireLevel>(), ask: new Map<string, WireLevel>() };

  constructor(snapshot: Frame) {
    for (const level of snapshot['bids'] as WireLevel[]) this.sides.bid.set(level.price, level);
    for (const level of snapshot['asks'] as WireLevel[]) this.sides.ask.set(level.price, level);
  }

  apply(update: Frame): void {
    for (const c of update['changes'] as { side: 'bid' | 'ask'; price: string; size: string; order_count: number }[]) {
      if (c.size === '0') this.sides[c.side].delete(c.price);
      else this.sides[c.side].set(c.price, { price: c.price, size: c.size, order_count: c.order_count });
    }
  }

  /** Best first, as the REST order book lists them. Prices are whole VND, so BigInt orders them exactly. */
  levels(): { bids: WireLevel[]; asks: WireLevel[] } {
    const byPrice = (a: WireLevel, b: WireLevel): number => (BigInt(a.price) < BigInt(b.price) ? -1 : BigInt(a.price) > BigInt(b.price) ? 1 : 0);
    return {
      bids: [...this.sides.bid.values()].sort(byPrice).reverse(),
      asks: [...this.sides.ask.values()].sort(byPrice),
    };
  }
}

function restLevels(book: WireOrderBook): { bids: WireLevel[]; asks: WireLevel[] } {
  return { bids: book.bids, asks: book.asks };
}

describe('level2', () => {
  it('a snapshot like the REST book, then l2updates numbered +1 each time that rebuild the REST book', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    await restOrder(v, maker, { side: 'BUY', limit_price: px(-1), base_size: '0.01' });
    await restOrder(v, maker, { side: 'SELL', limit_price: px(3), base_size: '0.03' });

    const socket = await v.connect();
    const from = socket.mark();
    await sub(socket, 'level2', [BTC]);
    const snapshot = await socket.next((f) => f['channel'] === 'level2' && f['type'] === 'snapshot', 5_000, from);
    const before = await v.book(BTC);
    expect(snapshot['product_id']).toBe(BTC);
    expect(snapshot['sequence']).toBe(Number(before.sequence));
    expect(restLevels(before)).toEqual({ bids: snapshot['bids'], asks: snapshot['asks'] });

    // Levels appear, grow, shrink by a fill, go by a fill and by a cancel.
    const second = await restOrder(v, maker, { side: 'BUY', limit_price: px(-2), base_size: '0.02' });
    await restOrder(v, maker, { side: 'BUY', limit_price: px(-1), base_size: '0.005' });
    await restOrder(v, maker, { side: 'SELL', limit_price: px(1), base_size: '0.01' });
    await restOrder(v, taker, { side: 'SELL', limit_price: px(-1), base_size: '0.012' });
    await restCancel(v, maker, second.order_id);
    await restOrder(v, taker, { side: 'BUY', limit_price: px(1), base_size: '0.01' });
    await socket.barrier();

    const updates = frames(socket, 'level2', 'l2update', BTC, from);
    const first = snapshot['sequence'] as number;
    expect(updates.map((u) => u['sequence'])).toEqual(updates.map((_u, i) => first + 1 + i));
    expect(updates.length).toBeGreaterThanOrEqual(6);
    const local = new LocalBook(snapshot);
    for (const update of updates) local.apply(update);
    const after = await v.book(BTC);
    expect(local.levels()).toEqual(restLevels(after));
    expect(Number(after.sequence)).toBe(updates.at(-1)?.['sequence']);
    expect(local.levels().bids).toEqual([{ price: px(-1), size: '0.003', order_count: 1 }]);
  });

  it('a snapshot taken while an order is still committing is followed by the update numbered snapshot + 1', async () => {
    const v = venue();
    const socket = await v.session(await v.newTrader());
    // Both frames reach the venue in one read: the order changes the book, and the sub is answered before the
    // commit that publishes that change.
    const from = socket.mark();
    socket.send({ op: 'create_order', data: limitData('buy', px(-100), '0.001') });
    socket.send({ op: 'sub', channel: 'level2', product_ids: [BTC] });
    await socket.barrier();
    // The change the snapshot already holds is not sent again; the next change is snapshot + 1.
    socket.send({ op: 'create_order', data: limitData('buy', px(-101), '0.001') });
    await socket.next((f) => f['type'] === 'l2update', 5_000, from);
    await socket.barrier();
    const snapshot = await socket.next((f) => f['type'] === 'snapshot', 5_000, from);
    const updates = frames(socket, 'level2', 'l2update', BTC, from);
    const first = snapshot['sequence'] as number;
    expect(updates.map((u) => u['sequence']), `after snapshot ${first}`).toEqual(updates.map((_u, i) => first + 1 + i));
  });

  it('a sub between two orders of one turn gets the book as the whole turn leaves it, or the update with the rest', async () => {
    const v = venue();
    const socket = await v.session(await v.newTrader());
    const from = socket.mark();
    // Three frames in one write: the venue reads them in one turn, so the sub comes between the two orders.
    const raw = (socket.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    raw.cork();
    socket.send({ op: 'create_order', data: limitData('buy', px(-100), '0.001') });
    socket.send({ op: 'sub', channel: 'level2', product_ids: [BTC] });
    socket.send({ op: 'create_order', data: limitData('buy', px(-101), '0.001') });
    raw.uncork();
    await socket.next((f) => f['type'] === 'snapshot', 5_000, from);
    await socket.barrier();
    const [snapshot, ...updates] = socket.frames.slice(from).filter((f) => f['channel'] === 'level2');
    if (snapshot === undefined) throw new Error('no snapshot');
    expect(snapshot['type']).toBe('snapshot');
    const local = new LocalBook(snapshot);
    for (const update of updates) local.apply(update);
    const rest = await v.book(BTC);
    expect(local.levels()).toEqual(restLevels(rest));
    expect(updates.at(-1)?.['sequence'] ?? snapshot['sequence']).toBe(Number(rest.sequence));
    expect(local.levels().bids.map((l) => l.price)).toEqual([px(-100), px(-101)]);
  });

  it('a client that resubscribes on a new connection gets a snapshot of the book as it now is', async () => {
    const v = venue();
    const maker = await v.newTrader();
    const first = await v.connect();
    await sub(first, 'level2', [BTC]);
    await first.next((f) => f['type'] === 'snapshot');
    first.close();
    await first.closed();
    await restOrder(v, maker, { side: 'SELL', limit_price: px(7), base_size: '0.004' });

    const again = await v.connect();
    const from = again.mark();
    await sub(again, 'level2', [BTC]);
    const snapshot = await again.next((f) => f['type'] === 'snapshot', 5_000, from);
    const book = await v.book(BTC);
    expect({ bids: snapshot['bids'], asks: snapshot['asks'] }).toEqual(restLevels(book));
    expect(snapshot['sequence']).toBe(Number(book.sequence));
    expect(book.asks).toContainEqual({ price: px(7), size: '0.004', order_count: 1 });

    await restOrder(v, maker, { side: 'SELL', limit_price: px(8), base_size: '0.001' });
    const update = await again.next((f) => f['type'] === 'l2update', 5_000, from);
    expect(update['sequence']).toBe((snapshot['sequence'] as number) + 1);
    expect(update['changes']).toEqual([{ side: 'ask', price: px(8), size: '0.001', order_count: 1 }]);
  });

  it('a better level that pushes the 50th out of the top 50 removes it with size "0"; it comes back when room is made', async () => {
    const v = venue();
    const maker = await v.newTrader();
    const bids: string[] = [];
    for (let i = 1; i <= 50; i += 1) {
      const order = await restOrder(v, maker, { side: 'BUY', limit_price: px(-i), base_size: '0.001' });
      bids.push(order.order_id);
    }
    const socket = await v.connect();
    const from = socket.mark();
    await sub(socket, 'level2', [BTC]);
    const snapshot = await socket.next((f) => f['type'] === 'snapshot', 5_000, from);
    expect((snapshot['bids'] as WireLevel[]).map((l) => l.price)).toEqual(bids.map((_id, i) => px(-1 - i)));
    const local = new LocalBook(snapshot);

    const better = await restOrder(v, maker, { side: 'BUY', limit_price: px(0), base_size: '0.002' });
    const pushed = await socket.next((f) => f['type'] === 'l2update', 5_000, from);
    expect(pushed['sequence']).toBe((snapshot['sequence'] as number) + 1);
    const changes = pushed['changes'] as Frame[];
    expect(changes, JSON.stringify(changes)).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        { side: 'bid', price: px(0), size: '0.002', order_count: 1 },
        expect.objectContaining({ side: 'bid', price: px(-50), size: '0' }),
      ]),
    );
    local.apply(pushed);
    // Pushed out, not gone: the order still rests, 51st, where a client of the top 50 does not see it.
    expect(local.levels()).toEqual(restLevels(await v.book(BTC)));
    const deeper = await v.call<{ orderbook: WireOrderBook }>('GET', `/products/${BTC}/orderbook`, { query: { depth: '51' } });
    expect(deeper.body.orderbook.bids.at(-1)).toEqual({ price: px(-50), size: '0.001', order_count: 1 });

    const mark = socket.mark();
    await restCancel(v, maker, better.order_id);
    const back = await socket.next((f) => f['type'] === 'l2update', 5_000, mark);
    expect(back['sequence']).toBe((pushed['sequence'] as number) + 1);
    expect(back['changes']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ side: 'bid', price: px(0), size: '0' }),
        { side: 'bid', price: px(-50), size: '0.001', order_count: 1 },
      ]),
    );
    local.apply(back);
    expect(local.levels()).toEqual(restLevels(await v.book(BTC)));
  });

  it('one sub for several products sends a snapshot of each, and updates only for the products that change', async () => {
    const v = venue();
    const maker = await v.newTrader();
    const socket = await v.connect();
    const answer = await sub(socket, 'level2', [ETH, SOL]);
    expect(answer['subscriptions']).toEqual([{ channel: 'level2', product_ids: [ETH, SOL] }]);
    await socket.next((f) => f['type'] === 'snapshot' && f['product_id'] === ETH);
    await socket.next((f) => f['type'] === 'snapshot' && f['product_id'] === SOL);
    const from = socket.mark();
    await restOrder(v, maker, { product_id: ETH, side: 'BUY', limit_price: '80000000', base_size: '0.01' });
    await restOrder(v, maker, { side: 'BUY', limit_price: px(-50), base_size: '0.001' });
    await socket.barrier();
    const updates = socket.frames.slice(from).filter((f) => f['channel'] === 'level2');
    expect(updates.map((u) => u['product_id'])).toEqual([ETH]);
    expect(updates[0]?.['changes']).toEqual([{ side: 'bid', price: '80000000', size: '0.01', order_count: 1 }]);
  });
});

describe('trades', () => {
  it('each match sends the new trades with the taker’s side, as REST lists them', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.connect();
    await sub(socket, 'trades', [BTC]);
    const from = socket.mark();
    await restOrder(v, maker, { side: 'SELL', limit_price: px(0), base_size: '0.002' });
    await restOrder(v, maker, { side: 'SELL', limit_price: px(1), base_size: '0.002' });
    await restOrder(v, taker, { side: 'BUY', limit_price: px(1), base_size: '0.003' });
    await restOrder(v, maker, { side: 'BUY', limit_price: px(-1), base_size: '0.001' });
    await restOrder(v, taker, { side: 'SELL', limit_price: px(-1), base_size: '0.001' });
    await socket.barrier();

    const events = frames(socket, 'trades', 'update', BTC, from);
    expect(events).toHaveLength(2);
    const [buy, sell] = events as [Frame, Frame];
    expect(buy['data']).toEqual([
      expect.objectContaining({ product_id: BTC, price: px(0), size: '0.002', side: 'BUY' }),
      expect.objectContaining({ product_id: BTC, price: px(1), size: '0.001', side: 'BUY' }),
    ]);
    expect(sell['data']).toEqual([expect.objectContaining({ product_id: BTC, price: px(-1), size: '0.001', side: 'SELL' })]);

    const rest = await v.call<{ trades: Frame[] }>('GET', `/products/${BTC}/trades`, { query: { limit: '3' } });
    const pushed = [...(buy['data'] as Frame[]), ...(sell['data'] as Frame[])];
    expect(rest.body.trades).toEqual([...pushed].reverse());
    for (const trade of pushed) expect(trade['time']).toMatch(/^[1-9]\d{18}$/);
  });
});

describe('ticker', () => {
  it('one on subscribe, and one on each change of the book or the last price', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.connect();
    const from = socket.mark();
    await sub(socket, 'ticker', [SOL]);
    const initial = await socket.next((f) => f['channel'] === 'ticker', 5_000, from);
    expect(initial).toMatchObject({ type: 'update', product_id: SOL, best_bid: '', best_ask: '', price: '' });

    const mark = socket.mark();
    await restOrder(v, maker, { product_id: SOL, side: 'BUY', limit_price: '3990000', base_size: '1' });
    await restOrder(v, maker, { product_id: SOL, side: 'SELL', limit_price: '4010000', base_size: '2' });
    await restOrder(v, taker, { product_id: SOL, side: 'BUY', limit_price: '4010000', base_size: '0.5' });
    await socket.barrier();
    const tickers = frames(socket, 'ticker', 'update', SOL, mark);
    expect(tickers).toHaveLength(3);
    expect(tickers[0]).toMatchObject({ best_bid: '3990000', best_bid_size: '1', best_ask: '', price: '' });
    expect(tickers[1]).toMatchObject({ best_bid: '3990000', best_ask: '4010000', best_ask_size: '2', price: '' });
    expect(tickers[2]).toMatchObject({ best_bid: '3990000', best_ask: '4010000', best_ask_size: '1.5', price: '4010000', volume_24h: '0.5' });
    for (const t of tickers) expect(t['time']).toMatch(/^[1-9]\d{18}$/);
  });
  it('never runs ahead of the level2 and trades events it follows, when one turn is committed in two parts', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    await restOrder(v, maker, { product_id: SOL, side: 'SELL', limit_price: '5000000', base_size: '10' });
    const observer = await v.connect();
    const from = observer.mark();
    for (const channel of ['level2', 'trades', 'ticker']) await sub(observer, channel, [SOL]);
    const socket = await v.session(taker);
    // 65 frames in one read: the 64th commits the first part early, and the 65th trades before that commit is
    // published, so a ticker read at publishing would already show the trade.
    const raw = (socket.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    raw.cork();
    for (let i = 0; i < 64; i++) socket.send({ op: 'create_order', data: limitData('buy', String(3_000_000 - i * 100), '0.01', { product_id: SOL }) });
    socket.send({ op: 'create_order', data: { type: 'market', side: 'buy', product_id: SOL, size: '1' } });
    raw.uncork();
    await observer.next((f) => f['channel'] === 'trades' && f['type'] === 'update', 5_000, from);
    await observer.barrier();

    let book: LocalBook | undefined;
    let lastPrice = '';
    let tickers = 0;
    for (const f of observer.frames.slice(from)) {
      if (f['channel'] === 'level2') {
        if (f['type'] === 'snapshot') book = new LocalBook(f);
        else book?.apply(f);
      } else if (f['channel'] === 'trades' && f['type'] === 'update') {
        lastPrice = ((f['data'] as Frame[]).at(-1)?.['price'] as string | undefined) ?? lastPrice;
      } else if (f['channel'] === 'ticker' && book !== undefined) {
        tickers += 1;
        // The first answers the sub: the last price of trades before it (another test's, on this venue).
        if (tickers === 1) lastPrice = f['price'] as string;
        const { bids, asks } = book.levels();
        const seen = { price: lastPrice, best_bid: bids[0]?.price ?? '', best_bid_size: bids[0]?.size ?? '', best_ask: asks[0]?.price ?? '', best_ask_size: asks[0]?.size ?? '' };
        expect(f, `ticker ${tickers} against the events before it`).toMatchObject(seen);
      }
    }
    expect(lastPrice).toBe('5000000');
    expect(tickers).toBeGreaterThanOrEqual(2);
  });
});

describe('candles', () => {
  it('a snapshot on subscribe, then an update of the current candle on each trade', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    const socket = await v.connect();
    const from = socket.mark();
    await sub(socket, 'candles', [ETH]);
    const snapshot = await socket.next((f) => f['channel'] === 'candles' && f['type'] === 'snapshot', 5_000, from);
    expect(snapshot).toMatchObject({ product_id: ETH });
    expect(Array.isArray(snapshot['candles'])).toBe(true);

    const mark = socket.mark();
    await restOrder(v, maker, { product_id: ETH, side: 'SELL', limit_price: '90000000', base_size: '0.01' });
    await restOrder(v, taker, { product_id: ETH, side: 'BUY', limit_price: '90000000', base_size: '0.004' });
    await restOrder(v, maker, { product_id: ETH, side: 'SELL', limit_price: '89000000', base_size: '0.002' });
    await restOrder(v, taker, { product_id: ETH, side: 'BUY', limit_price: '89000000', base_size: '0.002' });
    await socket.barrier();
    const updates = frames(socket, 'candles', 'update', ETH, mark);
    expect(updates).toHaveLength(2);
    const last = (updates[1]?.['candles'] as Frame[]).at(-1);
    expect(last).toMatchObject({ close: '89000000', low: '89000000' });
    expect(last?.['start']).toMatch(/^[1-9]\d{18}$/);
    expect(BigInt(last?.['start'] as string) % 60_000_000_000n).toBe(0n);
    // Both trades fell in one minute unless the minute turned between them; either way the volumes add up.
    const first = (updates[0]?.['candles'] as Frame[]).at(-1);
    if (first?.['start'] === last?.['start']) expect(last).toMatchObject({ open: '90000000', high: '90000000', volume: '0.006' });
    else expect(last).toMatchObject({ open: '89000000', volume: '0.002' });
  });
});

describe('candles after a snapshot', () => {
  it('never go back to a state older than the snapshot, when trades before it are still committing', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    await restOrder(v, maker, { product_id: ETH, side: 'SELL', limit_price: '95000000', base_size: '0.1' });
    const socket = await v.session(taker);
    const from = socket.mark();
    // One read: the 64th command commits the first part of the turn early, trades fall on both sides of it (the
    // venue's clock may have run a command of the same turn first), and the sub reads the candles while the first
    // part's update is still to be published.
    const raw = (socket.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    raw.cork();
    for (let i = 0; i < 60; i++) socket.send({ op: 'create_order', data: limitData('buy', String(50_000_000 - i * 1000), '0.001', { product_id: ETH }) });
    for (let i = 0; i < 8; i++) socket.send({ op: 'create_order', data: { type: 'market', side: 'buy', product_id: ETH, size: '0.001' } });
    socket.send({ op: 'sub', channel: 'candles', product_ids: [ETH] });
    raw.uncork();
    await socket.next((f) => f['channel'] === 'candles' && f['type'] === 'snapshot', 5_000, from);
    // A trade after the snapshot, whose update must reach the client.
    socket.send({ op: 'create_order', data: { type: 'market', side: 'buy', product_id: ETH, size: '0.004', client_order_id: 'after-snapshot' } });
    await orderUpdate(socket, 'after-snapshot', ['filled'], from);
    await socket.barrier();

    const shown = new Map<string, Frame>();
    let updates = 0;
    for (const f of socket.frames.slice(from)) {
      if (f['channel'] !== 'candles') continue;
      if (f['type'] === 'update') updates += 1;
      for (const c of f['candles'] as Frame[]) {
        const before = shown.get(c['start'] as string);
        if (before !== undefined) expect(atoms(c['volume'] as string, 8) >= atoms(before['volume'] as string, 8), `${JSON.stringify(c)} after ${JSON.stringify(before)}`).toBe(true);
        shown.set(c['start'] as string, c);
      }
    }
    expect(updates).toBeGreaterThanOrEqual(1);
    const tape = await v.call<{ trades: WirePublicTrade[] }>('GET', `/products/${ETH}/trades`, { query: { limit: '1000' } });
    const last = candlesOf(tape.body.trades).at(-1);
    const final = shown.get(last?.start ?? '');
    expect(final).toMatchObject({ close: '95000000' });
    expect(atoms(final?.['volume'] as string, 8)).toBe(last?.volume);
  });
});

/** One-minute candles as docs/api.md defines them, from public trades: per minute the first, highest, lowest and last price and the size traded. */
function candlesOf(trades: readonly WirePublicTrade[]): { start: string; open: string; high: string; low: string; close: string; volume: bigint }[] {
  const oldestFirst = [...trades].sort((a, b) => (BigInt(a.time) < BigInt(b.time) ? -1 : BigInt(a.time) > BigInt(b.time) ? 1 : 0));
  const candles = new Map<bigint, { start: string; open: string; high: string; low: string; close: string; volume: bigint }>();
  for (const trade of oldestFirst) {
    const start = BigInt(trade.time) - (BigInt(trade.time) % 60_000_000_000n);
    const candle = candles.get(start) ?? { start: String(start), open: trade.price, high: trade.price, low: trade.price, close: trade.price, volume: 0n };
    if (BigInt(trade.price) > BigInt(candle.high)) candle.high = trade.price;
    if (BigInt(trade.price) < BigInt(candle.low)) candle.low = trade.price;
    candle.close = trade.price;
    candle.volume += atoms(trade.size, 8);
    candles.set(start, candle);
  }
  return [...candles.values()];
}

describe('candles snapshot', () => {
  it('holds the open, high, low, close and volume of the trades made before the subscription', async () => {
    const v = venue();
    const [maker, taker] = [await v.newTrader(), await v.newTrader()];
    // Open 90 000 000, high 91 000 000, low 88 000 000, close 89 000 000, 0.010 ETH in all.
    const fills: [price: string, size: string][] = [
      ['90000000', '0.004'],
      ['91000000', '0.001'],
      ['88000000', '0.002'],
      ['89000000', '0.003'],
    ];
    for (const [price, size] of fills) {
      await restOrder(v, maker, { product_id: ETH, side: 'SELL', limit_price: price, base_size: size });
      await restOrder(v, taker, { product_id: ETH, side: 'BUY', limit_price: price, base_size: size });
    }

    const socket = await v.connect();
    const from = socket.mark();
    await sub(socket, 'candles', [ETH]);
    const snapshot = await socket.next((f) => f['channel'] === 'candles' && f['type'] === 'snapshot', 5_000, from);
    const candles = snapshot['candles'] as Frame[];

    // The tape holds every ETH trade of this venue (far fewer than its 1,000), other tests' included, and the
    // minute may have turned between these four: the candles are whatever the tape's trades make of them.
    const tape = await v.call<{ trades: WirePublicTrade[] }>('GET', `/products/${ETH}/trades`, { query: { limit: '1000' } });
    const ours = tape.body.trades.slice(0, fills.length).reverse();
    expect(ours.map((t) => [t.price, t.size])).toEqual(fills);
    const expected = candlesOf(tape.body.trades);
    expect(expected.length).toBeLessThanOrEqual(60);
    expect(candles.map((c) => ({ ...c, volume: atoms(c['volume'] as string, 8) }))).toEqual(expected);
    expect(candles.at(-1)).toMatchObject({ close: '89000000' });
    const traded = candles.reduce((sum, c) => sum + atoms(c['volume'] as string, 8), 0n);
    expect(traded >= atoms('0.01', 8)).toBe(true);
  });
});

describe('subscriptions', () => {
  it('a sub naming an unknown product is a 400 error and subscribes to nothing', async () => {
    const v = venue();
    const socket = await v.connect();
    const answer = await socket.request({ op: 'sub', channel: 'level2', product_ids: [BTC, 'DOGE-VND'] });
    expect(answer['channel']).toBe('level2');
    expectErrorEvent(answer, 400, 'invalid product');
    const from = socket.mark();
    await restOrder(v, await v.newTrader(), { side: 'BUY', limit_price: px(-30), base_size: '0.001' });
    await socket.barrier();
    expect(socket.frames.slice(from).filter((f) => f['channel'] === 'level2')).toEqual([]);
  });

  it('unsub stops the channel’s events for that product and leaves the others', async () => {
    const v = venue();
    const maker = await v.newTrader();
    const socket = await v.connect();
    await sub(socket, 'level2', [BTC]);
    await sub(socket, 'ticker', [BTC]);
    const answer = await socket.request({ op: 'unsub', channel: 'level2', product_ids: [BTC] });
    expect(answer).toMatchObject({ channel: 'subscriptions', type: 'update', subscriptions: [{ channel: 'ticker', product_ids: [BTC] }] });
    const from = socket.mark();
    await restOrder(v, maker, { side: 'BUY', limit_price: px(-40), base_size: '0.001' });
    await socket.barrier();
    const later = socket.frames.slice(from);
    expect(later.filter((f) => f['channel'] === 'level2')).toEqual([]);
    expect(later.filter((f) => f['channel'] === 'ticker')).toHaveLength(1);
  });
});
