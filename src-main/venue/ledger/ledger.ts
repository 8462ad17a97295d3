/**
 * Balances per account and asset, split into free and locked (held for open orders), in atoms (bigint).
 * Every movement is one of a few named operations so that an asset's total across all accounts changes only
 * by deposits: trades move value between accounts and fees go to the venue's fee account.
 */

export interface Balance {
  free: bigint;
  locked: bigint;
}

export class LedgerError extends Error {}

export class Ledger {
  private readonly accounts = new Map<string, Map<string, Balance>>();
  private readonly dirty = new Map<string, Set<string>>();

  balance(account: string, asset: string): Readonly<Balance> {
    return this.accounts.get(account)?.get(asset) ?? { free: 0n, locked: 0n };
  }

  balances(account: string): ReadonlyMap<string, Readonly<Balance>> {
    return this.accounts.get(account) ?? new Map<string, Balance>();
  }

  /** Restore a balance exactly as persisted (recovery only). */
  restore(account: string, asset: string, free: bigint, locked: bigint): void {
    const entry = this.entry(account, asset);
    entry.free = free;
    entry.locked = locked;
  }

  /** Set a balance outright, nothing locked (the simulator's reset); the only operation that is not a transfer. */
  reset(account: string, asset: string, free: bigint): void {
    this.positive(free);
    const entry = this.entry(account, asset);
    entry.free = free;
    entry.locked = 0n;
    this.touch(account, asset);
  }

  /** New value entering the venue: starting balances and the simulator's faucet. */
  deposit(account: string, asset: string, amount: bigint): void {
    this.positive(amount);
    this.entry(account, asset).free += amount;
    this.touch(account, asset);
  }

  /** Move free to locked; false (and nothing changes) when the free balance is short. */
  hold(account: string, asset: string, amount: bigint): boolean {
    if (amount === 0n) return true;
    this.positive(amount);
    const entry = this.entry(account, asset);
    if (entry.free < amount) return false;
    entry.free -= amount;
    entry.locked += amount;
    this.touch(account, asset);
    return true;
  }

  release(account: string, asset: string, amount: bigint): void {
    if (amount === 0n) return;
    this.positive(amount);
    const entry = this.entry(account, asset);
    if (entry.locked < amount) throw new LedgerError(`release of ${amount} ${asset} exceeds ${account}'s locked ${entry.locked}`);
    entry.locked -= amount;
    entry.free += amount;
    this.touch(account, asset);
  }

  /** Pay out of a hold into another account's free balance (settlement of a trade, a fee). */
  payFromLocked(from: string, to: string, asset: string, amount: bigint): void {
    if (amount === 0n) return;
    this.positive(amount);
    const source = this.entry(from, asset);
    if (source.locked < amount) throw new LedgerError(`payment of ${amount} ${asset} exceeds ${from}'s locked ${source.locked}`);
    source.locked -= amount;
    this.entry(to, asset).free += amount;
    this.touch(from, asset);
    this.touch(to, asset);
  }

  /** Pay out of a free balance into another account's free balance (a fee taken from proceeds). */
  payFromFree(from: string, to: string, asset: string, amount: bigint): void {
    if (amount === 0n) return;
    this.positive(amount);
    const source = this.entry(from, asset);
    if (source.free < amount) throw new LedgerError(`payment of ${amount} ${asset} exceeds ${from}'s free ${source.free}`);
    source.free -= amount;
    this.entry(to, asset).free += amount;
    this.touch(from, asset);
    this.touch(to, asset);
  }

  /** Everything every account holds of an asset: constant except for deposits. */
  total(asset: string): bigint {
    let sum = 0n;
    for (const assets of this.accounts.values()) {
      const b = assets.get(asset);
      if (b !== undefined) sum += b.free + b.locked;
    }
    return sum;
  }

  accountIds(): IterableIterator<string> {
    return this.accounts.keys();
  }

  /** The balances changed since the last call, for persisting. */
  drainChanged(): { account: string; asset: string; free: bigint; locked: bigint }[] {
    const out: { account: string; asset: string; free: bigint; locked: bigint }[] = [];
    for (const [account, assets] of this.dirty) {
      for (const asset of assets) {
        const b = this.balance(account, asset);
        out.push({ account, asset, free: b.free, locked: b.locked });
      }
    }
    this.dirty.clear();
    return out;
  }

  private entry(account: string, asset: string): Balance {
    let assets = this.accounts.get(account);
    if (assets === undefined) {
      assets = new Map();
      this.accounts.set(account, assets);
    }
    let entry = assets.get(asset);
    if (entry === undefined) {
      entry = { free: 0n, locked: 0n };
      assets.set(asset, entry);
    }
    return entry;
  }

  private touch(account: string, asset: string): void {
    let assets = this.dirty.get(account);
    if (assets === undefined) {
      assets = new Set();
      this.dirty.set(account, assets);
    }
    assets.add(asset);
  }

  private positive(amount: bigint): void {
    if (amount < 0n) throw new LedgerError(`negative amount ${amount}`);
  }
}
