// The minimal counterexamples exchange-model.property.test.ts found, each as a plain example: the same commands
// on an exchange that restarts (from the rows it handed over) and on a twin that never does.
import { describe, expect, it } from 'vitest';
import { comparable, world, type Command, type World } from './model-world';

const P = '2500000000';

function place(user: number, body: Record<string, unknown>, scheduleInMs = 0, expireInMs = 0): Command {
  return { kind: 'place', user, body, stp: 'CANCEL_TAKER', cid: -1, upper: 0, scheduleInMs, expireInMs };
}

/** Runs the commands on both; `restart` restarts the first and only ticks the twin. */
function both(commands: readonly Command[]): { restarted: World; twin: World } {
  const restarted = world();
  const twin = world();
  for (const [i, c] of commands.entries()) {
    const a = c.kind === 'restart' ? restarted.restart() : restarted.run(c);
    const b = twin.run(c);
    expect(comparable(a.changes), `command ${i}: ${JSON.stringify(c)}`).toEqual(comparable(b.changes));
  }
  return { restarted, twin };
}

describe('exchange model: minimal counterexamples', () => {
  it('an order that starts and a TWAP slice due in the same tick run in the same order after a restart', () => {
    // A TWAP buy of 3 lots over 3 s slices at 0, 1 and 2 s; a sell placed after its first slice starts at 2 s,
    // with its last slice. Each slice takes a fresh seq, so after the second the TWAP's seq is past the sell's:
    // a restart that puts timed orders back in seq order ran the sell's start before the slice (the slice then
    // bought it), where the venue that never stopped ran the slice first (nothing to buy) and rested the sell.
    const { restarted, twin } = both([
      place(0, { type: 'TWAP', side: 'BUY', limit_price: P, base_size: '0.0003', time_in_force: 'GTT' }, 0, 3000),
      { kind: 'tick', ms: 10 },
      place(1, { type: 'LIMIT', side: 'SELL', limit_price: P, base_size: '0.0001' }, 1990),
      { kind: 'tick', ms: 990 },
      { kind: 'restart' },
      { kind: 'tick', ms: 1000 },
    ]);
    // Both due at 2 s: the one due first (a tie, then the older seq) runs first: the sell rests and the slice buys it.
    expect(twin.store.trades.length).toBe(1);
    expect(restarted.store.trades.length).toBe(1);
  });
});
