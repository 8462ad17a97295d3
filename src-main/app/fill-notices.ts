// Native notifications of the trader's fills, from main: one per fill however many windows are open (each window
// runs its own feed, so notifications raised by pages would come once per window). Fed by the desk's
// orders.changed events; a fill is news once, and only if it happened while this app was running: reconnecting
// and reconciling brings back old fills, which the trader has already been told about.
import type { EnvironmentId } from '../../src-shared/ipc/contract';
import { environmentLabel } from '../../src-shared/ipc/environment-names';
import type { Order } from '../../src-shared/protocol/records';
import type { Disposable } from '../connection/events';
import type { Desk } from '../desk/desk';

export interface FillNotice {
  readonly title: string;
  readonly body: string;
}

/** Trailing zeros off a wire decimal for reading ("0.00100000" → "0.001"); the digits are never touched. */
function plain(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/** More fills than this in one batch make one notice that counts them, not a stack of notifications. */
export const MAX_NOTICES_AT_ONCE = 3;

export class FillNotices {
  private readonly told = new Set<string>();

  /** `since`: UNIX nanoseconds when this app started; fills before it are not news. */
  constructor(private readonly since: bigint) {}

  /** The notices for fills on `environment` not told before, oldest first; a burst becomes one notice. */
  take(orders: readonly Order[], environment: EnvironmentId): FillNotice[] {
    const notices: FillNotice[] = [];
    for (const order of orders) {
      for (const trade of order.trades) {
        // Trade ids are each venue's own: one of Local's may be one of Production's too.
        const key = `${environment}:${trade.id}`;
        if (this.told.has(key)) continue;
        this.told.add(key);
        if (!/^\d{1,19}$/.test(trade.time) || BigInt(trade.time) < this.since) continue;
        const verb = order.side === 'BUY' ? 'Bought' : 'Sold';
        notices.push({
          title: `${verb} ${plain(trade.size)} ${order.product_id}`,
          body: `at ${plain(trade.price)} (${trade.liquidity_indicator === 'MAKER' ? 'maker' : 'taker'}), order ${order.client_order_id || order.order_id}`,
        });
      }
    }
    // A trader practising on Local must never take a fill there for a Production one, nor the other way round.
    const on = environmentLabel(environment);
    const last = notices.at(-1);
    if (last === undefined || notices.length <= MAX_NOTICES_AT_ONCE) return notices.map((n) => ({ title: `${on}: ${n.title}`, body: n.body }));
    return [{ title: `${on}: ${notices.length} fills`, body: `the last: ${last.title} ${last.body}` }];
  }
}

/**
 * Shows each new fill the desk's order events carry, named with the environment they came from: only the session
 * of the environment the desk is on tells orders (its listeners go with it at a switch), so that is the desk's
 * environment when the event fires.
 */
export function tellFills(desk: Pick<Desk, 'events' | 'environment'>, since: bigint, show: (notice: FillNotice) => void): Disposable {
  const fills = new FillNotices(since);
  return desk.events.onDidEmit((event) => {
    if (event.name !== 'orders.changed') return;
    for (const notice of fills.take(event.payload, desk.environment)) show(notice);
  });
}
