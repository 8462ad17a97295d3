// A small test client for the venue's WebSocket: real sockets, every frame kept, waits by predicate.
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';

export type Frame = Record<string, any>;

export class TestSocket {
  readonly frames: Frame[] = [];
  closeCode: number | undefined;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code) => (this.closeCode = code));
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first frame (already received or still to come) that matches. */
  next(match: (f: Frame) => boolean, timeoutMs = 5_000, from = 0): Promise<Frame> {
    const seen = this.frames.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame in ${timeoutMs} ms; got ${JSON.stringify(this.frames.slice(-5))}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  async auth(key: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<Frame> {
    const from = this.frames.length;
    this.send({ op: 'auth', data: { key, timestamp, signature: signature(key, secret, timestamp) } });
    return this.next((f) => f['channel'] === 'auth', 5_000, from);
  }

  closed(): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  close(): void {
    this.ws.close();
  }
}

export function signature(key: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${key},${timestamp}`).digest('hex');
}
