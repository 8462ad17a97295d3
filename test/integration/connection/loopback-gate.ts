// A TCP relay between the desk's client and the venue, on loopback, that the test can break the way networks
// break: refuse new connections, cut the open ones, swallow everything (bytes vanish, nothing closes), lose
// only the venue's answers, or lose one WebSocket frame on its way to the client. The venue and the client on
// either side are the real ones.
import net from 'node:net';

interface Pair {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  /** Venue → client bytes: 'head' until the first HTTP head is read, then 'ws' after a 101, else 'pass'. */
  mode: 'head' | 'ws' | 'pass';
  pending: Buffer;
}

export class LoopbackGate {
  private readonly pairs = new Set<Pair>();
  private blocked = false;
  private holding = false;
  private muting = false;
  private dropRule: ((text: string) => boolean) | undefined;
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
    const pair: Pair = { client, upstream, mode: 'head', pending: Buffer.alloc(0) };
    this.pairs.add(pair);
    const end = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (!this.holding) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.holding && !this.muting) this.down(pair, chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
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
