/**
 * The simulated users: which accounts are the simulator's (kept in the store's meta table, so a restart reuses
 * them instead of opening new ones every run) and the faucet that keeps them funded.
 */
import { z } from 'zod';
import { ApiError } from '../../../src-shared/errors/api-error';
import { DEFAULT_MAKER_FEE_RATE, DEFAULT_TAKER_FEE_RATE } from '../../../src-shared/protocol/products';
import type { Exchange } from '../exchange/exchange';

export type SimRole = 'maker' | 'taker';

export interface SimUser {
  readonly userId: string;
  readonly productId: string;
  readonly role: SimRole;
  /** Which maker or taker of the product this is (0, 1, ...). */
  readonly slot: number;
}

/** The meta key under which the roster is stored. */
export const SIM_ROSTER_META_KEY = 'sim.roster';

const RosterShape = z.object({
  version: z.literal(1),
  users: z.array(
    z.object({
      user_id: z.string(),
      product_id: z.string(),
      role: z.enum(['maker', 'taker']),
      slot: z.number().int().nonnegative(),
    }),
  ),
});

/** The stored roster; none yet on a venue that never simulated. A roster that cannot be read is an error, not a fresh start. */
export function readRoster(text: string | undefined): SimUser[] {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`meta ${SIM_ROSTER_META_KEY} is not JSON`);
  }
  const parsed = RosterShape.safeParse(json);
  if (!parsed.success) throw new Error(`meta ${SIM_ROSTER_META_KEY} is malformed: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data.users.map((u) => ({ userId: u.user_id, productId: u.product_id, role: u.role, slot: u.slot }));
}

/**
 * A venue started without its simulator takes the simulated users' quotes off the books: "without --simulate
 * the books start empty and only real clients trade" (venue contract), even on a folder a simulated run left.
 * Their accounts and history stay; a later simulated run enlists them again.
 */
export function withdrawSimulatedQuotes(exchange: Exchange, storedRoster: string | undefined): void {
  for (const user of readRoster(storedRoster)) if (exchange.user(user.userId) !== undefined) exchange.cancelAll(user.userId, undefined);
}

export function writeRoster(users: readonly SimUser[]): string {
  return JSON.stringify({
    version: 1,
    users: users.map((u) => ({ user_id: u.userId, product_id: u.productId, role: u.role, slot: u.slot })),
  });
}

/**
 * A user for every wanted slot: the stored one when the exchange still has that account, else a new account
 * (not admin, default fees). Returns them in the order of `wanted`, and which of them are new.
 */
export function enlist(
  exchange: Exchange,
  stored: readonly SimUser[],
  wanted: readonly Omit<SimUser, 'userId'>[],
): { users: SimUser[]; created: Set<string> } {
  const created = new Set<string>();
  const users = wanted.map((slot) => {
    const found = stored.find((u) => u.productId === slot.productId && u.role === slot.role && u.slot === slot.slot);
    if (found !== undefined && exchange.user(found.userId) !== undefined) return found;
    const row = exchange.createUser({ isAdmin: false, makerFeeRate: DEFAULT_MAKER_FEE_RATE, takerFeeRate: DEFAULT_TAKER_FEE_RATE });
    created.add(row.id);
    return { ...slot, userId: row.id };
  });
  return { users, created };
}

/**
 * Each simulated account has a working balance per asset. New accounts get it at once; an account that falls
 * under half of it (fees paid, a run of one-sided fills) is topped up to it, so the market never runs dry.
 * Everything given is remembered, so a test can reconcile an account against its fills.
 */
export class Faucet {
  private readonly targets = new Map<string, Map<string, bigint>>();
  private readonly given = new Map<string, Map<string, bigint>>();

  setTarget(userId: string, asset: string, atoms: bigint): void {
    const targets = this.targets.get(userId) ?? new Map<string, bigint>();
    targets.set(asset, atoms);
    this.targets.set(userId, targets);
  }

  /** Give a new account its whole working balance. */
  fund(exchange: Exchange, userId: string): void {
    for (const [asset, atoms] of this.targets.get(userId) ?? []) this.give(exchange, userId, asset, atoms);
  }

  /** `only`: these accounts alone (one product's, requoted while the others stand still). */
  topUp(exchange: Exchange, only?: ReadonlySet<string>): void {
    for (const [userId, targets] of this.targets) {
      if (only !== undefined && !only.has(userId)) continue;
      for (const [asset, target] of targets) {
        const { free, locked } = exchange.ledger.balance(userId, asset);
        if ((free + locked) * 2n < target) this.give(exchange, userId, asset, target - free - locked);
      }
    }
  }

  /** What this faucet has deposited into the account, per asset, since the simulator was set up. */
  deposited(userId: string): ReadonlyMap<string, bigint> {
    return this.given.get(userId) ?? new Map<string, bigint>();
  }

  private give(exchange: Exchange, userId: string, asset: string, atoms: bigint): void {
    if (atoms <= 0n) return;
    try {
      exchange.deposit(userId, asset, atoms);
    } catch (err) {
      // All accounts together already hold nearly the most a balance can (a data folder funded with absurd
      // amounts): this account goes without, and the venue starts and trades anyway.
      if (err instanceof ApiError && err.ref === 'E0110_ValueOutOfRange') return;
      throw err;
    }
    const given = this.given.get(userId) ?? new Map<string, bigint>();
    given.set(asset, (given.get(asset) ?? 0n) + atoms);
    this.given.set(userId, given);
  }
}
