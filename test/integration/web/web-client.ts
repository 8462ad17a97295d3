// A window of browser mode as the tests see it: exchange the one-time token for the session cookie, then call
// the bridge over /bridge, recording every frame both ways.
import WebSocket from 'ws';

export interface Frame {
  readonly direction: 'in' | 'out';
  readonly text: string;
}

/** Present the token as the browser does on first load; the session cookie it is exchanged for. */
export async function exchangeToken(readyUrl: string): Promise<{ origin: string; cookie: string }> {
  const url = new URL(readyUrl);
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status !== 303) throw new Error(`token exchange answered ${response.status}: ${await response.text()}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { origin: url.origin, cookie };
}

export class BridgeClient {
  readonly frames: Frame[] = [];
  readonly events: { name: string; payload: unknown }[] = [];
  /** Answers to frames the desk could not read (they have no id to match). */
  readonly unmatched: unknown[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (result: any) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = (data as Buffer).toString('utf8');
      this.frames.push({ direction: 'in', text });
      const frame = JSON.parse(text);
      if (frame.type === 'result' && frame.id === null) {
        this.unmatched.push(frame.result);
      } else if (frame.type === 'result') {
        this.pending.get(frame.id)?.(frame.result);
        this.pending.delete(frame.id);
      } else if (frame.type === 'event') {
        this.events.push({ name: frame.name, payload: frame.payload });
      }
    });
  }

  static open(origin: string, headers: Record<string, string>): Promise<BridgeClient> {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, { headers });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new BridgeClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The Result, as the window gets it. */
  call(method: string, request?: unknown): Promise<any> {
    const id = this.nextId++;
    const text = JSON.stringify(request === undefined ? { id, method } : { id, method, request });
    this.frames.push({ direction: 'out', text });
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(text);
    });
  }

  /** The value, or a thrown Error with the bridge's message. */
  async value(method: string, request?: unknown): Promise<any> {
    const result = await this.call(method, request);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value;
  }

  sendRaw(text: string): void {
    this.frames.push({ direction: 'out', text });
    this.ws.send(text);
  }

  close(): void {
    this.ws.close();
  }
}
