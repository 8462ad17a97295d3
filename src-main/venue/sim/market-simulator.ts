/**
 * The market simulator: simulated users that make the local venue's markets look and behave like real ones.
 * Market makers quote both sides around a reference price that follows a random walk; takers arrive at random
 * and trade. They trade through the exchange like anyone else, so a user's orders rest against their quotes,
 * fill, partially fill and walk the book.
 *
 * Deterministic from a seed: from the same state, the same seed and the same step() calls give the same orders
 * and trades (ids aside). The state includes how many steps the folder has taken: a restart carries on from a
 * stream derived from the seed and that count, not from the seed's first draw again. Each step is one
 * venue.run, so one group commit however much it did. Nothing here throws into the venue: an unexpected error
 * in a step is caught and counted in status().
 */
import { apiError } from '../../../src-shared/errors/api-error';
import { isReason, toAtoms, toUnits } from '../../../src-shared/protocol/decimal';
import { unknownProduct } from '../../../src-shared/protocol/orders';
import { LOCAL_USER_BALANCES, PRODUCTS, findAsset } from '../../../src-shared/protocol/products';
import { RECENT_TRADES, type Market } from '../exchange/market';
import type { Venue } from '../venue';
import { MarketMaker, type MakerProfile } from './market-maker';
import { OrderEntry } from './order-entry';
import { lotsFor } from './quote-ladder';
import { SeededRandom } from '../../../src-shared/seeded-random';
import { MAX_REFERENCE_TICKS, ReferencePrice } from './reference-price';
import { Faucet, SIM_ROSTER_META_KEY, enlist, readRoster, writeRoster, type SimUser } from './sim-users';
import { SimulatedMarket } from './simulated-market';
import { TakerFlow } from './taker-flow';

export interface MarketSimulatorOptions {
  /** Any safe integer; only its low 32 bits matter. */
  seed: number;
  /** Annualised, as a decimal: 1 is 100 % a year. */
  volatility?: number;
  /** Simulated time per real time while start()ed. */
  speed?: number;
  /** How long the simulated users' finished orders and their trades among themselves are kept (default an hour). */
  keepHistoryMs?: number;
}

export interface SimProductStatus {
  product_id: string;
  reference_price: string;
  best_bid: string | null;
  best_ask: string | null;
  last_trade: string | null;
}

export interface SimStatus {
  running: boolean;
  paused: boolean;
  speed: number;
  volatility: number;
  /** The seed the simulator was started with (--seed), as given. */
  seed: number;
  /**
   * The 32-bit seed this run's random stream started from: `seed` on a fresh folder, else derived from `seed` and
   * the steps the folder had taken when the run started (runSeed). Started with it on a fresh folder, the same
   * state gives the same market.
   */
  run_seed: number;
  /** Steps taken on this data folder over every run (SIM_STEPS_META_KEY), this run's included. */
  steps: number;
  /** Simulated time the steps have covered since setup. */
  simulated_ms: number;
  orders_placed: number;
  /** Simulated orders the venue refused (expected now and then, e.g. a maker short of funds). */
  orders_rejected: number;
  /** Unexpected failures caught in steps; 0 in a healthy run. */
  errors: number;
  last_error: string | null;
  products: SimProductStatus[];
}

export const SIM_SPEED_MIN = 0.1;
export const SIM_SPEED_MAX = 100;
export const SIM_VOLATILITY_MIN = 0;
export const SIM_VOLATILITY_MAX = 10;
export const DEFAULT_SIM_VOLATILITY = 1;
export const DEFAULT_SIM_SPEED = 1;
/** Real time between steps while start()ed; each step covers this times the speed of simulated time. */
export const SIM_STEP_INTERVAL_MS = 100;
/**
 * The simulated users' finished history is kept an hour: at the default speed they place about 50 orders a second,
 * which grew the data folder by about 120 MB an hour, for ever, on a desk left running. What a restart reads back
 * stays whatever its age (each product's newest RECENT_TRADES trades, open orders' fills), and so do the trader's
 * orders and fills and the simulated orders they traded with (store/forgetting.ts).
 */
