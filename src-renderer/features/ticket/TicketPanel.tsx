/**
 * The order ticket: every parameter of the venue's order API, checked as the trader types. Keyboard: Alt+T from
 * anywhere in the window puts the cursor in it, Alt+B and Alt+S pick the side, Alt+1..4 size 25/50/75/100% of
 * what is free, Enter (or Ctrl+Enter anywhere in it) sends.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { EnvironmentId, OrderFields, PreTradeIssue } from '../../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES } from '../../../src-shared/ipc/environment-names';
import type { Order } from '../../../src-shared/protocol/records';
import { ORDER_TYPES, STOP_TYPES, TIMES_IN_FORCE, REST_STP_MODES } from '../../../src-shared/protocol/vocabulary';
import { attemptOrRefusal, currentView, showPlacedOrder, tellHeldAfterSwitch } from '../../stores/desk-actions';
import { actingEnvironment, bookNotUpdated, bookStaleness, isProduction, staleness } from '../../stores/connection-view';
import { useDesk } from '../../stores/desk-store';
import { unknownOutcome } from '../../stores/notices-slice';
import { FieldError, invalidMarks } from '../../ui/field-error';
import { Panel } from '../../ui/Panel';
import { ignoreHeldKeys } from '../../ui/VirtualTable';
import { statusOf } from '../blotters/order-columns';
import { formatDecimal } from '../../ui/decimal-text';
import { assetsOf } from '../ladder/increments';
import { earlierNoteGone, learnedOutcome, nameSend, notPlacedText, recentlyDone, sentOrderText, type SentOrder } from './in-doubt';
import { checkTicket, describeOrder, lastOrderText, presetSize, sendsOrder, sizeModesFor, submitText, takesExpiry, type TicketContext, type TicketField, type TicketForm } from './ticket-check';

const PRESETS = [25, 50, 75, 100] as const;
const NO_LEVELS: never[] = [];

/** The order as it stands now (its place answer is only its first state), while it is open or recently done. */
function useLatest(sent: Order | undefined): Order | undefined {
  const id = sent?.order_id;
  const latest = useDesk((s) => (id === undefined ? undefined : (s.openOrders[id] ?? recentlyDone(s, (o) => o.order_id === id))));
  return latest ?? sent;
}

/** The book only matters to orders without a price (an exact-quote order's is the venue's), so only they re-render with it. */
function useTicketContext(productId: string, needsBook: boolean): TicketContext {
  const account = useDesk((s) => s.account);
  const book = useDesk((s) => (needsBook ? s.books[productId] : undefined));
  return useMemo(
    () => ({
      now: BigInt(Date.now()) * 1_000_000n,
      balances: account?.asset_balances,
      makerFeeRate: account?.maker_fee_rate ?? '0',
      takerFeeRate: account?.taker_fee_rate ?? '0',
      bids: book?.bids ?? NO_LEVELS,
      asks: book?.asks ?? NO_LEVELS,
    }),
    [account, book],
  );
}

const FEE_RANGE_WHY =
  "The venue rounds each fill's fee down on its own, one fill per order it takes from, and the book shown does not say how a level's orders split its size";

/** From `low` to `high`, low first; one figure when they are the same or there is no other end. */
function span(low: string | undefined, high: string | undefined): string {
  if (low === undefined || high === undefined || low === high) return formatDecimal(low ?? high ?? '');
  return `${formatDecimal(low)} to ${formatDecimal(high)}`;
}

/** Without the account's fee rates (not read yet, or a key whose account the desk cannot read) a fee is not zero. */
const FEE_NOT_KNOWN = "not known: the account's fee rates are not read yet";

/**
 * The last order line of a send that failed: the order as the ticket sent it, and the refusal's reference. A send
 * whose outcome is unknown is not called refused: a trader trusting "REFUSED" sent it again, and the first may be live.
 */
