/**
 * The chart behind a small interface, so a charting library (lightweight-charts) can replace this canvas
 * drawing without touching the panel. Prices become floats here only to be turned into pixels.
 */
import type { Candle } from '../../../src-shared/protocol/ws';

export interface PriceLine {
  price: string;
  side: 'BUY' | 'SELL';
}

export interface FillMark {
  /** UNIX nanoseconds. */
  time: string;
  price: string;
  side: 'BUY' | 'SELL';
}

export interface CandleChart {
  draw(candles: readonly Candle[], orders: readonly PriceLine[], fills: readonly FillMark[]): void;
  dispose(): void;
}

const COLORS = { up: '#2ebd85', down: '#f6465d', grid: '#2a2f3a', text: '#8b93a7' } as const;
const AXIS_MIN = 80;
const FONT = '11px system-ui';

export function createCanvasChart(canvas: HTMLCanvasElement): CandleChart {
  const ctx = canvas.getContext('2d');
  return {
    draw(candles, orders, fills) {
      if (ctx === null) return;
      const ratio = window.devicePixelRatio || 1;
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
      }
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, width, height);
      // The price axis as wide as its widest label (a VND price has ten digits and more), never cut off.
      ctx.font = FONT;
      const highest = [...candles.map((c) => c.high), ...orders.map((o) => o.price)].reduce((most, p) => Math.max(most, Number(p)), 0);
      const axis = Math.max(AXIS_MIN, Math.ceil(ctx.measureText(Math.round(highest * 1.1).toLocaleString('en-US')).width) + 12);
      const plotWidth = width - axis;
      const slot = 8;
      const shown = candles.slice(-Math.max(1, Math.floor(plotWidth / slot)));
      const prices = [...shown.flatMap((c) => [Number(c.high), Number(c.low)]), ...orders.map((o) => Number(o.price))];
      if (prices.length === 0) {
        ctx.fillStyle = COLORS.text;
        ctx.fillText('No trades yet', 8, 16);
        return;
      }
      let high = Math.max(...prices);
      let low = Math.min(...prices);
      if (high === low) {
        high += 1;
        low -= 1;
      }
      const pad = (high - low) * 0.05;
      high += pad;
      low -= pad;
      const y = (price: number): number => ((high - price) / (high - low)) * (height - 8) + 4;

      ctx.strokeStyle = COLORS.grid;
      ctx.fillStyle = COLORS.text;
      for (let i = 0; i <= 4; i++) {
        const price = low + ((high - low) * i) / 4;
        const py = y(price);
        ctx.beginPath();
        ctx.moveTo(0, py);
        ctx.lineTo(plotWidth, py);
        ctx.stroke();
        ctx.fillText(Math.round(price).toLocaleString('en-US'), plotWidth + 4, py + 4);
      }

      const xOf = new Map<string, number>();
      shown.forEach((c, i) => {
        const x = i * slot + slot / 2;
        xOf.set(c.start, x);
        const open = Number(c.open);
        const close = Number(c.close);
        ctx.strokeStyle = ctx.fillStyle = close >= open ? COLORS.up : COLORS.down;
        ctx.beginPath();
        ctx.moveTo(x, y(Number(c.high)));
        ctx.lineTo(x, y(Number(c.low)));
        ctx.stroke();
        const top = y(Math.max(open, close));
        ctx.fillRect(x - 3, top, 6, Math.max(1, y(Math.min(open, close)) - top));
      });

      ctx.setLineDash([4, 3]);
      for (const o of orders) {
        ctx.strokeStyle = o.side === 'BUY' ? COLORS.up : COLORS.down;
        const py = y(Number(o.price));
        ctx.beginPath();
        ctx.moveTo(0, py);
        ctx.lineTo(plotWidth, py);
        ctx.stroke();
      }
      ctx.setLineDash([]);

      const minute = 60_000_000_000n;
      for (const f of fills) {
        const start = (BigInt(f.time) - (BigInt(f.time) % minute)).toString();
        const x = xOf.get(start);
        if (x === undefined) continue;
        ctx.fillStyle = f.side === 'BUY' ? COLORS.up : COLORS.down;
        const py = y(Number(f.price));
        ctx.beginPath();
        // Buys point up from below the price, sells down from above it.
        const tail = f.side === 'BUY' ? 8 : -8;
        ctx.moveTo(x, py);
        ctx.lineTo(x - 5, py + tail);
        ctx.lineTo(x + 5, py + tail);
        ctx.fill();
      }
    },
    dispose() {
      ctx?.clearRect(0, 0, canvas.width, canvas.height);
    },
  };
}