const SIM_HISTORY_MS = 3_600_000;
/**
 * A step stores the references (SIM_REFERENCES_META_KEY) once one has moved this far from its stored value, in
 * basis points (a level gap at volatility 1), so a restart resumes within it of where the market stood; a smaller
 * move waits at most SAVE_REFERENCES_EVERY_STEPS. They went with every step, ten times a second; at volatility 1
 * this is one step in eight (25 of 200 measured), and once at volatility 0.
 */
const SAVE_REFERENCES_BP = 2;
const SAVE_REFERENCES_EVERY_STEPS = 50;
/** Steps between two deletions of expired simulated history (each bounded: see VenueStore.forgetHistory). */
const FORGET_EVERY_STEPS = 50;

/** A long step is cut into pieces no longer than this, so takers cannot empty a book the makers never refill. */
const MAX_SUBSTEP_MS = 1000;
const MAX_SUBSTEPS = 100;
/** Two makers per product: a deep one, and a smaller one quoting between its levels. */
const MAKER_PROFILES: readonly MakerProfile[] = [
  { levels: 10, sizePercent: 100, offsetPercent: 0 },
  { levels: 8, sizePercent: 60, offsetPercent: 50 },
];
const TAKERS_PER_PRODUCT = 2;
/**
 * The standard clip (the deep maker's best level) is this percentage of what the local user starts with in the
 * quote asset, so the local user's orders are big enough to walk the book but not to empty it.
 */
const CLIP_PERCENT_OF_LOCAL_BALANCE = 1n;
/** Each simulated account works with this many clips of quote, and the same value of base. */
const WORKING_BALANCE_CLIPS = 100n;
/** The reference stays at least this many ticks, which leaves room for a ladder below it. */
const MIN_REFERENCE_TICKS = 1000;

export class MarketSimulator {
  private readonly seed: number;
  private readonly keepHistoryNs: bigint;
  /** A forget asked of the store and not yet answered. */
  private forgetting = false;
  private readonly runSeed: number;
  private readonly rng: SeededRandom;
  /** Steps taken on this data folder, over every run; stored with each step (SIM_STEPS_META_KEY). */
  private steps: number;
  private readonly entry: OrderEntry;
  private readonly faucet = new Faucet();
  private readonly references = new Map<string, ReferencePrice>();
  /** Each product's reference as SIM_REFERENCES_META_KEY holds it (none yet: not stored), and the step it was. */
  private readonly storedTicks = new Map<string, number>();
  private storedAtStep = 0;
  private markets: SimulatedMarket[] = [];
  private roster: SimUser[] = [];
  private settingUp: Promise<void> | undefined;
  private ready = false;
  private paused = false;
  private speed = DEFAULT_SIM_SPEED;
  private volatility = DEFAULT_SIM_VOLATILITY;
  private timer: ReturnType<typeof setInterval> | undefined;
  private inFlight: Promise<void> | undefined;
  private simulatedMs = 0;
  private errors = 0;
  private lastError: string | null = null;

