// A request that reaches the venue while it stops: the interface's error object (7.1) with E0902, as docs/api.md
// promises of every failure, not the web framework's own body.
import net from 'node:net';
import { expect, it } from 'vitest';
import { eventually, sleep, startTestVenue } from '../harness';

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

it('a request pipelined behind one in flight while the venue stops is 503 E0902 in the error object', async () => {
  const v = await startTestVenue();
  const port = Number(new URL(v.baseUrl).port);
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  // In flight: its headers are in, its body is not, so the connection is not idle and stays open while closing.
  socket.write('GET /products HTTP/1.1\r\nHost: venue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
  await sleep(200);
  const closed = v.close();
  await eventually(async () => ((await refused(port)) ? true : undefined), 'the venue to stop listening');
  // The first request's body, then a second request on the same connection.
  socket.write('{}GET /assets HTTP/1.1\r\nHost: venue\r\n\r\n');
  await ended;
  await closed;
  const text = Buffer.concat(chunks).toString('utf8');
  const second = text.slice(text.indexOf('HTTP/1.1', 1));
  expect(second, text).toMatch(/^HTTP\/1\.1 503 /);
  const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as unknown;
  expect(body).toEqual({ error: { code: 'Unavailable', message: expect.stringMatching(/^E0902_ServiceUnavailable: .+/) as unknown } });
});
