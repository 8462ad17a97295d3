/**
 * What the windows do to the desk: each call goes through the bridge, and a refusal becomes a notice with the
 * catalogue's title, message and suggested action, so no feature has to catch anything itself.
 */
import { MAX_ARCHIVED_LIMIT, MAX_IDS_PER_BULK_CANCEL } from '../../src-shared/protocol/queries';
import type { EnvironmentId, MethodName, Request, Response, Session, SessionRead } from '../../src-shared/ipc/contract';
import { ENVIRONMENT_NAMES, environmentLabel } from '../../src-shared/ipc/environment-names';
import type { Order } from '../../src-shared/protocol/records';
import { BridgeError, call, callOnSession, refusalOf } from '../bridge';
import { actingEnvironment, isProduction } from './connection-view';
import { useDesk, type DeskState } from './desk-store';
import { errorNotice } from './notices-slice';
import { beginOrdersRead, endOrdersRead } from './orders-slice';

/**
 * Which venue and account the store shows: it moves on at every switch of environment or key (feed.ts). An
 * answer asked for before a switch belongs to the previous venue and is dropped, not shown as this one's.
 */
let viewEpoch = 0;
export function currentView(): number {
  return viewEpoch;
}
export function nextView(): void {
  viewEpoch += 1;
}

/** The answer, or undefined after the failure has been shown to the trader. */
export function attempt<M extends MethodName>(method: M, request: Request<M>): Promise<Response<M> | undefined> {
  return shownIfRefused(method, call(method, request));
}

/**
 * As attempt, for a caller that must also say where it acts that the call was refused, and with which reference
 * (the ticket's last order line): the refusal shown as a notice all the same.
 */
export async function attemptOrRefusal<M extends MethodName>(method: M, request: Request<M>): Promise<{ value: Response<M> } | { refused: BridgeError }> {
  try {
    return { value: await call(method, request) };
  } catch (err) {
    return { refused: shown(err, method) };
  }
}

function shown(err: unknown, method: MethodName): BridgeError {
  const refused = refusalOf(err);
  useDesk.getState().notify(errorNotice(refused.ref, refused.message, method));
  return refused;
}

async function shownIfRefused<T>(method: MethodName, answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (err) {
    shown(err, method);
    return undefined;
  }
}

/** What a read of the account's own data gives when it was answered on another session than the window shows. */
export const OTHER_SESSION = Symbol('answered on another session');
let otherSessionAnswers = 0;

/** How many reads have been answered on another session than the window showed, so far: a switch not heard of. */
export function otherSessionAnswersSoFar(): number {
  return otherSessionAnswers;
}

/** A read answered on the session the window shows: its environment, and its key where both name one. */
function sameSession(read: Session, s: DeskState): boolean {
  if (read.environment !== actingEnvironment(s)) return false;
  return read.apiKey === undefined || s.connection === undefined || read.apiKey === s.connection.apiKey;
}

/**
 * A read of the account's own data (orders, fills, balances), or OTHER_SESSION when the desk read or refused it on
 * another session than the window shows as the answer arrives: the desk switched (environment, or key on one) and the
 * window has not heard yet. Kept, the next account's data would be shown under this one's name, and its fills
 * alerted as fills just made, until the status poll or connection.changed told the window. Those read it again.
 */
export async function readOfShownSession<M extends SessionRead>(method: M, request: Request<M>): Promise<Response<M> | typeof OTHER_SESSION> {
  let answer: { value: Response<M>; session?: Session };
  try {
    answer = await callOnSession(method, request);
  } catch (err) {
    // A refusal met on the next session ("no API key for Development") is not this one's to show under its name.
    if (err instanceof BridgeError && !ofShownSession(err.session)) return OTHER_SESSION;
    throw err;
  }
  return ofShownSession(answer.session) ? answer.value : OTHER_SESSION;
}

