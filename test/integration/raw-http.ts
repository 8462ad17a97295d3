// Requests written byte for byte to a venue's socket, for what fetch and ws will not send (CONNECT, broken
// handshakes, malformed bodies), and the answer read until the venue closes the connection.
import net from 'node:net';
import { eventually, sleep } from './harness';

export interface RawReply {
  readonly status: number;
  readonly headers: string;
  readonly body: unknown;
}

/**
 * `halfClose`: end the client's side once the request is written, so a venue that keeps connections alive closes
 * after its answer. Without it the client waits with its side open, as a WebSocket client waiting for its 101
 * does, and a venue that waited for the client to close first would fail on the timeout.
 */
export async function rawRequest(baseUrl: string, request: string | Buffer, options: { halfClose: boolean }): Promise<RawReply> {
  const text = await rawExchange(baseUrl, request, options);
  const split = text.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  if (split < 0 || status === null) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  let body: unknown;
  try {
    body = JSON.parse(text.slice(split + 4));
  } catch {
    throw new Error(`the body is not JSON: ${JSON.stringify(text.slice(0, 300))}`);
  }
  return { status: Number(status[1]), headers: text.slice(0, split), body };
}

/** Every byte the venue sends until it closes the connection, as text (`halfClose` as for rawRequest). */
export function rawExchange(baseUrl: string, request: string | Buffer, options: { halfClose: boolean }): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the venue did not close the connection; it sent ${JSON.stringify(Buffer.concat(chunks).toString('utf8').slice(0, 500))}`));
    }, 3_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    if (options.halfClose) socket.end(request);
    else socket.write(request);
  });
}

/** The responses in `text`, in order: status and JSON body (each has a Content-Length). */
export function responses(text: string): { status: number; body: unknown }[] {
  const out: { status: number; body: unknown }[] = [];
  let rest = text;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, split);
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(head);
    const length = /\r\ncontent-length: (\d+)/i.exec(head);
    if (split < 0 || status === null || length === null) throw new Error(`not an HTTP response: ${JSON.stringify(rest.slice(0, 300))}`);
    const end = split + 4 + Number(length[1]);
    out.push({ status: Number(status[1]), body: JSON.parse(rest.slice(split + 4, end)) });
    rest = rest.slice(end);
  }
  return out;
}

/** Whether nothing listens on the port of 127.0.0.1 any more. */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

/**
 * What the venue answers `request` (its bytes after the request line's start) written on a connection that had a
 * request in flight when `close` began stopping the venue, once it no longer listens: the whole second response.
 */
export async function answerWhileStopping(baseUrl: string, close: () => Promise<void>, request: string): Promise<string> {
  const port = Number(new URL(baseUrl).port);
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  // In flight: its headers are in, its body is not, so the connection is not idle and stays open while closing.
  socket.write('GET /products HTTP/1.1\r\nHost: venue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
  await sleep(200);
  const closed = close();
  await eventually(async () => ((await refused(port)) ? true : undefined), 'the venue to stop listening');
  // The first request's body, then the second request on the same connection.
  socket.write(`{}${request}`);
  await ended;
  await closed;
  const text = Buffer.concat(chunks).toString('utf8');
  return text.slice(text.indexOf('HTTP/1.1', 1));
}
