// JSON bodies are UTF-8 (RFC 8259 8.1). Bytes that are not were decoded with U+FFFD in their place, so the venue
// stored text the client never sent (an API key named "caf\uFFFD"); they are refused instead, like a WebSocket text
// frame that is not UTF-8 (1007).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, useVenue } from '../harness';
import { rawRequest } from '../raw-http';

const venue = useVenue();

async function post(path: string, bytes: Buffer, contentType = 'application/json') {
  const v = venue();
  const response = await fetch(new URL(path, v.baseUrl), {
    method: 'POST',
    headers: { 'NOVA-KEY': v.admin.creds.key, 'NOVA-SECRET': v.admin.creds.secret, 'content-type': contentType },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe('a request body that is not UTF-8', () => {
  it('is 400 E0102, whatever charset it names, and creates nothing', async () => {
    // "café" in Latin-1: 0xE9 alone is no UTF-8 sequence.
    const latin1 = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json; charset=iso-8859-1']) {
      expectError(await post('/api-keys', latin1, contentType), 400, 'E0102_MalformedJson', 'InvalidArgument');
    }
    // A lone surrogate's bytes, and an overlong encoding of '"'.
    expectError(await post('/api-keys', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])), 400, 'E0102_MalformedJson');
    expectError(await post('/api-keys', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0xc0, 0xa2, 0x7d])), 400, 'E0102_MalformedJson');

    const order = Buffer.concat([Buffer.from('{"side":"BUY","product_id":"BTC-VND","limit_price":"1000000000","base_size":"0.01","x":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expectError(await post('/api/v1/orders', order), 400, 'E0102_MalformedJson');
    const v = venue();
    const active = expectOk(await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: v.admin.creds }));
    expect(active.orders).toEqual([]);
  });

  it('is read as sent when it is UTF-8: a name outside ASCII comes back whole', async () => {
    const reply = expectOk(await post('/api-keys', Buffer.from('{"name":"café ₫ 🚀"}', 'utf8'))) as { api_key: { name: string } };
    expect(reply.api_key.name).toBe('café ₫ 🚀');
  });
});

// A \u escape of a lone surrogate (half of a pair) names no character: JSON.parse keeps it, the answer echoed it as
// JSON that strict parsers refuse (jq, Rust's serde_json), and SQLite stored it as bytes that came back after a
// restart as three U+FFFD: a key named "a\ud800b" became "a\ufffd\ufffd\ufffdb".
describe('a request body with a lone surrogate escape', () => {
  it('is 400 E0101 naming where it is, in a value or a key, and creates nothing', async () => {
    for (const [raw, where] of [
      ['{"name":"a\\ud800b"}', 'name'],
      ['{"name":"\\udfff"}', 'name'],
      ['{"name":"ok","x":{"\\udc00":1}}', 'x'],
      ['{"name":"ok","x":["\\ud83d"]}', 'x[]'],
    ] as const) {
      const reply = await post('/api-keys', Buffer.from(raw, 'utf8'));
      expectError(reply, 400, 'E0101_InvalidArgument', 'InvalidArgument');
      expect((reply.body as { error: { message: string } }).error.message).toContain(`${where}: `);
    }
  });

  it('takes a pair written as escapes, and an escaped backslash before a u', async () => {
    const rocket = expectOk(await post('/api-keys', Buffer.from('{"name":"\\ud83d\\ude80"}', 'utf8'))) as { api_key: { name: string } };
    expect(rocket.api_key.name).toBe('🚀');
    const text = expectOk(await post('/api-keys', Buffer.from('{"name":"\\\\ud800"}', 'utf8'))) as { api_key: { name: string } };
    expect(text.api_key.name).toBe('\\ud800');
  });
});

// A transfer coding before chunked (RFC 9112 6.1): Node undoes the chunked framing and hands the rest on, still
// gzip-compressed, so the body was refused as JSON that is not UTF-8. It is refused as the compression it is, as
// Content-Encoding: gzip is.
describe('a body with Transfer-Encoding: gzip, chunked', () => {
  it('is 415 E0106 naming the transfer coding, and places nothing', async () => {
    const v = venue();
    const gz = gzipSync(JSON.stringify({ side: 'BUY', product_id: 'BTC-VND', limit_price: '1000000000', base_size: '0.001' }));
    const reply = await rawRequest(
      v.baseUrl,
      Buffer.concat([
        Buffer.from(
          `POST /api/v1/orders HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${v.admin.creds.key}\r\nNOVA-SECRET: ${v.admin.creds.secret}\r\n` +
            `Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${gz.length.toString(16)}\r\n`,
        ),
        gz,
        Buffer.from('\r\n0\r\n\r\n'),
      ]),
      { halfClose: true },
    );
    expectError({ status: reply.status, headers: new Headers(), body: reply.body }, 415, 'E0106_UnsupportedMediaType');
    expect((reply.body as { error: { message: string } }).error.message).toContain('transfer-encoding gzip, chunked');
    const active = await v.call<{ orders: unknown[] }>('GET', '/api/v1/orders/active', { key: v.admin.creds });
    expect(active.body.orders).toEqual([]);
  });
});