/** Whether an answer's session is the one the window shows, each one that is not counted (otherSessionAnswersSoFar). */
function ofShownSession(session: Session | undefined): boolean {
  // The desk names the session of every such read; an answer naming none says nothing against the window's.
  if (session === undefined || sameSession(session, useDesk.getState())) return true;
  otherSessionAnswers += 1;
  return false;
}

/**
 * A read of the account's own data for a panel's own use (a search): its answer, or its refusal (shown as a notice
 * too), or undefined when answered on another session than the window shows, which is another account's.
 */
export async function attemptOnShownSession<M extends SessionRead>(method: M, request: Request<M>): Promise<{ value: Response<M> } | { refused: BridgeError } | undefined> {
  try {
    const answer = await readOfShownSession(method, request);
    return answer === OTHER_SESSION ? undefined : { value: answer };
  } catch (err) {
    return { refused: shown(err, method) };
  }
}

export async function refreshOrders(): Promise<void> {
  const view = currentView();
  const read = beginOrdersRead();
  try {
    // A failure is also said on its blotter until a read answers: an empty one read as "nothing yet", and a full
    // one as current, when the desk could not read them.
    let openProblem: string | undefined;
    let historyProblem: string | undefined;
    const [open, history] = await Promise.all([
      readOfShownSession('orders.active', {}).catch((err: unknown) => ((openProblem = shown(err, 'orders.active').message), undefined)),
      readOfShownSession('orders.history', { limit: MAX_ARCHIVED_LIMIT, sort: '-updated_at' }).catch((err: unknown) => ((historyProblem = shown(err, 'orders.history').message), undefined)),
    ]);
    // Another session's orders are not this account's: the read that the switch brings shows them.
    if (view !== currentView() || open === OTHER_SESSION || history === OTHER_SESSION) return;
    const s = useDesk.getState();
    s.setOrdersProblems({ open: openProblem, history: historyProblem });
    // The read holds orders of every status; whether it was cut is told by its length, not by the done ones kept.
    // The history goes first: an order the active read still held may be done in it, served a moment later.
    if (history !== undefined) s.setHistory(history.filter((o) => o.status === 'DONE'), history.length >= MAX_ARCHIVED_LIMIT);
    // Unread, the history cannot tell old refusals from new ones; staying silent until a read that may not come
    // would hide new ones, the worse of the two.
    else useDesk.setState({ historyLoaded: true });
    if (open !== undefined) s.setOpenOrders(open, read);
  } finally {
    endOrdersRead(read);
  }
}

export async function cancelOrders(requested: readonly string[]): Promise<void> {
  // An order whose cancel is already on its way is not cancelled twice: the second only drew a refusal.
  const orderIds = requested.filter((id) => useDesk.getState().cancelling[id] !== true);
  if (orderIds.length === 0) return;
  const view = currentView();
  // Named in the call, as cancel all is: a click made just before a switch must not act on the next environment.
  // Before the window has heard of one it names Local, which the desk refuses unless it is on Local: safe either way.
  const environment = actingEnvironment(useDesk.getState());
  useDesk.getState().cancelSent(orderIds);
  try {
    await cancelOnVenue(orderIds, view, environment);
  } finally {
    useDesk.getState().cancelAnswered(orderIds);
  }
}

