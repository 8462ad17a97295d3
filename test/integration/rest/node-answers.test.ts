// An `Expect` header other than 100-continue: Node answers it by itself, before any route runs, with a bare 417
// and no body, which no client of the interface's error object (7.1) can read. The venue answers it with that
// object, like every other failure before routing.
import { describe, expect, it } from 'vitest';
import { expectError, useVenue } from '../harness';
import { rawExchange, rawRequest } from '../raw-http';

const venue = useVenue();

describe('an Expect header the venue cannot meet', () => {
  it('is 417 with the error object naming it', async () => {
    const v = venue();
    const reply = await rawRequest(v.baseUrl, 'GET /products HTTP/1.1\r\nHost: venue\r\nExpect: 200-ok\r\n\r\n', { halfClose: true });
    expectError({ status: reply.status, headers: new Headers(), body: reply.body }, 417, 'E0101_InvalidArgument', 'InvalidArgument');
    expect((reply.body as { error: { message: string } }).error.message).toContain('Expect: 200-ok');
    expect(reply.headers).toMatch(/^content-type: application\/json/im);

    const body = '{"name":"never"}';
    const post = await rawRequest(
      v.baseUrl,
      `POST /api-keys HTTP/1.1\r\nHost: venue\r\nNOVA-KEY: ${v.admin.creds.key}\r\nNOVA-SECRET: ${v.admin.creds.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: something\r\n\r\n${body}`,
      { halfClose: true },
    );
    expect(post.status).toBe(417);
    expect(post.body).toMatchObject({ error: { code: 'InvalidArgument' } });
  });

  it('100-continue is still met, and the request answered', async () => {
    const v = venue();
    const text = await rawExchange(v.baseUrl, 'GET /products HTTP/1.1\r\nHost: venue\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n', { halfClose: true });
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('"products":[');
  });
});
