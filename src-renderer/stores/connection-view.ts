// What the connection's state means for what the windows show: whether the market data is live, and the latency.
import type { ConnectionStatus } from '../../src-shared/ipc/contract';

/**
 * Why the market data shown (book, tape, candles) is stale, or undefined while it is current. Only a live
 * session streams it; without a key the desk polls the venue's public market data, so that is current too.
 * Any other state (connecting, reconciling, reconnecting, refused, closed, unavailable) freezes it on what came
 * last. Before the window has heard of the connection at all there is nothing to call stale.
 */
export function marketStaleness(connection: ConnectionStatus | undefined): string | undefined {
  if (connection === undefined) return undefined;
  switch (connection.state) {
    case 'live':
    case 'no_key':
      return undefined;
    case 'connecting':
    case 'reconciling':
    case 'reconnecting':
    case 'refused':
    case 'closed':
    case 'unavailable':
      return `stale: ${connection.state}`;
  }
}

/**
 * Why the trader's orders, fills and balances shown are stale, or undefined while they are current. Only a live
 * session hears the venue's order events, and the desk reads them again only once it is live again: until then a
 * fill or a cancel may have happened that the blotters and balances do not show. Without a key there are none.
 */
export function accountStaleness(connection: ConnectionStatus | undefined): string | undefined {
  if (connection === undefined || connection.state === 'live' || connection.state === 'no_key') return undefined;
  return `stale: ${connection.state}`;
}

/** The latency to show: a round trip measured on a live connection only, never a figure left from before an outage. */
export function shownLatency(connection: ConnectionStatus | undefined): string | undefined {
  if (connection?.state !== 'live' || connection.latencyMs === undefined) return undefined;
  return `${Math.round(connection.latencyMs)} ms`;
}
