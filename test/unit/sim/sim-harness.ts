/**
 * A local venue in a temporary folder with a simulated clock, and its market simulator. The clock moves only
 * when the test steps the simulation, so everything the venue stamps follows simulated time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MarketSimulator, type MarketSimulatorOptions } from '../../../src-main/venue/sim/market-simulator';
import type { TradeRow } from '../../../src-main/venue/store';
import { Venue } from '../../../src-main/venue/venue';

export interface SimulatedVenue {
  readonly venue: Venue;
  readonly sim: MarketSimulator;
  readonly dataDir: string;
  /** Every trade since setup, in the order they happened. */
  readonly trades: TradeRow[];
  /** Order events seen since setup. */
  orderEvents(): number;
  /** `steps` steps of `ms` simulated milliseconds, the clock moving with them; `afterEach` runs after every step. */
  run(steps: number, ms?: number, afterEach?: () => void): Promise<void>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

const START_NANOS = 1_700_000_000_000_000_000n;

export async function openSimulatedVenue(options: MarketSimulatorOptions, dataDir?: string): Promise<SimulatedVenue> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'nova-sim-'));
  let clock = START_NANOS;
  const venue = await Venue.open({ dataDir: dir, now: () => clock });
  const sim = new MarketSimulator(venue, options);
  await sim.setup();
  const trades: TradeRow[] = [];
  const seen = new Set<string>();
  let events = 0;
  venue.exchange.onOrderEvent((event) => {
    events += 1;
    for (const trade of event.trades) {
      if (seen.has(trade.id)) continue;
      seen.add(trade.id);
      trades.push(trade);
    }
  });
  return {
    venue,
    sim,
    dataDir: dir,
    trades,
    orderEvents: () => events,
    async run(steps, ms = 100, afterEach) {
      for (let i = 0; i < steps; i++) {
        clock += BigInt(ms) * 1_000_000n;
        await sim.step(ms);
        afterEach?.();
      }
    },
    async close(closeOptions = {}) {
      await sim.stop();
      await venue.close();
      if (closeOptions.keepData !== true) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
