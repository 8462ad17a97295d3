// The frame every panel sits in: a titled region, production marked in red, and the panel's own controls.
// A market panel (`market`) or one of the trader's orders, fills or balances (`account`) is marked stale, its
// content dimmed, while the connection is not live; a product's book panel (`book`) also while the book is in doubt,
// its tape (`tape`) while the tape is, and its chart (`candles`) while the candles are.
import type { ReactNode } from 'react';
import { bookNotUpdated, bookStaleness, candlesStaleness, staleness, tapeStaleness, useProduction } from '../stores/connection-view';
import { useDesk } from '../stores/desk-store';

const STALE_TITLE = {
  market: 'The connection is not live: this market data is not being updated',
  account: 'The connection is not live: orders may have filled or been canceled since, and balances moved, without showing here',
} as const;
const BOOK_TITLE = 'The book is not being updated (a gap in its stream, or its polls fail): these levels are the last known until the venue sends the book again';
const TAPE_TITLE = 'The trades are not being updated (their stream was cut off): this tape is the last known until the venue streams it again';
const CANDLES_TITLE = 'The candles are not being updated (their stream was cut off): these are the last known until the venue streams them again';

/**
 * `book`: the product whose book the panel shows, a market panel marked stale while the book is in doubt as well.
 * `tape`, `candles`: the same for the product whose trades, or candles, it shows.
 * `unread`: why what the panel shows could not be read (the feed reads it again): an empty panel is not a quiet market.
 */
export function Panel(props: {
  title: string;
  tools?: ReactNode;
  children: ReactNode;
  market?: boolean;
  account?: boolean;
  book?: string;
  tape?: string;
  candles?: string;
  unread?: string;
}): React.JSX.Element {
  const production = useProduction();
  const feed =
    props.book !== undefined
      ? { productId: props.book, staleness: bookStaleness, title: BOOK_TITLE }
      : props.tape !== undefined
        ? { productId: props.tape, staleness: tapeStaleness, title: TAPE_TITLE }
        : props.candles !== undefined
          ? { productId: props.candles, staleness: candlesStaleness, title: CANDLES_TITLE }
          : undefined;
  const kind = props.market === true || feed !== undefined ? 'market' : props.account === true ? 'account' : undefined;
  const stale = useDesk((s) => (feed !== undefined ? feed.staleness(s, feed.productId) : kind === undefined ? undefined : staleness(s.connection)));
  const className = `panel${production ? ' production' : ''}${stale === undefined ? '' : ' stale'}`;
  return (
    <section className={className} aria-label={props.title}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        {stale !== undefined && kind !== undefined && <span className="stale-mark" role="status" title={feed !== undefined && bookNotUpdated(stale) ? feed.title : STALE_TITLE[kind]}>{stale}</span>}
        <div className="panel-tools">{props.tools}</div>
      </header>
      <div className="panel-body">
        {props.unread !== undefined && <p className="note unread-note" role="status" aria-label="Not loaded">Not loaded: {props.unread}. Trying again.</p>}
        {props.children}
      </div>
    </section>
  );
}
