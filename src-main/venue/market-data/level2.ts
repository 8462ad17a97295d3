/**
 * Level 2 for the WebSocket: the best LEVEL2_DEPTH levels of each side as last published, and the changes
 * since, as absolute level sizes (size "0" removes a level). Each published change set takes the product's
 * next sequence number, so a client that sees a gap knows to resubscribe.
 */
import type { Side } from '../engine';
import type { Market } from '../exchange/market';
import type { Level2Change } from '../../../src-shared/protocol/ws';

export const LEVEL2_DEPTH = 50;

interface Level {
  lots: number;
  orders: number;
}

export class PublishedBook {
  private readonly sides: Record<Side, Map<number, Level>> = { BUY: new Map(), SELL: new Map() };

  constructor(private readonly market: Market) {
    this.diff();
  }

  /** What changed in the top levels since the last call, now remembered as published. */
  diff(): Level2Change[] {
    const changes: Level2Change[] = [];
    for (const side of ['BUY', 'SELL'] as const) {
      const before = this.sides[side];
      const now = new Map<number, Level>();
      for (const level of this.market.book.depth(side, LEVEL2_DEPTH)) now.set(level.priceTicks, { lots: level.lots, orders: level.orders });
      const wire = side === 'BUY' ? 'bid' : 'ask';
      for (const [ticks, level] of now) {
        const old = before.get(ticks);
        if (old === undefined || old.lots !== level.lots || old.orders !== level.orders) {
          changes.push({ side: wire, price: this.market.price(ticks), size: this.market.size(level.lots), order_count: level.orders });
        }
      }
      for (const ticks of before.keys()) {
        if (!now.has(ticks)) changes.push({ side: wire, price: this.market.price(ticks), size: '0', order_count: 0 });
      }
      this.sides[side] = now;
    }
    return changes;
  }
}
