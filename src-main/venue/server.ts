/**
 * The local venue as a running server: open the data folder, serve the API on 127.0.0.1, run the clock.
 * Used by `npm run venue`, by the desk's venue worker and by the tests, all the same way.
 */
import type { AddressInfo } from 'node:net';
import { buildHttpApi } from './api/http-api';
import { RateLimiter } from './api/rate-limit';
import { createWsApi, type WsApiOptions } from './api/ws-api';
import { MarketSimulator } from './sim/market-simulator';
import { SIM_ROSTER_META_KEY, withdrawSimulatedQuotes } from './sim/sim-users';
import { Venue } from './venue';
import { withinTime } from '../../src-shared/time-limit';
import { DEFAULT_ORDER_RATE, DEFAULT_REQUEST_RATE, DEFAULT_SEED } from './defaults';

export interface StartVenueOptions {
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  simulate?: boolean;
  /** Seed of the market simulator's randomness (the same seed, the same market). */
  seed?: number;
  nativeBinding?: string;
  maxOpenOrders?: number;
  /** Per key and second; 0 = unlimited. Defaults are the contract's. */
  orderRate?: number;
  requestRate?: number;
  now?: () => bigint;
  ws?: Partial<WsApiOptions>;
  /** See HttpApiOptions.requestTimeoutMs. */
  requestTimeoutMs?: number;
  /** See VenueOptions.secretInBootstrap. */
  secretInBootstrap?: boolean;
  /**
   * The venue halted (a commit failed, see Venue.halt) and the server has closed: the host should start it
   * again on the same folder. Without it the reason goes to stderr.
   */
  onHalt?: (reason: Error) => void;
}

export interface RunningVenue {
  readonly venue: Venue;
  readonly baseUrl: string;
  readonly wsUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/** How often the clock looks for GTT expiries, scheduled starts and TWAP slices. */
const CLOCK_MS = 50;
/**
 * How long closing waits for requests still arriving. Requests in flight finish in milliseconds (they await a
 * commit); a client that sent half a body and stalled would otherwise hold the exit forever, since a closing
 * server no longer times requests out.
 */
const CLOSE_GRACE_MS = 5_000;

export async function startVenue(options: StartVenueOptions): Promise<RunningVenue> {
  const venue = await Venue.open({
    dataDir: options.dataDir,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    ...(options.maxOpenOrders === undefined ? {} : { maxOpenOrders: options.maxOpenOrders }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.secretInBootstrap === undefined ? {} : { secretInBootstrap: options.secretInBootstrap }),
  });
  let simulator: MarketSimulator | undefined;
  try {
    if (options.simulate === true) {
      simulator = new MarketSimulator(venue, { seed: options.seed ?? DEFAULT_SEED });
      await simulator.setup();
    } else {
      await venue.run(() => withdrawSimulatedQuotes(venue.exchange, venue.store.getMeta(SIM_ROSTER_META_KEY)));
    }
    await catchUp(venue);
    await simulator?.quoteWhilePaused();
  } catch (err) {
    // Closed, so the folder is free for the next try in this process (its lock goes with the venue).
    await simulator?.stop();
    await venue.close().catch(() => undefined);
    throw err;
  }
  const orderLimit = new RateLimiter(options.orderRate ?? DEFAULT_ORDER_RATE);
  const requestLimit = new RateLimiter(options.requestRate ?? DEFAULT_REQUEST_RATE);
  const ws = createWsApi(venue, { requests: requestLimit, orders: orderLimit }, options.ws ?? {});
  const app = buildHttpApi(venue, {
    orderLimit,
    requestLimit,
    ...(simulator === undefined ? {} : { simulator }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    upgrade: (request, socket, head) => ws.handleUpgrade(request, socket, head),
  });
  try {
    await app.listen({ host: '127.0.0.1', port: options.port });
  } catch (err) {
    await simulator?.stop();
    await venue.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}/ws`;
  try {
    venue.writeBootstrap(baseUrl, wsUrl);
  } catch (err) {
    // A start that fails lets go of the port and the folder, as one that could not listen does: a server left
    // listening held the folder's lock, so the next start on it was refused as another venue running there.
    ws.close();
    await app.close();
    await simulator?.stop();
    await venue.close();
    throw err;
  }
  simulator?.start();

  const clock = setInterval(() => {
    venue.run(() => venue.exchange.tick()).catch(() => undefined);
  }, CLOCK_MS);
  clock.unref();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(clock);
      // The WebSocket takes nothing more from the moment the stop is asked (a frame read later is refused with
      // E0902), and its answers to what it took go out before the close frame: a client is never left with an
      // order placed or cancelled and its answer lost. Bounded, as the HTTP side is, should an answer never come.
      ws.stopTaking();
      await simulator?.stop();
      await venue.settle();
      await withinTime(ws.answered(), CLOSE_GRACE_MS);
      ws.close();
      // Stop accepting, let requests in flight finish (they await their commits), then flush and close.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(cutOff);
      }
      await venue.close();
    })();
    return closing;
  };
  venue.onHalt((reason) => {
    const halted = new Error(`the venue halted: ${reason.message}`, { cause: reason });
    const tell = options.onHalt ?? ((err: Error) => process.stderr.write(`${err.message}\n`));
    close().then(
      () => tell(halted),
      (err: unknown) => tell(new Error(`${halted.message}; closing it failed too: ${err instanceof Error ? err.message : String(err)}`, { cause: err })),
    );
  });
  return { venue, baseUrl, wsUrl, port, close };
}

/**
 * What fell due while the venue was down (expiries, then scheduled starts, stops and TWAP slices) runs once the
 * last run's simulated quotes are off the book (they priced a market that has moved on), against the fresh ones the
 * simulator's setup() laid around its stored references, and before anyone can trade: the clock only starts after
 * the venue listens. A fault in one order ends that order (E0901), as the
 * clock's ticks do; a commit that fails fails the start.
 */
async function catchUp(venue: Venue): Promise<void> {
  await venue.run(() => {
    try {
      venue.exchange.tick();
    } catch {
      // The order at fault is ended; the others ran.
    }
  });
}