  constructor(
    private readonly venue: Venue,
    options: MarketSimulatorOptions,
  ) {
    if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be a safe integer, got ${options.seed}`);
    this.seed = options.seed;
    const keep = options.keepHistoryMs ?? SIM_HISTORY_MS;
    if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError(`keepHistoryMs must be a non-negative integer, got ${keep}`);
    this.keepHistoryNs = BigInt(keep) * 1_000_000n;
    this.steps = readSteps(venue.store.getMeta(SIM_STEPS_META_KEY));
    this.storedAtStep = this.steps;
    // As SeededRandom takes it, so the status names the stream in use whatever the seed's high bits.
    this.runSeed = runSeed(options.seed, this.steps) >>> 0;
    this.rng = new SeededRandom(this.runSeed);
    this.entry = new OrderEntry(venue.exchange, venue.now);
    // The trader's controls of an earlier run first (a paused market stays paused), then what this start asks.
    const saved = readControls(venue.store.getMeta(SIM_CONTROLS_META_KEY));
    const stored = readReferences(venue.store.getMeta(SIM_REFERENCES_META_KEY));
    this.paused = saved.paused ?? false;
    this.speed = checkedSpeed(options.speed ?? saved.speed ?? DEFAULT_SIM_SPEED);
    this.volatility = checkedVolatility(options.volatility ?? saved.volatility ?? DEFAULT_SIM_VOLATILITY);
    for (const market of venue.exchange.markets.values()) {
      const upper = Math.min(Math.floor(market.rules.maxTicks / 2), MAX_REFERENCE_TICKS);
      const reference = new ReferencePrice(startingReference(market), Math.min(MIN_REFERENCE_TICKS, upper), upper);
      // Where the last run left it: a restart used to take the last trade, and a trader's bid resting 5 % through
      // the asks, which the makers sold into, moved the whole market up 5 %. A folder from before the references
      // were stored with each step has them only from the last control, current only if paused since.
      const kept = stored !== undefined ? stored[market.id] : this.paused ? saved.references?.[market.id] : undefined;
      const keptTicks = kept === undefined ? undefined : toUnits(kept, market.rules.spec.priceIncrement);
      if (typeof keptTicks === 'number' && keptTicks >= reference.minTicks && keptTicks <= reference.maxTicks) reference.set(keptTicks);
      if (stored !== undefined && typeof keptTicks === 'number') this.storedTicks.set(market.id, keptTicks);
      this.references.set(market.id, reference);
    }
  }

  /**
   * Open (or, after a restart, find again) the simulated users and fund the new ones, in one commit with the
   * roster that names them. Quotes an earlier run left resting are cancelled (they priced a market that has moved
   * on), and the makers quote afresh around the references as they stand, paused or not: what fell due while the
   * venue was down runs between setup and the first step (startVenue's catch-up), and against a book with only
   * traders' orders left a scheduled market buy paid a trader's ask 10 % over the market.
   */
  setup(): Promise<void> {
    this.settingUp ??= (async () => {
      await this.enlistUsers();
      await this.quoteAll();
    })().catch((err: unknown) => {
      this.settingUp = undefined;
      throw err;
    });
    return this.settingUp;
  }

  /** Advance the simulation by `elapsedMs` of simulated time, as one venue.run. Does nothing while paused. */
  async step(elapsedMs: number): Promise<void> {
    if (!this.ready) throw new Error('the market simulator is not set up: await setup() first');
    if (this.paused || !Number.isFinite(elapsedMs) || elapsedMs <= 0) return;
    try {
      const stepped = this.venue.run(() => this.advance(elapsedMs));
      // Queued in the same turn as the step's own commit (as the roster is at setup), so the count on disk goes
      // with the orders of the steps it counts.
      const meta: Record<string, string> = { [SIM_STEPS_META_KEY]: String(this.steps) };
      if (this.referencesDue()) meta[SIM_REFERENCES_META_KEY] = this.referencesText();
      const counted = this.venue.store.commit({ meta });
      await Promise.all([stepped, counted]);
    } catch (err) {
      this.record(err);
    }
    // Not awaited: the writer thread deletes while the next steps are matched.
    // One at a time: on a long history a forget takes many steps, and each asked meanwhile would scan it again.
    if (this.steps % FORGET_EVERY_STEPS === 0 && !this.forgetting) {
      const request = {
        users: this.roster.map((u) => u.userId),
        products: this.markets.map((m) => m.market.id),
        before: this.venue.now() - this.keepHistoryNs,
        keepTrades: RECENT_TRADES,
      };
      this.forgetting = true;
      this.venue.store
        .forgetHistory(request)
        .catch((err: unknown) => this.record(err))
        .finally(() => (this.forgetting = false));
    }
  }

  /**
   * A paused market takes no steps, so what a catch-up after setup() took from its quotes stays taken until this
   * refills it. Nothing moves or trades until the trader resumes. A running market needs none of this: its first
   * step quotes.
   */
  async quoteWhilePaused(): Promise<void> {
    if (!this.ready) throw new Error('the market simulator is not set up: await setup() first');
    if (this.paused) await this.quoteAll();
  }

  /**
   * The makers quote around the reference as it stands, without trading: a level a trader's order crosses stands
   * behind it (MarketMaker.quoteLevel), and a running market's next step trades into it.
   */
  private async quoteAll(): Promise<void> {
    const { exchange } = this.venue;
    await this.venue.run(() => {
      for (const market of this.markets) this.guard(() => market.quote(this.volatility, this.rng, exchange, this.entry));
    });
  }

  /** Step every SIM_STEP_INTERVAL_MS of real time until stop(). The timer never keeps the process alive. */
  start(): void {
    if (!this.ready) throw new Error('the market simulator is not set up: await setup() first');
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      // A step still committing is not overtaken: a slow disk slows the simulation rather than piling up steps.
      if (this.inFlight !== undefined || this.paused) return;
      this.inFlight = this.step(SIM_STEP_INTERVAL_MS * this.speed)
        .catch((err: unknown) => this.record(err))
        .finally(() => {
          this.inFlight = undefined;
        });
    }, SIM_STEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stop stepping; resolves once a step in flight has committed. Resting quotes stay where they are. */
  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  /**
   * The controls below take effect at once and resolve once they are durable, so they survive a restart: a
   * market the trader paused does not start trading against their resting orders when the venue comes back.
   */
  async pause(): Promise<void> {
    this.paused = true;
    // A reference set while running is quoted at the next step; paused before it came, the book stayed frozen
    // around the old reference while the status showed the new one.
    await this.requoteIfPaused(this.markets.filter((m) => m.quotedTicks !== m.reference.ticks));
    return this.saveControls();
  }

  resume(): Promise<void> {
    this.paused = false;
    return this.saveControls();
  }

  /** Throws E0110 at once, changing nothing, outside SIM_SPEED_MIN..SIM_SPEED_MAX. */
  setSpeed(speed: number): Promise<void> {
    this.speed = checkedSpeed(speed);
    return this.saveControls();
  }

  /** Throws E0110 at once, changing nothing, outside SIM_VOLATILITY_MIN..SIM_VOLATILITY_MAX. */
  setVolatility(volatility: number): Promise<void> {
    this.volatility = checkedVolatility(volatility);
    return this.saveControls();
  }

  private saveControls(): Promise<void> {
    const controls: SavedControls = { paused: this.paused, speed: this.speed, volatility: this.volatility };
    return this.venue.store.commit({ meta: { [SIM_CONTROLS_META_KEY]: JSON.stringify(controls), [SIM_REFERENCES_META_KEY]: this.referencesText() } });
  }

  /** Whether a reference has moved SAVE_REFERENCES_BP from its stored value, or at all for long enough. */
  private referencesDue(): boolean {
    let moved = false;
    for (const [productId, reference] of this.references) {
      const stored = this.storedTicks.get(productId);
      if (stored === undefined || Math.abs(reference.ticks - stored) * 10_000 >= stored * SAVE_REFERENCES_BP) return true;
      moved ||= reference.ticks !== stored;
    }
    return moved && this.steps - this.storedAtStep >= SAVE_REFERENCES_EVERY_STEPS;
  }

  /** Each product's reference as it stands, as SIM_REFERENCES_META_KEY holds it; taken as stored from here on. */
  private referencesText(): string {
    const references: Record<string, string> = {};
    for (const market of this.venue.exchange.markets.values()) {
      const reference = this.references.get(market.id);
      if (reference === undefined) continue;
      references[market.id] = market.price(reference.ticks);
      this.storedTicks.set(market.id, reference.ticks);
    }
    this.storedAtStep = this.steps;
    return JSON.stringify(references);
  }

  /**
   * Move a product's reference price to `price` (a decimal string on its price increment). A running market's
   * quotes follow on the next step (or the pause, if it comes first); a paused one, which takes no steps, requotes
   * around it at once, without trading. Resolves once that and the reference are durable: a market paused across a restart starts from it.
   * Throws at once, changing nothing, for a product or price it refuses.
   */
  setReferencePrice(productId: string, price: string): Promise<void> {
    const reference = this.references.get(productId);
    const market = this.venue.exchange.markets.get(productId);
    if (reference === undefined || market === undefined) throw unknownProduct('product_id', productId);
    const ticks = toUnits(price, market.rules.spec.priceIncrement);
    if (isReason(ticks)) throw apiError(ticks.outOfRange === true ? 'E0110_ValueOutOfRange' : 'E0101_InvalidArgument', `price: ${ticks.reason}`);
    if (ticks < reference.minTicks || ticks > reference.maxTicks) {
      throw apiError('E0110_ValueOutOfRange', `price: must be between ${market.price(reference.minTicks)} and ${market.price(reference.maxTicks)}`);
    }
    reference.set(ticks);
    return this.requoteIfPaused(this.markets.filter((m) => m.market.id === productId)).then(() => this.saveControls());
  }

  private async requoteIfPaused(markets: readonly SimulatedMarket[]): Promise<void> {
    if (!this.paused || !this.ready || markets.length === 0) return;
    const { exchange } = this.venue;
    await this.venue.run(() => {
      for (const simulated of markets) {
        this.guard(() => {
          // As a step would: the makers' base was sized for the old reference, and far below it covered only two
          // or three ask levels against ten bids until the trader resumed.
          this.faucet.topUp(exchange, new Set(this.sizeMakers(simulated)));
          simulated.quote(this.volatility, this.rng, exchange, this.entry);
        });
      }
    });
  }

  /** Sizes the base of the market's simulated users to its reference now; their ids. */
  private sizeMakers(simulated: SimulatedMarket): string[] {
    const users = this.roster.filter((u) => u.productId === simulated.market.id);
    for (const user of users) this.setBaseTarget(user, simulated.market, simulated.reference, simulated.clipAtoms);
    return users.map((u) => u.userId);
  }

  status(): SimStatus {
    const { markets } = this.venue.exchange;
    const priceOrNull = (market: Market, ticks: number | undefined): string | null => (ticks === undefined ? null : market.price(ticks));
    const products: SimProductStatus[] = [];
    for (const [productId, reference] of this.references) {
      const market = markets.get(productId);
      if (market === undefined) continue;
      products.push({
        product_id: productId,
        reference_price: market.price(reference.ticks),
        best_bid: priceOrNull(market, market.book.bestBid()),
        best_ask: priceOrNull(market, market.book.bestAsk()),
        last_trade: priceOrNull(market, market.book.lastTradeTicks),
      });
    }
    return {
      running: this.timer !== undefined,
      paused: this.paused,
      speed: this.speed,
      volatility: this.volatility,
      seed: this.seed,
      run_seed: this.runSeed,
      steps: this.steps,
      simulated_ms: Math.round(this.simulatedMs),
      orders_placed: this.entry.placed,
      orders_rejected: this.entry.rejected,
      errors: this.errors,
      last_error: this.lastError,
      products,
    };
  }

  /** The simulated users, makers and takers of every product. */
  users(): readonly SimUser[] {
    return this.roster;
  }

  /** What the simulator has deposited into a simulated account, per asset, since setup. */
  deposited(userId: string): ReadonlyMap<string, bigint> {
    return this.faucet.deposited(userId);
  }

  private async enlistUsers(): Promise<void> {
    const { exchange, store } = this.venue;
    const stored = readRoster(store.getMeta(SIM_ROSTER_META_KEY));
    const wanted = PRODUCTS.flatMap((spec) => [
      ...MAKER_PROFILES.map((_, slot) => ({ productId: spec.id, role: 'maker' as const, slot })),
      ...Array.from({ length: TAKERS_PER_PRODUCT }, (_, slot) => ({ productId: spec.id, role: 'taker' as const, slot })),
    ]);
    const clips = new Map(PRODUCTS.map((spec) => [spec.id, clipAtoms(spec.quoteAssetId)]));
    let roster: SimUser[] = [];
    const committed = this.venue.run(() => {
      const { users, created } = enlist(exchange, stored, wanted);
      for (const user of users) {
        exchange.cancelAll(user.userId, undefined);
        const market = exchange.markets.get(user.productId);
        const reference = this.references.get(user.productId);
        const clip = clips.get(user.productId);
        if (market === undefined || reference === undefined || clip === undefined) throw new Error(`no market ${user.productId}`);
        this.faucet.setTarget(user.userId, market.quoteAsset, clip * WORKING_BALANCE_CLIPS);
        this.setBaseTarget(user, market, reference, clip);
        if (created.has(user.userId)) this.faucet.fund(exchange, user.userId);
      }
      roster = users;
    });
    // Queued in the same turn as the run's commit, the roster goes into the same group-commit transaction as the
    // accounts it names.
    const recorded = store.commit({ meta: { [SIM_ROSTER_META_KEY]: writeRoster(roster) } });
    await Promise.all([committed, recorded]);
    this.roster = roster;
    this.markets = PRODUCTS.map((spec) => {
      const market = exchange.markets.get(spec.id);
      const reference = this.references.get(spec.id);
      const clip = clips.get(spec.id);
      if (market === undefined || reference === undefined || clip === undefined) throw new Error(`no market ${spec.id}`);
      const mine = roster.filter((u) => u.productId === spec.id);
      const makers = mine
        .filter((u) => u.role === 'maker')
        .map((u) => new MarketMaker(u.userId, market, MAKER_PROFILES[u.slot] as MakerProfile, this.venue.exchange.maxOpenOrders, u.slot));
      const takers = new TakerFlow(
        mine.filter((u) => u.role === 'taker').map((u) => u.userId),
        market,
      );
      return new SimulatedMarket(market, reference, makers, takers, clip);
    });
    this.ready = true;
  }

  private advance(elapsedMs: number): void {
    const { exchange } = this.venue;
    const pieces = Math.min(MAX_SUBSTEPS, Math.ceil(elapsedMs / MAX_SUBSTEP_MS));
    const seconds = elapsedMs / pieces / 1000;
    for (let i = 0; i < pieces; i++) {
      this.guard(() => {
        for (const market of this.markets) this.sizeMakers(market);
        this.faucet.topUp(exchange);
      });
      for (const market of this.markets) {
        this.guard(() => market.advance(seconds, this.volatility, this.rng, exchange, this.entry));
      }
    }
    this.simulatedMs += elapsedMs;
    this.steps += 1;
  }

  /**
   * The base an account works with is worth its quote at the reference as it stands. Sized once at setup, it
   * fell under half a clip once the reference was moved far down (250 times, to the lowest allowed), and the
   * makers could quote only two ask levels against ten bids.
   */
  private setBaseTarget(user: SimUser, market: Market, reference: ReferencePrice, clip: bigint): void {
    this.faucet.setTarget(user.userId, market.baseAsset, market.baseAtoms(lotsFor(market.rules, reference.ticks, clip * WORKING_BALANCE_CLIPS)));
  }

  /** One product's trouble must not stop the others, nor the venue. */
  private guard(work: () => void): void {
    try {
      work();
    } catch (err) {
      this.record(err);
    }
  }

  private record(err: unknown): void {
    this.errors += 1;
    this.lastError = err instanceof Error ? err.message : String(err);
  }
}

/** Where a product's reference starts: its last trade when the venue has traded it, else products.ts's price. */
function startingReference(market: Market): number {
  const last = market.book.lastTradeTicks;
  if (last !== undefined) return last;
  const ticks = toUnits(market.rules.spec.referencePrice, market.rules.spec.priceIncrement);
  if (isReason(ticks)) throw new Error(`products.ts: ${market.id} reference price: ${ticks.reason}`);
  return ticks;
}

function clipAtoms(quoteAsset: string): bigint {
  const local = LOCAL_USER_BALANCES[quoteAsset];
  const asset = findAsset(quoteAsset);
  if (local === undefined || asset === undefined) throw new Error(`products.ts: no local user balance of ${quoteAsset} to size the simulator by`);
  const atoms = toAtoms(local, asset.decimals);
  if (isReason(atoms)) throw new Error(`products.ts: local user balance of ${quoteAsset}: ${atoms.reason}`);
  return (atoms * CLIP_PERCENT_OF_LOCAL_BALANCE) / 100n;
}

/** Where the count of steps taken on the folder is kept between runs (a decimal integer). */
export const SIM_STEPS_META_KEY = 'sim.steps';

function readSteps(text: string | undefined): number {
  const steps = text === undefined ? 0 : Number(text);
  return Number.isSafeInteger(steps) && steps > 0 ? steps : 0;
}

/**
 * The seed this run draws from. Seeded afresh with the trader's seed at every start, a restarted venue drew the
 * stream again from its first number: every start's first step moved each product by the same fraction as the
 * last start's, and the same draws came back, shifted, in the steps after (the market's state soon changes how
 * many a step takes). A folder that has taken steps now mixes their count in (a murmur3-style finaliser, so
 * nearby counts give unrelated streams); a fresh folder still starts from the seed itself, so the same seed
 * gives the same market from scratch, and so does the same folder restarted with it.
 */
function runSeed(seed: number, steps: number): number {
  if (steps === 0) return seed;
  let h = (seed >>> 0) ^ Math.imul(steps >>> 0, 0x9e3779b9) ^ Math.imul(Math.floor(steps / 2 ** 32), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Where the trader's simulator controls are kept between runs. */
export const SIM_CONTROLS_META_KEY = 'sim.controls';

interface SavedControls {
  paused?: boolean;
  speed?: number;
  volatility?: number;
  /** Written by builds before SIM_REFERENCES_META_KEY: each product's reference when a control was last used. */
  references?: Record<string, string>;
}

/**
 * Where each product's reference price is kept between runs, written with every control and with the steps that
 * moved it (SAVE_REFERENCES_BP): a restart, paused or not, carries on from it. A JSON object of product id to price.
 */
export const SIM_REFERENCES_META_KEY = 'sim.references';

/** The stored references, or undefined for a folder that has none (or one this build cannot read). */
function readReferences(text: string | undefined): Record<string, string> | undefined {
  const value = jsonObject(text);
  return value === undefined ? undefined : prices(value);
}

/** What an earlier run saved; a value that is missing, or not one this build would set, is left to the default. */
function readControls(text: string | undefined): SavedControls {
  const value = jsonObject(text);
  if (value === undefined) return {};
  const { paused, speed, volatility, references } = value;
  const kept = typeof references === 'object' && references !== null ? prices(references) : {};
  return {
    ...(Object.keys(kept).length > 0 && { references: kept }),
    ...(typeof paused === 'boolean' && { paused }),
    ...(typeof speed === 'number' && speed >= SIM_SPEED_MIN && speed <= SIM_SPEED_MAX && { speed }),
    ...(typeof volatility === 'number' && volatility >= SIM_VOLATILITY_MIN && volatility <= SIM_VOLATILITY_MAX && { volatility }),
  };
}

/** A meta value holding a JSON object; undefined for none, or for text that is not one. */
function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** Product id to price, of the entries whose price is a string (it is checked on the product's increment later). */
function prices(value: object): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function checkedSpeed(speed: number): number {
  return inRange('speed', speed, SIM_SPEED_MIN, SIM_SPEED_MAX);
}

function checkedVolatility(volatility: number): number {
  return inRange('volatility', volatility, SIM_VOLATILITY_MIN, SIM_VOLATILITY_MAX);
}

/** NaN is out of every range. */
function inRange(name: string, value: number, min: number, max: number): number {
  if (!(value >= min && value <= max)) throw apiError('E0110_ValueOutOfRange', `${name}: must be between ${min} and ${max}`);
  return value;
}
