// A ticker subscription starts with the ticker as of the commits already published or being published, never
// ahead of them: the venue publishes each commit's ticker after its commit is durable, so a first ticker read
// from the market as it stands (trades of commits still being written included) was followed by those commits'
// older tickers. A subscriber saw the last price go back.
import { describe, expect, it } from 'vitest';
import type { Frame, TestSocket } from './ws-client';
import { BTC, limitData, px, useWsVenue } from './ws-venue';

const venue = useWsVenue();

describe('a ticker subscription while the market trades', () => {
  it('hears no ticker older than the one it started with', async () => {
    const v = venue();
    const rich = { BTC: '1000', VND: '100000000000000' };
    const [seller, buyer] = [await v.session(await v.newTrader(rich)), await v.session(await v.newTrader(rich))];
    // Someone watches the ticker throughout, so every commit that trades publishes one.
    const watcher = await v.connect();
    await watcher.request({ op: 'sub', channel: 'ticker', product_ids: [BTC] });

    let trading = true;
    const traffic = (async () => {
      for (let round = 0; trading; round++) {
        const answers: Promise<Frame>[] = [];
        for (let k = 0; k < 40; k++) {
          const price = px((round * 7 + k) % 50);
          answers.push(seller.request({ op: 'create_order', data: limitData('sell', price, '0.001') }, undefined, 10_000));
          answers.push(buyer.request({ op: 'create_order', data: limitData('buy', price, '0.001') }, undefined, 10_000));
        }
        await Promise.all(answers);
      }
    })();

    const subscriber = await v.connect();
    const backwards: string[] = [];
    let heard = 0;
    try {
      for (let i = 0; i < 60; i++) {
        const from = subscriber.mark();
        await subscriber.request({ op: 'sub', channel: 'ticker', product_ids: [BTC] });
        await new Promise((resolve) => setTimeout(resolve, 20));
        await subscriber.request({ op: 'unsub', channel: 'ticker', product_ids: [BTC] });
        const tickers = tickersOf(subscriber, from);
        heard += tickers.length;
        tickers.forEach((t, j) => {
          const before = tickers[j - 1];
          if (before !== undefined && BigInt(t['time'] as string) < BigInt(before['time'] as string)) {
            backwards.push(`${before['price']}@${before['time']} then ${t['price']}@${t['time']}`);
          }
        });
      }
    } finally {
      trading = false;
      await traffic;
    }
    expect(heard).toBeGreaterThan(60);
    expect(backwards).toEqual([]);
  }, 90_000);
});

function tickersOf(socket: TestSocket, from: number): Frame[] {
  return socket.frames.slice(from).filter((f) => f['channel'] === 'ticker' && f['product_id'] === BTC);
}
