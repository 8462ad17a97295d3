// A TCP relay between the desk's client and the venue, on loopback, that the test can break the way networks
// break: refuse new connections, cut the open ones, swallow everything (bytes vanish, nothing closes), lose
// only the venue's answers, lose one WebSocket frame on its way to the client, or see (and lose) each frame the
// client sends. The venue and the client on either side are the real ones.
import net from 'node:net';

/** One way through the relay: 'head' until the HTTP head is read, then 'ws' once the connection is a WebSocket, else 'pass'. */
interface Way {
  mode: 'head' | 'ws' | 'pass';
  pending: Buffer;
  readonly to: net.Socket;
  /** From this way's HTTP head: whether the frames of a WebSocket follow it. */
  readonly upgrades: (head: string) => boolean;
  /** Whether to lose a text frame going this way. */
  readonly loses: (text: string) => boolean;
}

interface Pair {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
}

/** Told each client → venue WebSocket text frame as it reaches the gate; true loses it. */
export type RequestRule = (text: string) => boolean;

export class LoopbackGate {
  private readonly pairs = new Set<Pair>();
  private blocked = false;
  private holding = false;
  private muting = false;
  private dropRule: ((text: string) => boolean) | undefined;
  /** Seen before the frame goes on: what it does (an unsub sent from it) reaches the venue before the frame's answer. */
  requestRule: RequestRule | undefined;
  /** Frames lost on purpose so far. */
  dropped = 0;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  static open(targetPort: number): Promise<LoopbackGate> {
    return new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const gate = new LoopbackGate(server, (server.address() as net.AddressInfo).port, targetPort);
        server.on('connection', (client) => gate.accept(client));
        resolve(gate);
      });
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  get openConnections(): number {
    return this.pairs.size;
  }

  /** New connections are reset at once, as a venue that is down would. */
  block(): void {
    this.blocked = true;
  }

  unblock(): void {
    this.blocked = false;
  }

  /** Reset every open connection, both ways. */
  cut(): void {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.pairs.clear();
  }

  /** Every connection, open or new, carries nothing either way, and nothing tells either side. */
  hold(): void {
    this.holding = true;
  }

  /** Requests reach the venue; its answers are lost. */
  mute(): void {
    this.muting = true;
  }

  /** Undo hold() and mute(): bytes flow again (what was swallowed stays lost). */
  release(): void {
    this.holding = false;
    this.muting = false;
  }

  /** Lose the next venue → client WebSocket text frame whose text satisfies `match`. */
  dropNextFrame(match: (text: string) => boolean): void {
    this.dropRule = match;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.blocked) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    const pair: Pair = { client, upstream };
    this.pairs.add(pair);
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    const up: Way = {
      mode: 'head',
      pending: Buffer.alloc(0),
      to: upstream,
      upgrades: (head) => /^upgrade:\s*websocket/im.test(head),
      loses: (text) => this.requestRule?.(text) === true,
    };
    const down: Way = {
      mode: 'head',
      pending: Buffer.alloc(0),
      to: client,
      upgrades: (head) => head.startsWith('HTTP/1.1 101'),
      loses: (text) => {
        const rule = this.dropRule;
        if (rule === undefined || !rule(text)) return false;
        this.dropRule = undefined;
        this.dropped += 1;
        return true;
      },
    };
    client.on('data', (chunk) => {
      if (!this.holding) relay(up, chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.holding && !this.muting) relay(down, chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  }

}

function relay(way: Way, chunk: Buffer): void {
  if (way.mode === 'pass') {
    way.to.write(chunk);
    return;
  }
  way.pending = Buffer.concat([way.pending, chunk]);
  if (way.mode === 'head') {
    const end = way.pending.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = way.pending.subarray(0, end + 4);
    way.mode = way.upgrades(head.toString('latin1')) ? 'ws' : 'pass';
    way.to.write(head);
    const rest = way.pending.subarray(end + 4);
    way.pending = Buffer.alloc(0);
    if (rest.length > 0) relay(way, rest);
    return;
  }
  // Client → venue frames are masked (RFC 6455 5.3), venue → client frames not; neither side compresses them here.
  for (;;) {
    const frame = nextFrame(way.pending);
    if (frame === undefined) return;
    way.pending = way.pending.subarray(frame.raw.length);
    if (frame.opcode === 1 && way.loses(frame.payload.toString('utf8'))) continue;
    way.to.write(frame.raw);
  }
}

/** The first whole frame in `buf`, its payload unmasked, or undefined while it is not all there. */
function nextFrame(buf: Buffer): { raw: Buffer; opcode: number; payload: Buffer } | undefined {
  if (buf.length < 2) return undefined;
  const masked = ((buf[1] as number) & 0x80) !== 0;
  let length = (buf[1] as number) & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buf.length < 4) return undefined;
    length = buf.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buf.length < 10) return undefined;
    length = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const mask = masked ? buf.subarray(offset, offset + 4) : undefined;
  if (masked) offset += 4;
  if (buf.length < offset + length) return undefined;
  const payload = Buffer.from(buf.subarray(offset, offset + length));
  if (mask !== undefined) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return { raw: buf.subarray(0, offset + length), opcode: (buf[0] as number) & 0x0f, payload };
}
