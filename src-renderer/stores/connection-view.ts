// What the connection's state means for what the windows show: whether the market data is live, the latency, and
// which environment (Production, real money, or not) the window's orders and keys act on.
import type { ConnectionStatus, EnvironmentId } from '../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES } from '../../src-shared/ipc/environment-names';
import { useDesk, type DeskState } from './desk-store';

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

/** The mark of a book, tape, ticker or candles the venue is not updating though the connection is current. */
const NOT_UPDATED = 'stale: not updated';

/** The connection's staleness (an outage freezes every feed), else the feed's own doubt over a current connection. */
function feedStaleness(connection: ConnectionStatus | undefined, inDoubt: boolean): string | undefined {
  return staleness(connection) ?? (inDoubt ? NOT_UPDATED : undefined);
}

/**
 * Why a product's book is stale, or undefined while it is current: the connection's staleness, else the book's own
 * doubt (a gap in its stream not yet resynced, a connection lost and its snapshot not back, or its polls failing).
 * The ladder, the ticket and the panel frame read it here, so none of them offers a price or an estimate from a book
 * another marks stale.
 */
export function bookStaleness(s: Pick<DeskState, 'connection' | 'books'>, productId: string): string | undefined {
  return feedStaleness(s.connection, s.books[productId]?.inDoubt === true);
}

/** Why a product's tape is stale, as its book: its own doubt is a trades sub not answered (cut off, or just sent). */
export function tapeStaleness(s: Pick<DeskState, 'connection' | 'tradesInDoubt'>, productId: string): string | undefined {
  return feedStaleness(s.connection, s.tradesInDoubt[productId] === true);
}

/** Why a product's candles are stale, as its tape: their own doubt is a candles sub not answered. */
export function candlesStaleness(s: Pick<DeskState, 'connection' | 'candlesInDoubt'>, productId: string): string | undefined {
  return feedStaleness(s.connection, s.candlesInDoubt[productId] === true);
}

/** Why a product's last price is stale, as its book: its own doubt is a ticker stream cut off and not back. */
export function tickerStaleness(s: Pick<DeskState, 'connection' | 'tickers'>, productId: string): string | undefined {
  return feedStaleness(s.connection, s.tickers[productId]?.inDoubt === true);
}

/**
 * Whether a book's, tape's, ticker's or candles' staleness is its own doubt over a current connection, not an outage: each
 * place that says why a figure is stale says it differently for the two (a feed that is not updated, a connection
 * that is not live).
 */
export function bookNotUpdated(stale: string | undefined): boolean {
  return stale === NOT_UPDATED;
}

/** The latency to show: a round trip measured on a live connection only, never a figure left from before an outage. */
export function shownLatency(connection: ConnectionStatus | undefined): string | undefined {
  if (connection?.state !== 'live' || connection.latencyMs === undefined) return undefined;
  return `${Math.round(connection.latencyMs)} ms`;
}

/**
 * The environment this window's orders and keys go to: the desk's session, which the environments list can lag by
 * an event; the list's active one before the window has heard of a session; Local before either. Every red frame,
 * badge and question reads it here, so none of them can name another environment than the one the next order goes
 * to, and every order and cancel names it: the desk acts on none that names another than its own.
 */
export function actingEnvironment(s: Pick<DeskState, 'connection' | 'environments'>): EnvironmentId {
  return s.connection?.environment ?? s.environments?.active ?? 'local';
}

/** Real money: drawn in red and asked about in capitals wherever the trader acts on it. */
export function isProduction(environment: EnvironmentId): boolean {
  return environment === 'production';
}

/** How the desk bar and each window's badge name the environment: Production in capitals. */
export function badgeName(environment: EnvironmentId): string {
  return isProduction(environment) ? 'PRODUCTION' : ENVIRONMENT_NAMES[environment];
}

/**
 * The acting environment for a component. The selector returns the id alone, not the connection: a new connection
 * comes with every latency measured, and every window (a pop-out's whole panel included) re-rendered with it.
 */
export function useActingEnvironment(): { environment: EnvironmentId; production: boolean; name: string } {
  const environment = useDesk(actingEnvironment);
  return { environment, production: isProduction(environment), name: badgeName(environment) };
}

/** Whether the window acts on Production, for a frame that only needs to know that. */
export function useProduction(): boolean {
  return useDesk((s) => isProduction(actingEnvironment(s)));
}
