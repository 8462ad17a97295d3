// A small test client for the venue's WebSocket: real sockets, every frame kept and checked against the
// shared schemas, waits by predicate.
import { createHmac } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { VenueMessageSchema } from '../../../src-shared/protocol/ws';
import { frameText } from '../../../src-main/venue/api/ws-api';

export type Frame = Record<string, any>;

export class TestSocket {
  readonly frames: Frame[] = [];
  /** Frames that were not JSON objects or that VenueMessageSchema refused, with the reason. */
  readonly invalid: string[] = [];
  closeCode: number | undefined;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private requests = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const frame = decode(data, isBinary, this.invalid);
      if (frame === undefined) return;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code) => (this.closeCode = code));
    // A refused upgrade or a reset peer must not become an unhandled 'error' in the test process.
    ws.on('error', () => undefined);
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  /** A string goes as is; anything else as JSON, with each bigint written as a JSON integer of all its digits. */
  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : toJson(message));
  }

  sendBinary(bytes: Uint8Array): void {
    this.ws.send(bytes, { binary: true });
  }

  /** Where the next frame will land in `frames`: pass it as `from` to wait only for later frames. */
  mark(): number {
    return this.frames.length;
  }

  /** The first frame (already received or still to come) that matches. */
  next(match: (f: Frame) => boolean, timeoutMs = 5_000, from = 0): Promise<Frame> {
    const seen = this.frames.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame in ${timeoutMs} ms; the last ones: ${JSON.stringify(this.frames.slice(-3)).slice(0, 1500)}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /**
   * Send a frame with a fresh request_id and wait for the first later frame carrying that id (and matching
   * `match`: order updates of a created order carry it too).
   */
  async request(message: Frame, match: (f: Frame) => boolean = () => true, timeoutMs = 5_000): Promise<Frame> {
    const requestId = `r${++this.requests}`;
    const from = this.mark();
    this.send({ ...message, request_id: requestId });
    const answers = (f: Frame): boolean =>
      f['request_id'] === requestId || (Array.isArray(f['data']) && (f['data'] as Frame[]).some((o) => o['request_id'] === requestId));
    return this.next((f) => answers(f) && match(f), timeoutMs, from);
  }

  /**
   * A ping answered: every frame the venue queued before it read this ping is now in `frames`, because it
   * answers a connection's frames in order over one TCP stream.
   */
  async barrier(): Promise<number> {
    const pong = await this.request({ op: 'ping' });
    expectPong(pong);
    return this.frames.indexOf(pong);
  }

  async auth(key: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<Frame> {
    const from = this.frames.length;
    this.send({ op: 'auth', data: { key, timestamp, signature: signature(key, secret, timestamp) } });
    return this.next((f) => f['channel'] === 'auth', 5_000, from);
  }

  /** Stop reading from the socket, as a consumer that cannot keep up would. */
  pauseReading(): void {
    (this.ws as unknown as { _socket: Socket })._socket.pause();
  }

  resumeReading(): void {
    (this.ws as unknown as { _socket: Socket })._socket.resume();
  }

  closed(): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  close(): void {
    this.ws.close();
  }

  terminate(): void {
    this.ws.terminate();
  }
}

const BIG = '\u0000bigint:';

function toJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIG}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

function decode(data: WebSocket.RawData, isBinary: boolean, invalid: string[]): Frame | undefined {
  const text = frameText(data);
  if (isBinary) invalid.push(`binary frame from the venue: ${text.slice(0, 200)}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    invalid.push(`not JSON: ${text.slice(0, 200)}`);
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid.push(`not a JSON object: ${text.slice(0, 200)}`);
    return undefined;
  }
  const parsed = VenueMessageSchema.safeParse(value);
  if (!parsed.success) invalid.push(`${parsed.error.issues[0]?.message ?? 'refused'}: ${text.slice(0, 200)}`);
  texts.set(value, text);
  return value;
}

const texts = new WeakMap<object, string>();

/** A received frame as the venue wrote it: what JSON.parse keeps of a 19-digit number is not every digit. */
export function textOf(frame: Frame): string {
  const text = texts.get(frame);
  if (text === undefined) throw new Error('not a frame this client received');
  return text;
}

function expectPong(frame: Frame): void {
  if (frame['channel'] !== 'heartbeat' || frame['type'] !== 'pong') throw new Error(`expected a pong, got ${JSON.stringify(frame)}`);
}

export function signature(key: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${key},${timestamp}`).digest('hex');
}
