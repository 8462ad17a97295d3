/**
 * The core's end of one of the store's threads (the journal thread, the writer thread). Requests go over a
 * MessagePort; every answer is posted on it and counted in a shared word, so the core can also wait for an
 * answer synchronously (Atomics.wait), taking answers off the port without returning to the event loop: a read
 * must see every acknowledged change, and close() must finish before it returns.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort, type TransferListItem } from 'node:worker_threads';
import type { ThreadData } from './thread-answer';

/** A thread that says nothing for this long is taken for dead: a wait gives up rather than hang the venue. */
const SILENCE_LIMIT_MS = 60_000;

export class StoreThread<Request, Answer> {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  /** The thread died (it could not open its file, say): every later request fails with this. */
  dead: Error | undefined;

  /**
   * @param name the built script's name (`<name>.js` beside this bundle) and the thread's name in errors
   * @param entry this folder's TypeScript entry, run through the tsx loader when there is no build
   */
  constructor(
    private readonly name: string,
    entry: string,
    data: Record<string, unknown>,
    transferList: TransferListItem[],
    private readonly onAnswer: (answer: Answer) => void,
    onDeath: (err: Error) => void,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const script = threadScript(name, entry);
    this.worker = new Worker(script.file, {
      workerData: { ...data, port: port2, signal: this.signal } satisfies ThreadData,
      transferList: [port2, ...transferList],
      argv: script.argv,
    });
    // What the thread holds is safe on disk: it never keeps the process alive by itself.
    this.worker.unref();
    this.port.on('message', (answer: Answer) => this.onAnswer(answer));
    this.port.unref();
    this.worker.on('error', (err) => {
      this.dead = new Error(`the store's ${name} thread stopped: ${err.message}`, { cause: err });
      this.port.unref();
      onDeath(this.dead);
    });
  }

  post(request: Request): void {
    this.port.postMessage(request);
  }

  /** Someone awaits an answer: keep the process up for it (or stop doing so). */
  keepAlive(yes: boolean): void {
    if (yes) this.port.ref();
    else this.port.unref();
  }

  /**
   * Takes answers off the port, sleeping on the signal between them, until the condition holds; returns the
   * failure that ends the wait instead, if any (`failure` is asked after every answer).
   */
  waitUntil(condition: () => boolean, failure: () => Error | undefined): Error | undefined {
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) this.onAnswer(m.message as Answer);
      if (condition()) return undefined;
      if (this.dead !== undefined) return this.dead;
      const failed = failure();
      if (failed !== undefined) return failed;
      if (Atomics.wait(this.signal, 0, seen, SILENCE_LIMIT_MS) === 'timed-out' && Atomics.load(this.signal, 0) === seen) {
        return new Error(`the store's ${this.name} thread has not answered for ${SILENCE_LIMIT_MS / 1000} s`);
      }
    }
  }

  closePort(): void {
    this.port.close();
  }
}

/**
 * The thread's script: the built `<name>.js` beside this bundle (Electron), or this folder's TypeScript through
 * the tsx loader (tests, benches, `npm run venue`).
 */
function threadScript(name: string, entry: string): { file: string; argv: string[] } {
  const built = join(import.meta.dirname, `${name}.js`);
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return { file: built, argv: [] };
  return { file: join(import.meta.dirname, '../ts-worker-loader.mjs'), argv: [join(import.meta.dirname, entry)] };
}
