// A body that is not JSON is refused 415 as soon as the venue knows there is one, before it is read: the venue
// buffered up to its body limit of such a body only to refuse it (and, declared larger than that, answered 413 for a
// body it would have refused anyway). Here the client sends a few bytes of a large body and waits: the answer must
// come while the rest was never sent, so none of it can be held.
import { describe, expect, it } from 'vitest';
import { BTC, expectError, expectOk, useVenue } from '../harness';
import { rawRequest } from '../raw-http';

const venue = useVenue();

function head(v: ReturnType<typeof venue>, framing: string): string {
  const { key, secret } = v.admin.creds;
  return `POST /api/v1/orders HTTP/1.1\r\nHost: venue\r\nNova-Key: ${key}\r\nNova-Secret: ${secret}\r\nContent-Type: text/plain\r\n${framing}\r\n\r\n`;
}

describe('a non-JSON body', () => {
  it('is answered 415 E0106, connection closed, before the client has sent it whole (Content-Length)', async () => {
    const v = venue();
    for (const length of [60_000, 100_000_000]) {
      const reply = await rawRequest(v.baseUrl, `${head(v, `Content-Length: ${length}`)}side=BUY&product_id=${BTC}`, { halfClose: false });
      expectError({ ...reply, headers: new Headers() }, 415, 'E0106_UnsupportedMediaType', 'InvalidArgument');
      expect(reply.headers.toLowerCase()).toContain('connection: close');
    }
    expect(expectOk(await v.call<{ products: unknown[] }>('GET', '/products')).products.length).toBeGreaterThan(0);
  });

  it('is answered 415 E0106 on its first chunk when chunked, the rest never read', async () => {
    const v = venue();
    const chunk = 'x'.repeat(1000);
    const reply = await rawRequest(v.baseUrl, `${head(v, 'Transfer-Encoding: chunked')}${chunk.length.toString(16)}\r\n${chunk}\r\n`, { halfClose: false });
    expectError({ ...reply, headers: new Headers() }, 415, 'E0106_UnsupportedMediaType', 'InvalidArgument');
    expect(expectOk(await v.call<{ products: unknown[] }>('GET', '/products')).products.length).toBeGreaterThan(0);
  });

  it('is no body when chunked and empty', async () => {
    const v = venue();
    const { key, secret } = v.admin.creds;
    const reply = await rawRequest(
      v.baseUrl,
      `POST /api-keys HTTP/1.1\r\nHost: venue\r\nNova-Key: ${key}\r\nNova-Secret: ${secret}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      { halfClose: false },
    );
    expect(reply.status).toBe(200);
    expect((reply.body as { api_key: { name: string } }).api_key.name).toBe('');
  });
});
