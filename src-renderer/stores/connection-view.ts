// What the connection's state means for what the windows show: whether the market data is live, and the latency.
import type { ConnectionStatus } from '../../src-shared/ipc/contract';

/**
 * Why what a window shows from the venue is stale, or undefined while it is current. Only a live session streams
 * the market and hears the venue's order events (read again once it is live again); without a key the desk polls
 * the public market data, so that is current too, and there are no orders. Any other state (connecting,
 * reconciling, reconnecting, refused, closed, unavailable) freezes the book, tape and candles on what came last,
 * and a fill or a cancel may have happened that the blotters and balances do not show. Before the window has
 * heard of the connection at all there is nothing to call stale.
 */
export function staleness(connection: ConnectionStatus | undefined): string | undefined {
  if (connection === undefined || connection.state === 'live' || connection.state === 'no_key') return undefined;
  return `stale: ${connection.state}`;
}

/** The latency to show: a round trip measured on a live connection only, never a figure left from before an outage. */
export function shownLatency(connection: ConnectionStatus | undefined): string | undefined {
  if (connection?.state !== 'live' || connection.latencyMs === undefined) return undefined;
  return `${Math.round(connection.latencyMs)} ms`;
}