async function cancelOnVenue(orderIds: readonly string[], view: number, environment: EnvironmentId): Promise<void> {
  if (orderIds.length === 1) {
    const order = await attempt('orders.cancel', { order_id: orderIds[0] ?? '', environment });
    if (order !== undefined && view === currentView()) useDesk.getState().applyOrders([order]);
    return;
  }
  const named = new Map(orderIds.map((id) => [id, useDesk.getState().openOrders[id]?.client_order_id || id]));
  const notOpen: string[] = [];
  for (let i = 0; i < orderIds.length; i += MAX_IDS_PER_BULK_CANCEL) {
    const answer = await attempt('orders.cancelBulk', { order_ids: orderIds.slice(i, i + MAX_IDS_PER_BULK_CANCEL), environment });
    if (answer !== undefined) notOpen.push(...answer.notOpened);
  }
  // An order the venue no longer had open filled, expired or was canceled before the cancel reached it: the trader
  // asked for it to be gone and must hear that it went another way, not find it in the history later.
  if (notOpen.length > 0 && view === currentView()) {
    useDesk.getState().notify({
      kind: 'error',
      ref: '',
      title: 'Not canceled: no longer open',
      detail: `${notOpen.length} of ${orderIds.length} selected orders had already ended (filled, expired or canceled) when the cancel arrived: ${notOpen.map((id) => named.get(id) ?? id).join(', ')}`,
      explanation: '',
      action: 'See the order history and fills for how each ended.',
    });
  }
  await refreshOrders();
}

/**
 * An order this window placed, into its store, unless the window moved to another venue or account while it was
 * on its way: it is the previous one's order, and shown here it would stand in this one's open orders. `sentOn`:
 * the environment the ticket sent it on, named in the notice that tells the trader of an order not shown. Returns
 * whether it was shown.
 */
export function showPlacedOrder(order: Order, sentInView: number, sentOn?: EnvironmentId): boolean {
  if (sentInView === currentView()) {
    useDesk.getState().applyOrders([order], true);
    return true;
  }
  // Not shown here, but the trader must hear of it: a Buy that seemed to do nothing may be working on a venue the
  // window no longer shows. Which one is not certain: a switch the window had not yet heard of when it sent the
  // order would have taken it to the new environment, so the notice names the one it was sent on and says so.
  if (sentOn !== undefined) {
    const size = order.base_size !== '0' ? `${order.base_size} ${order.product_id}` : `${order.quote_size} quote of ${order.product_id}`;
    const state = order.status === 'DONE' ? `done (${order.done_reason})` : 'working';
    useDesk.getState().notify({
      kind: 'error',
      ref: '',
      title: 'Placed as the desk switched',
      detail: `${order.side} ${size} (${order.client_order_id || order.order_id}), sent on ${environmentLabel(sentOn)}, was placed as the desk switched environment: it is ${state} on the venue that took it.`,
      explanation: '',
      action: `Look for it in the open orders here and on ${ENVIRONMENT_NAMES[sentOn]}.`,
    });
  }
  return false;
}

/** What the trader is told of an order the desk held for a question on one environment, answered after a switch. */
export function tellHeldAfterSwitch(sentOn: EnvironmentId): void {
  useDesk.getState().notify({
    kind: 'error',
    ref: '',
    title: 'Order not sent',
    detail: `The desk held the order, sent on ${environmentLabel(sentOn)}, for a question, and has switched environment since: it was not sent.`,
    explanation: '',
    action: 'Check the ticket and send it again on the environment shown.',
  });
}

/** What the trader is asked before every open order (of one product) is cancelled on Production. */
export function productionCancelAllQuestion(productId: string | undefined, openOrders: number): string {
  const which = productId === undefined ? 'every open order' : `every open ${productId} order`;
  return `${environmentLabel('production')}: cancel ${which} on Production (${openOrders} shown open)?`;
}

/**
 * Cancels all on the environment this window shows, named in the call: a click made just before a switch must not
 * cancel the next environment's orders. On Production the trader is asked first, as the desk's menu asks.
 */
export async function cancelAll(productId?: string): Promise<void> {
  const s = useDesk.getState();
  // The one the window shows, red frame and all: before the first connection status that is the environments
  // list's, and a Production shown there was cancelled on without the question.
  const environment = actingEnvironment(s);
  if (isProduction(environment)) {
    const open = Object.values(s.openOrders).filter((o) => productId === undefined || o.product_id === productId).length;
    if (!window.confirm(productionCancelAllQuestion(productId, open))) return;
  }
  await attempt('orders.cancelAll', { ...(productId !== undefined && { product_id: productId }), environment });
  await refreshOrders();
}
