// A frame that parses as JSON but is not what it seems: a key given twice (JSON.parse keeps the last, so
// {"side":"buy",...,"side":"sell"} placed a sell), or a \u escape of a lone surrogate (no character: a request_id
// holding one was echoed as JSON that strict parsers refuse). Refused with E0101 on the frame's channel, nothing
// placed, its data and any such request_id not echoed, as REST bodies are (rest/duplicate-keys.test.ts, rest/body-encoding.test.ts).
import { describe, expect, it } from 'vitest';
import { BTC, px, useWsVenue } from './ws-venue';

describe('a create_order frame', () => {
  const venue = useWsVenue();

  it.each([
    ['naming side twice', `{"op":"create_order","request_id":"twice","data":{"type":"limit","side":"buy","product_id":"${BTC}","price":"${px(-100)}","size":"0.001","side":"sell"}}`, /data\.side: given more than once in the frame/, 'twice'],
    ['with a lone surrogate in its request_id', `{"op":"create_order","request_id":"r\\ud800","data":{"type":"limit","side":"buy","product_id":"${BTC}","price":"${px(-100)}","size":"0.001"}}`, /request_id: a \\u escape of a lone surrogate is no character/, undefined],
  ])('%s is refused with E0101 on the orders channel, its data not echoed, and places nothing', async (_label, text, message, requestId) => {
    const v = venue();
    const trader = await v.newTrader();
    const socket = await v.session(trader);
    const from = socket.mark();
    socket.send(text);
    const answer = await socket.next((f) => f['type'] === 'error', 10_000, from);
    expect(answer, JSON.stringify(answer)).toMatchObject({ channel: 'orders', type: 'error', code: 400 });
    expect(String(answer['message'])).toMatch(/^E0101_InvalidArgument: /);
    expect(String(answer['message'])).toMatch(message);
    expect(answer['request_id']).toBe(requestId);
    expect(answer['data']).toBeUndefined();
    await socket.barrier();
    expect(await v.activeOrders(trader)).toEqual([]);
  });
});
