// Public market data (interface 4.11, contract "Public records"): no credentials, exact record shapes.
import { describe, expect, it } from 'vitest';
import {
  BTC,
  expectError,
  expectOk,
  limit,
  placeOrder,
  px,
  useVenue,
  type WireLevel,
  type WireOrderBook,
  type WireProduct,
  type WirePublicTrade,
} from '../harness';

const venue = useVenue({ cleanBooks: true });

async function orderbook(query: Record<string, string> = {}, product = BTC): Promise<WireOrderBook> {
  const reply = await venue().call<{ orderbook: WireOrderBook }>('GET', `/products/${product}/orderbook`, { query });
  const book = expectOk(reply).orderbook;
  expect(Object.keys(book).sort()).toEqual(['asks', 'bids', 'product_id', 'sequence', 'time']);
  expect(book.product_id).toBe(product);
  expect(book.time).toMatch(/^\d+$/);
  for (const level of [...book.bids, ...book.asks]) {
    expect(Object.keys(level).sort()).toEqual(['order_count', 'price', 'size']);
    expect(typeof level.price).toBe('string');
    expect(typeof level.size).toBe('string');
    expect(Number.isInteger(level.order_count)).toBe(true);
  }
  return book;
}

/** The book sequence as a number, whether the venue sends it as a JSON integer or a digit string. */
function sequenceOf(book: WireOrderBook): number {
  const s = book.sequence;
  if (typeof s === 'number' && Number.isInteger(s)) return s;
  if (typeof s === 'string' && /^\d+$/.test(s)) return Number(s);
  throw new Error(`orderbook.sequence is not an integer: ${JSON.stringify(s)}`);
}

async function trades(query: Record<string, string> = {}): Promise<WirePublicTrade[]> {
  const reply = await venue().call<{ trades: WirePublicTrade[] }>('GET', `/products/${BTC}/trades`, { query });
  const list = expectOk(reply).trades;
  for (const t of list) {
    expect(Object.keys(t).sort()).toEqual(['id', 'price', 'product_id', 'side', 'size', 'time']);
    for (const v of Object.values(t)) expect(typeof v).toBe('string');
    expect(t.product_id).toBe(BTC);
  }
  return list;
}

describe('GET /products', () => {
  it('lists BTC-VND, ETH-VND and SOL-VND with every contract field as a string', async () => {
    const reply = await venue().call<{ products: WireProduct[] }>('GET', '/products');
    const products = expectOk(reply).products;
    expect(products.map((p) => p.id).sort()).toEqual(['BTC-VND', 'ETH-VND', 'SOL-VND']);
    const fields = ['id', 'base_asset_id', 'quote_asset_id', 'price_increment', 'size_increment', 'min_size', 'max_size', 'min_notional', 'status'];
    for (const p of products) {
      for (const f of fields) expect(typeof (p as unknown as Record<string, unknown>)[f], `${p.id}.${f}`).toBe('string');
    }
    expect(products.find((p) => p.id === BTC)).toMatchObject({
      base_asset_id: 'BTC',
      quote_asset_id: 'VND',
      price_increment: '10000',
      size_increment: '0.0001',
      min_size: '0.0001',
      status: 'online',
    });
  });
});

describe('GET /assets', () => {
  it('lists every asset with id, name and integer decimals', async () => {
    const reply = await venue().call<{ assets: { id: string; name: string; decimals: number }[] }>('GET', '/assets');
    const assets = expectOk(reply).assets;
    for (const a of assets) {
      expect(Object.keys(a).sort()).toEqual(['decimals', 'id', 'name']);
      expect(typeof a.name).toBe('string');
      expect(Number.isInteger(a.decimals)).toBe(true);
    }
    expect(Object.fromEntries(assets.map((a) => [a.id, a.decimals]))).toEqual({ BTC: 8, ETH: 8, SOL: 8, VND: 0 });
  });
});

