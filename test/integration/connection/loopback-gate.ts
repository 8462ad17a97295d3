// A TCP relay between the desk's client and the venue, on loopback, that the test can break the way networks
// break: refuse new connections, cut the open ones, swallow everything (bytes vanish, nothing closes), lose
// only the venue's answers, lose one WebSocket frame on its way to the client, or see (and lose) each frame the
// client sends. The venue and the client on either side are the real ones.
import net from 'node:net';

interface Pair {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  /** Venue → client bytes: 'head' until the first HTTP head is read, then 'ws' after a 101, else 'pass'. */
  mode: 'head' | 'ws' | 'pass';
  pending: Buffer;
  /** Client → venue bytes: 'head' until the request's head is read, then 'ws' for an upgrade, else 'pass'. */
  upMode: 'head' | 'ws' | 'pass';
  upPending: Buffer;
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
    const pair: Pair = { client, upstream, mode: 'head', pending: Buffer.alloc(0), upMode: 'head', upPending: Buffer.alloc(0) };
    this.pairs.add(pair);
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (!this.holding) this.up(pair, chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.holding && !this.muting) this.down(pair, chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  }

  private up(pair: Pair, chunk: Buffer): void {
    if (pair.upMode === 'pass') {
      pair.upstream.write(chunk);
      return;
    }
    pair.upPending = Buffer.concat([pair.upPending, chunk]);
    if (pair.upMode === 'head') {
      const end = pair.upPending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pair.upPending.subarray(0, end + 4);
      pair.upMode = /^upgrade:\s*websocket/im.test(head.toString('latin1')) ? 'ws' : 'pass';
      pair.upstream.write(head);
      const rest = pair.upPending.subarray(end + 4);
      pair.upPending = Buffer.alloc(0);
      if (rest.length > 0) this.up(pair, rest);
      return;
    }
    // Client → venue frames are masked (RFC 6455 5.3); the desk's client does not compress them.
    for (;;) {
      const frame = nextFrame(pair.upPending);
      if (frame === undefined) return;
      pair.upPending = pair.upPending.subarray(frame.raw.length);
      if (frame.opcode === 1 && this.requestRule?.(frame.payload.toString('utf8')) === true) continue;
      pair.upstream.write(frame.raw);
    }
  }

  private down(pair: Pair, chunk: Buffer): void {
    if (pair.mode === 'pass') {
      pair.client.write(chunk);
      return;
    }
    pair.pending = Buffer.concat([pair.pending, chunk]);
    if (pair.mode === 'head') {
      const end = pair.pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pair.pending.subarray(0, end + 4);
      pair.mode = head.toString('latin1').startsWith('HTTP/1.1 101') ? 'ws' : 'pass';
      pair.client.write(head);
      const rest = pair.pending.subarray(end + 4);
      pair.pending = Buffer.alloc(0);
      if (rest.length > 0) this.down(pair, rest);
      return;
    }
    // Venue → client frames are unmasked (RFC 6455 5.1) and this venue does not compress them.
    for (;;) {
      const buf = pair.pending;
      if (buf.length < 2) return;
      let length = (buf[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buf.length < 4) return;
        length = buf.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buf.length < 10) return;
        length = Number(buf.readBigUInt64BE(2));
        offset = 10;
      }
      if (buf.length < offset + length) return;
      const frame = buf.subarray(0, offset + length);
      pair.pending = buf.subarray(offset + length);
      const opcode = (buf[0] as number) & 0x0f;
      const rule = this.dropRule;
      if (opcode === 1 && rule !== undefined && rule(frame.subarray(offset).toString('utf8'))) {
        this.dropRule = undefined;
        this.dropped += 1;
        continue;
      }
      pair.client.write(frame);
    }
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
