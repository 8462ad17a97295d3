/**
 * The API's error object written straight to a socket, for what never becomes a Fastify request: bytes Node's
 * parser refused, a CONNECT, an upgrade request. One shape for all of them, the same the routes send.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ApiError, errorBody } from '../../../src-shared/errors/api-error';

/** How long a refused connection may stay open for the client to read the answer and close its side. */
const LINGER_MS = 5_000;

export function rawFailure(error: ApiError, headers: Readonly<Record<string, string>> = {}): string {
  const body = JSON.stringify(errorBody(error));
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${error.httpStatus} ${STATUS_CODES[error.httpStatus] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`
  );
}

/**
 * Answers and closes. Ended rather than destroyed: destroying a socket with unread bytes (a tunnel's or a
 * WebSocket's first ones) resets it and the client may lose the answer; one that never closes its side is cut
 * off after a linger.
 */
export function endWithFailure(socket: Duplex, error: ApiError, headers: Readonly<Record<string, string>> = {}): void {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(rawFailure(error, headers));
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