describe('GET /products/{id}/orderbook', () => {
  it('is empty on a fresh venue and needs no credentials', async () => {
    const book = await orderbook({}, 'SOL-VND');
    expect(book.bids).toEqual([]);
    expect(book.asks).toEqual([]);
  });

  it('aggregates levels, best first on both sides, with order counts', async () => {
    const v = venue();
    const maker = await v.newTrader({ BTC: '1', VND: '1000000000' });
    await placeOrder(v, maker, limit('BUY', px(-2), '0.01'));
    await placeOrder(v, maker, limit('BUY', px(-1), '0.01'));
    await placeOrder(v, maker, limit('BUY', px(-1), '0.02'));
    await placeOrder(v, maker, limit('SELL', px(2), '0.03'));
    await placeOrder(v, maker, limit('SELL', px(1), '0.01'));

    const book = await orderbook();
    const strip = (levels: WireLevel[]) => levels.map((l) => [l.price, l.size, l.order_count]);
    expect(strip(book.bids)).toEqual([
      [px(-1), '0.03', 2],
      [px(-2), '0.01', 1],
    ]);
    expect(strip(book.asks)).toEqual([
      [px(1), '0.01', 1],
      [px(2), '0.03', 1],
    ]);
  });

  it('serves 50 levels a side by default and fewer with depth', async () => {
    const v = venue();
    const maker = await v.newTrader({ VND: '100000000000' });
    for (let i = 1; i <= 51; i++) await placeOrder(v, maker, limit('BUY', px(-i), '0.0001'));

    const all = await orderbook();
    expect(all.bids).toHaveLength(50);
    expect(all.bids[0]?.price).toBe(px(-1));
    expect(all.bids[49]?.price).toBe(px(-50));

    const two = await orderbook({ depth: '2' });
    expect(two.bids.map((l) => l.price)).toEqual([px(-1), px(-2)]);
  });

  it('refuses a depth that is not a positive count', async () => {
    const v = venue();
    expectError(await v.call('GET', `/products/${BTC}/orderbook`, { query: { depth: '0' } }), 400, 'E0110_ValueOutOfRange');
    expectError(await v.call('GET', `/products/${BTC}/orderbook`, { query: { depth: 'ten' } }), 400, 'E0101_InvalidArgument');
  });

  it('increases its sequence whenever the book changes', async () => {
    const v = venue();
    const maker = await v.newTrader({ VND: '1000000000' });
    const before = sequenceOf(await orderbook());
    await placeOrder(v, maker, limit('BUY', px(-3), '0.01'));
    const afterPlace = sequenceOf(await orderbook());
    expect(afterPlace).toBeGreaterThan(before);
    await v.cancelEverything();
    expect(sequenceOf(await orderbook())).toBeGreaterThan(afterPlace);
  });
});

describe('GET /products/{id}/trades', () => {
  it('lists trades newest first, with the taker side, and honours limit', async () => {
    const v = venue();
    const seller = await v.newTrader({ BTC: '1' });
    const buyer = await v.newTrader({ BTC: '1', VND: '1000000000' });

    await placeOrder(v, seller, limit('SELL', px(), '0.01'));
    await placeOrder(v, buyer, limit('BUY', px(), '0.01')); // buyer takes: side BUY
    await placeOrder(v, buyer, limit('BUY', px(-5), '0.02'));
    await placeOrder(v, seller, limit('SELL', px(-5), '0.02')); // seller takes: side SELL

    const list = await trades();
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list[0]).toMatchObject({ price: px(-5), size: '0.02', side: 'SELL' });
    expect(list[1]).toMatchObject({ price: px(), size: '0.01', side: 'BUY' });
    expect(BigInt(list[0]?.time ?? '0')).toBeGreaterThanOrEqual(BigInt(list[1]?.time ?? '0'));

    const one = await trades({ limit: '1' });
    expect(one).toHaveLength(1);
    expect(one[0]?.id).toBe(list[0]?.id);
  });
});

describe('an unknown product in a public path', () => {
  it.each(['orderbook', 'trades'])('GET /products/NOPE-VND/%s is 404 E0104_InvalidSymbol', async (what) => {
    const reply = await venue().call('GET', `/products/NOPE-VND/${what}`);
    expectError(reply, 404, 'E0104_InvalidSymbol');
  });
});