export function refusedText(request: OrderFields, quoteAsset: string, refusal: { ref: string; message: string }): string {
  const unknown = unknownOutcome(refusal.ref, refusal.message);
  const status =
    unknown === 'placement'
      ? 'OUTCOME UNKNOWN (being looked up): do not send it again'
      : unknown === 'link'
        ? 'OUTCOME UNKNOWN (link to the desk lost): look among the orders before sending it again'
        : `REFUSED: ${refusal.ref}`;
  return sentOrderText(request, quoteAsset, status);
}

/** An order the trader is asked to confirm, on the environment the desk was on when it was asked. */
type Pending = { request: OrderFields; issues: PreTradeIssue[]; environment: EnvironmentId };

/** What the confirmation says first: where the order goes, Production in capitals, as the desk bar shows it. */
export function confirmationHeading(environment: EnvironmentId): string {
  return isProduction(environment) ? 'PRODUCTION: real money. Confirm this order' : `${ENVIRONMENT_NAMES[environment]}: confirm this order`;
}

export function TicketPanel(props: { productId: string }): React.JSX.Element {
  const form = useDesk((s) => s.ticket);
  const edit = useDesk((s) => s.editTicket);
  const products = useDesk((s) => s.products);
  const environment = useDesk(actingEnvironment);
  const confirmHere = useDesk((s) => s.settings?.confirmOrders[environment] ?? isProduction(environment));
  const productId = props.productId;
  const ticket: TicketForm = { ...form, productId };
  const needsBook = ticket.type === 'MARKET' || ticket.sizeMode === 'exact_quote' || (ticket.type !== 'LIMIT' && ticket.price.trim() === '');
  const ctx = useTicketContext(productId, needsBook);
  // Its rates stand in as zero in the checks until the account is read: the estimate must not show that as a fee.
  const feesKnown = useDesk((s) => s.account !== undefined);
  // The ticket reads the book and balances the connection last brought: while it is down they may be far off. A
  // book in doubt over a live connection is marked stale on the ladder, and an estimate from it is no more current.
  const stale = useDesk((s) => (needsBook ? bookStaleness(s, productId) : staleness(s.connection)));
  const check = checkTicket(ticket, ctx);
  const least = check.estimate?.leastFee;
  const [pending, setPending] = useState<Pending | undefined>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<Order | undefined>();
  // The last send the venue (or the desk) refused, or whose outcome is unknown, in words: the line must not go on
  // showing the order before it, whose status a trader read as this one's. One whose outcome is unknown is
  // `following`, until the desk learns what became of it.
  const [refused, setRefused] = useState<{ text: string; following?: SentOrder } | undefined>();
  // The last order sent belongs to the venue it was sent to; so does an order waiting for its confirmation,
  // which must not be confirmed after a switch as if it had been asked about on the new environment.
  const view = useDesk((s) => `${s.connection?.environment ?? ''} ${s.connection?.apiKey ?? ''}`);
  useEffect(() => {
    setSent(undefined);
    setRefused(undefined);
    setPending(undefined);
  }, [view]);
  const last = useLatest(sent);
  const following = refused?.following;
  const learned = useDesk((s) => (following === undefined ? undefined : learnedOutcome(s, following)));
  const pastEarlier = useDesk((s) => following !== undefined && earlierNoteGone(s, following));
  useEffect(() => {
    if (!pastEarlier || following === undefined) return;
    setRefused((r) => (r?.following === following ? { ...r, following: { ...following, notPlacedBefore: false } } : r));
  }, [pastEarlier, following]);
  useEffect(() => {
    if (learned === undefined || following === undefined) return;
    // Kept once learned: the status says "not placed" for a minute, and the order leaves the recent history.
    if (learned === 'not_placed') setRefused({ text: notPlacedText(following.request, assetsOf(following.request.product_id, products).quote) });
    else {
      setSent(learned);
      setRefused(undefined);
    }
  }, [learned, following, products]);
  const formRef = useRef<HTMLFormElement>(null);
  // The field the trader sent from, where the cursor goes back once the confirmation is answered either way.
  const returnFocus = useRef<HTMLElement | null>(null);
  // A confirmation stands only while the ticket shows the order it asks about: corrected on the ticket (a price, a
  // size, the side, another product), "Send anyway" sent the uncorrected order. Withdrawn, it is not asked again
  // when the trader types the old value back; the next Send asks about the order the ticket then shows.
  const asking = pending !== undefined && sendsOrder(ticket, pending.request) ? pending : undefined;
  const withdrawn = pending !== undefined && asking === undefined;
  useEffect(() => {
    if (!withdrawn) return;
    // The trader is typing elsewhere in the ticket: the cursor stays where they are.
    returnFocus.current = null;
    setPending(undefined);
  }, [withdrawn]);

  useEffect(() => {
    // The key's position, not its character: Alt+T types a symbol on some layouts.
    const focusTicket = (e: globalThis.KeyboardEvent): void => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyT') return;
      const field = formRef.current?.querySelector<HTMLInputElement>('input[inputmode="decimal"]:not(:disabled)');
      if (field === null || field === undefined) return;
      e.preventDefault();
      field.focus();
      field.select();
    };
    window.addEventListener('keydown', focusTicket);
    return () => window.removeEventListener('keydown', focusTicket);
  }, []);

  // An empty ticket is not wrong yet: its checks speak once the trader starts typing.
  const pristine = ticket.size.trim() === '' && ticket.price.trim() === '';
  const err = (field: TicketField): string | undefined => (pristine ? undefined : check.errors[field]);
  const described = (field: TicketField): ReturnType<typeof invalidMarks> => invalidMarks(`ticket-${field}-error`, err(field));

  // One order at a time: state set now is seen only after the next render, so a double click on Confirm read
  // `sending` false twice and sent the order twice (the desk gives each send its own client order id).
  const inFlight = useRef(false);
  // `sentOn`: the environment the ticket (or the question) was on; the desk sends nothing if it is elsewhere by then.
  const send = async (request: OrderFields, sentOn: EnvironmentId, extra: { confirmed?: EnvironmentId; override_checks?: boolean }): Promise<void> => {
    if (inFlight.current) return;
    const view = currentView();
    const named = nameSend(request, useDesk.getState());
    inFlight.current = true;
    setSending(true);
    let answer: Awaited<ReturnType<typeof attemptOrRefusal<'orders.place'>>>;
    try {
      answer = await attemptOrRefusal('orders.place', { ...named.request, environment: sentOn, ...extra });
    } finally {
      inFlight.current = false;
      setSending(false);
    }
    // Failed, the question is answered all the same, and the notice says how. Left open, its Confirm kept the focus,
    // and the next Enter sent the order again: twice, where the answer was lost and the first had been placed.
    if ('refused' in answer) {
      setPending(undefined);
      if (view !== currentView()) return;
      setSent(undefined);
      const { ref, message } = answer.refused;
      setRefused({ text: refusedText(request, assetsOf(request.product_id, products).quote, answer.refused), ...(unknownOutcome(ref, message) !== undefined && { following: named }) });
      return;
    }
    const result = answer.value;
    if (result.status === 'held') {
      // Held by one environment, answered after a switch to another: that question is no longer the trader's.
      if (sentOn !== actingEnvironment(useDesk.getState())) return tellHeldAfterSwitch(sentOn);
      setPending({ request, issues: result.issues, environment: sentOn });
      return;
    }
    setPending(undefined);
    if (!showPlacedOrder(result.order, view, sentOn)) return;
    setSent(result.order);
    setRefused(undefined);
    edit({ clientOrderId: '' });
  };

  const held = pending !== undefined;
  useEffect(() => {
    if (held || returnFocus.current === null) return;
    if (returnFocus.current.isConnected) returnFocus.current.focus();
    returnFocus.current = null;
  }, [held]);

  const submit = (): void => {
    if (check.request === undefined || sending) return;
    if (document.activeElement instanceof HTMLElement && formRef.current?.contains(document.activeElement) === true) returnFocus.current = document.activeElement;
    if (confirmHere) setPending({ request: check.request, issues: [], environment });
    else void send(check.request, environment, {});
  };

  const onKey = (e: KeyboardEvent): void => {
    // Alt shortcuts by key position: on macOS Option+S types "ß", and e.key would never be "s".
    const code = e.code;
    if (e.altKey && code === 'KeyB') edit({ side: 'BUY' });
    else if (e.altKey && code === 'KeyS') edit({ side: 'SELL' });
    else if (e.altKey && /^Digit[1-4]$/.test(code)) applyPreset(PRESETS[Number(code.slice(5)) - 1] ?? 100);
    else if (e.ctrlKey && e.key === 'Enter') submit();
    else return;
    e.preventDefault();
  };

  function applyPreset(percent: number): void {
    // Size a market order from the far side's best price, as that is roughly where it fills.
    const book = useDesk.getState().books[productId];
    // A price box the ticket does not show (market, exact quote) holds no price the trader means.
    const shown = ticket.type === 'MARKET' || ticket.sizeMode === 'exact_quote' ? '' : ticket.price;
    const price = shown || (ticket.side === 'BUY' ? book?.asks[0]?.price : book?.bids[0]?.price) || '';
    const size = presetSize(percent, ticket.side, productId, price, ctx);
    if (size !== '') edit({ size, sizeMode: 'base' });
  }

  const product = products.find((p) => p.id === productId);
  const { base, quote } = assetsOf(productId, products);
  const noPrice = ticket.type === 'MARKET' || ticket.sizeMode === 'exact_quote';
  const expires = takesExpiry(ticket);
  // Only the ways the venue takes a size for the type are offered: an exact-quote (FOK) market order was offered, then refused.
  const modes = sizeModesFor(ticket.type);
  // A size mode the new type does not take goes back to the base asset, its amount with it: a quote amount read
  // as a base size is another order.
  const pickType = (type: TicketForm['type']): void =>
    edit(sizeModesFor(type).includes(ticket.sizeMode) ? { type } : { type, sizeMode: 'base', size: '', exactBase: '' });

  return (
    <Panel title="Order ticket">
      <form ref={formRef} className={`ticket ${ticket.side === 'BUY' ? 'buying' : 'selling'}`} onKeyDown={onKey} onSubmit={(e) => (e.preventDefault(), submit())} aria-label={`Order ticket ${productId}`}>
        <div className="side-pick" role="group" aria-label="Side">
          <button type="button" className={ticket.side === 'BUY' ? 'on buy' : ''} aria-pressed={ticket.side === 'BUY'} aria-label="Choose buy side" onClick={() => edit({ side: 'BUY' })} title="Alt+B">Buy</button>
          <button type="button" className={ticket.side === 'SELL' ? 'on sell' : ''} aria-pressed={ticket.side === 'SELL'} aria-label="Choose sell side" onClick={() => edit({ side: 'SELL' })} title="Alt+S">Sell</button>
        </div>
        <label>Type
          <select aria-label="Type" value={ticket.type} onChange={(e) => pickType(e.target.value as TicketForm['type'])} {...described('type')}>
            {ORDER_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <FieldError id="ticket-type-error" text={err('type')} />
        <label>Price
          <input inputMode="decimal" autoComplete="off" disabled={noPrice} placeholder={product?.price_increment ? `step ${product.price_increment}` : ''} value={noPrice ? '' : ticket.price} onChange={(e) => edit({ price: e.target.value, pricedFor: productId, priceTyped: true })} {...described('price')} />
        </label>
        <FieldError id="ticket-price-error" text={err('price')} />
        <label>Size
          <input inputMode="decimal" autoComplete="off" placeholder={ticket.sizeMode === 'base' && product ? `step ${product.size_increment}` : quote} value={ticket.size} onChange={(e) => edit({ size: e.target.value })} {...described('size')} />
        </label>
        <label>Size in
          <select aria-label="Size in" value={ticket.sizeMode} onChange={(e) => edit({ sizeMode: e.target.value as TicketForm['sizeMode'] })}>
            {modes.includes('base') && <option value="base">{base}</option>}
            {modes.includes('quote') && <option value="quote">{quote} (market)</option>}
            {modes.includes('exact_quote') && <option value="exact_quote">{quote} exact (FOK)</option>}
          </select>
        </label>
        {ticket.sizeMode === 'exact_quote' && (
          <label>{base} for it
            <input inputMode="decimal" autoComplete="off" aria-label={`${base} for the exact amount`} placeholder={product ? `step ${product.size_increment}` : base} value={ticket.exactBase} onChange={(e) => edit({ exactBase: e.target.value })} />
          </label>
        )}
        <FieldError id="ticket-size-error" text={err('size')} />
        <div className="presets" role="group" aria-label="Size presets">
          {PRESETS.map((pct, i) => (
            <button key={pct} type="button" title={`Alt+${i + 1}`} onClick={() => applyPreset(pct)}>{pct}%</button>
          ))}
        </div>
        <label>Time in force
          <select aria-label="Time in force" value={ticket.timeInForce} onChange={(e) => edit({ timeInForce: e.target.value as TicketForm['timeInForce'] })} {...described('timeInForce')}>
            <option value="">Default</option>
            {TIMES_IN_FORCE.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <FieldError id="ticket-timeInForce-error" text={err('timeInForce')} />
        <label className="check">
          <input type="checkbox" checked={ticket.postOnly} onChange={(e) => edit({ postOnly: e.target.checked })} {...described('postOnly')} /> Post-only
        </label>
        <FieldError id="ticket-postOnly-error" text={err('postOnly')} />
        <label>Self-trade prevention
          <select aria-label="Self-trade prevention" value={ticket.stp} onChange={(e) => edit({ stp: e.target.value as TicketForm['stp'] })}>
            <option value="">Default</option>
            {REST_STP_MODES.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        <label>Client order id
          <input autoComplete="off" value={ticket.clientOrderId} onChange={(e) => edit({ clientOrderId: e.target.value })} {...described('clientOrderId')} />
        </label>
        <FieldError id="ticket-clientOrderId-error" text={err('clientOrderId')} />
        {ticket.type === 'STOP' && (
          <>
            <label>Stop type
              <select aria-label="Stop type" value={ticket.stopType} onChange={(e) => edit({ stopType: e.target.value as TicketForm['stopType'] })}>
                {STOP_TYPES.filter((t) => t !== 'STOP_NONE').map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            </label>
            <label>Stop trigger
              <input inputMode="decimal" autoComplete="off" value={ticket.stopTrigger} onChange={(e) => edit({ stopTrigger: e.target.value })} {...described('stopTrigger')} />
            </label>
            <FieldError id="ticket-stopTrigger-error" text={err('stopTrigger') ?? err('stopType')} />
          </>
        )}
        {expires && (
          <>
            <label>Expires at
              <input type="datetime-local" value={ticket.expiresAt} onChange={(e) => edit({ expiresAt: e.target.value })} {...described('expiresAt')} />
            </label>
            <FieldError id="ticket-expiresAt-error" text={err('expiresAt')} />
          </>
        )}
        <label>Scheduled at
          <input type="datetime-local" value={ticket.scheduledAt} onChange={(e) => edit({ scheduledAt: e.target.value })} {...described('scheduledAt')} />
        </label>
        <FieldError id="ticket-scheduledAt-error" text={err('scheduledAt')} />
        {check.estimate !== undefined && (
          <dl className="estimate" aria-label="Estimate">
            <dt>Notional{check.estimate.fromBook ? ' (from book)' : ''}</dt>
            <dd>{formatDecimal(check.estimate.notional)} {check.estimate.quoteAsset}</dd>
            <dt title={least === undefined ? undefined : FEE_RANGE_WHY}>Fee</dt>
            <dd>{feesKnown ? `${span(least?.fee, check.estimate.fee)} ${check.estimate.quoteAsset}` : FEE_NOT_KNOWN}</dd>
            {check.estimate.kept !== undefined && (
              <>
                <dt title="What the fills and their fees leave of the exact amount: the venue charges it too, into its fee account">Kept by the venue beyond fees</dt>
                <dd>{feesKnown ? `${span(check.estimate.kept, least?.kept)} ${check.estimate.quoteAsset}` : FEE_NOT_KNOWN}</dd>
              </>
            )}
            <dt>{ticket.side === 'BUY' ? 'Cost' : 'Proceeds'}</dt>
            <dd>
              {feesKnown || ticket.sizeMode !== 'base'
                ? // An amount in quote is what moves, fees included, whatever they come to.
                  `${ticket.side === 'BUY' ? span(least?.total, check.estimate.total) : span(check.estimate.total, least?.total)} ${check.estimate.quoteAsset}`
                : `${formatDecimal(check.estimate.notional)} ${check.estimate.quoteAsset} ${ticket.side === 'BUY' ? 'plus' : 'less'} the fee`}
            </dd>
          </dl>
        )}
        {stale !== undefined && !pristine && (
          <p className="note" role="status" aria-label="Ticket figures stale">
            {stale}:{' '}
            {bookNotUpdated(stale)
              ? 'the book these figures and checks use is the last one heard (a gap in its stream, or its polls fail), and may have moved since.'
              : 'the book and balances these figures and checks use are the last ones heard, and may have moved since.'}
          </p>
        )}
        {check.estimate?.shortfall !== undefined && !pristine && <p className="field-error" role="status" aria-label="Book shortfall">{check.estimate.shortfall}</p>}
        <FieldError id="ticket-balance-error" text={err('balance')} />
        <button type="submit" className={`submit ${ticket.side === 'BUY' ? 'buy' : 'sell'}`} disabled={check.request === undefined || sending} title="Enter or Ctrl+Enter">
          {submitText(ticket, quote)}
        </button>
        {refused !== undefined ? (
          <p className="field-error" aria-live="polite" aria-label="Last order">{refused.text}</p>
        ) : (
          last !== undefined && (
            <p className="muted" aria-live="polite" aria-label="Last order">
              {lastOrderText(last, assetsOf(last.product_id, products).quote, statusOf(last))}
            </p>
          )
        )}
      </form>
      {asking !== undefined && (
        // A trader who sent with Enter confirms with Enter, or goes back with Escape, without leaving the keyboard:
        // the cursor stayed in the ticket, where Enter only asked again and Escape did nothing. An order a check
        // held starts on Back, so that a second Enter never overrides the check.
        <div
          className="confirm"
          role="dialog"
          aria-label="Confirm order"
          // A held Enter sends the ticket, and its repeats would then press the Confirm that takes the focus: a
          // confirmation is a second press, never the first one held down.
          onKeyDownCapture={ignoreHeldKeys}
          onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), setPending(undefined))}
        >
          <p className={isProduction(asking.environment) ? 'production-text' : undefined} aria-label="Confirming on">{confirmationHeading(asking.environment)}</p>
          <p>{describeOrder(asking.request, base, quote)}</p>
          {asking.issues.map((issue) => <p key={issue.check} className="field-error">{issue.message}</p>)}
          {asking.issues.some((issue) => issue.check !== 'confirmation') && <p className="muted">The limits are set under Environments, Pre-trade limits.</p>}
          <button type="button" autoFocus={asking.issues.length === 0} disabled={sending} onClick={() => void send(asking.request, asking.environment, { confirmed: asking.environment, ...(asking.issues.length > 0 && { override_checks: true }) })}>
            {asking.issues.length > 0 ? 'Send anyway' : 'Confirm'}
          </button>
          <button type="button" autoFocus={asking.issues.length > 0} onClick={() => setPending(undefined)}>Back</button>
        </div>
      )}
    </Panel>
  );
}
