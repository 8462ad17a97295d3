/**
 * Popped-out panels: a panel opens in its own window through window.open, in browser mode and in Electron alike
 * (the main process lets our own pages open as windows with the app's secure options and its preload, so the
 * bridge is there), with its own store fed by the same bridge, so it stays live. The windows of one desk talk over
 * a BroadcastChannel: a popped-out panel asks to go back into the workspace, or links itself to a product, and
 * the workspace tells every panel that follows the desk product when it changes. What the trader typed in a panel
 * goes with it both ways: an Order history's filters, an order ticket's form (in the address out, the dock message
 * back), and a ladder click edits the ticket in whichever window shows it.
 */
import type { PanelKind } from '../../stores/layout-slice';
import { historySearchOf, readHistorySearch, type HistorySearch } from '../blotters/history-query';
import { readTicketForm, type TicketForm } from '../ticket/ticket-check';

const CHANNEL = 'nova-desk-workspace';

export type WorkspaceMessage =
  /**
   * `history`: an Order history panel's filters, `ticket`: an order ticket's form, as the trader left them in its
   * window (unknown until read).
   */
  | { type: 'dock'; id: string; history?: unknown; ticket?: unknown }
  | { type: 'link'; id: string; productId: string | undefined }
  /** The workspace's desk product, which a popped-out panel that follows it shows. */
  | { type: 'desk-product'; productId: string }
  /**
   * A workspace (re)loaded asks which panels are out in windows of their own, and each answers 'popped'; a
   * popped-out window also says so when it (re)loads, and is told the desk product.
   */
  | { type: 'roll-call' }
  | { type: 'popped'; id: string }
  /** An edit of the order ticket, wherever it is shown: a price clicked on a ladder in another window. */
  | { type: 'ticket'; patch: Partial<TicketForm> };

export interface PopOutTarget {
  id: string;
  kind: PanelKind;
  productId?: string;
  /** The desk product when it popped out: the saved layout may not hold it yet (it is saved after a pause). */
  deskProductId?: string;
  /** An Order history panel's filters, and whether it showed a search by them, when it popped out. */
  history?: HistorySearch;
  /** An order ticket's form when it popped out. */
  ticket?: TicketForm;
}

/** What a popped-out panel's address carries besides the panel, each in the parameter named here. */
type Carried = Pick<PopOutTarget, 'productId' | 'deskProductId' | 'history' | 'ticket'>;
const PARAMS: { readonly [K in keyof Carried]-?: string } = { productId: 'product', deskProductId: 'desk', history: 'history', ticket: 'ticket' };

/**
 * Writes one into an address's parameters (undefined: takes it out): a product id as it is, a form as JSON. Both the
 * address a panel pops out at and the one it keeps up to date after are written here, so a reload reads either.
 */
function carry<K extends keyof Carried>(params: URLSearchParams, key: K, value: Carried[K]): void {
  if (value === undefined) params.delete(PARAMS[key]);
  else params.set(PARAMS[key], typeof value === 'string' ? value : JSON.stringify(value));
}

/** What this window shows when it is a popped-out panel; undefined for the workspace. */
export function popOutTarget(search: string): PopOutTarget | undefined {
  const params = new URLSearchParams(search);
  const id = params.get('panel');
  const kind = params.get('kind') as PanelKind | null;
  if (id === null || kind === null) return undefined;
  const productId = params.get(PARAMS.productId);
  const deskProductId = params.get(PARAMS.deskProductId);
  const history = readHistorySearch(parseJson(params.get(PARAMS.history)));
  const ticket = readTicketForm(parseJson(params.get(PARAMS.ticket)));
  return {
    id, kind, ...(productId !== null && { productId }), ...(deskProductId !== null && { deskProductId }),
    ...(history !== undefined && { history }), ...(ticket !== undefined && { ticket }),
  };
}

/**
 * Whether this window is a popped-out panel: its address names one. The forms it carries (a ticket, a history
 * search) are not read: a question asked on every fill only needs the panel's name.
 */
export function isPopOut(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('panel') && params.has('kind');
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function popOutUrl(target: PopOutTarget): string {
  const params = new URLSearchParams({ panel: target.id, kind: target.kind });
  for (const key of Object.keys(PARAMS) as (keyof Carried)[]) carry(params, key, target[key]);
  return `${location.pathname}?${params.toString()}`;
}

/**
 * Keeps what the trader changes in a popped-out window (its ticket's form, its history search, its linked product)
 * in the window's address: a reload (Ctrl+R) opens the window again from its address, which otherwise still held
 * the form as it popped out, so the order the trader had written since came back as the one from before.
 */
export function keepInAddress<K extends keyof Carried>(key: K, value: Carried[K]): void {
  const url = new URL(location.href);
  carry(url.searchParams, key, value);
  if (url.href === location.href) return;
  try {
    history.replaceState(history.state, '', url);
  } catch {
    // A browser that limits how often an address is rewritten keeps the last one written: a reload then restores
    // a form a keystroke or two older, and nothing else is lost.
  }
}

export function openPopOut(target: PopOutTarget): Window | null {
  return window.open(popOutUrl(target), `nova-${target.id}`, 'popup,width=720,height=640');
}

/** What a popped-out panel tells the workspace as it goes back: its id, an Order history's filters, a ticket's form. */
export function dockMessage(id: string, ticket?: TicketForm): WorkspaceMessage {
  const history = historySearchOf(id);
  return { type: 'dock', id, ...(history !== undefined && { history }), ...(ticket !== undefined && { ticket }) };
}

export function workspaceChannel(onMessage: (message: WorkspaceMessage) => void): { post: (m: WorkspaceMessage) => void; close: () => void } {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<WorkspaceMessage>) => onMessage(event.data);
  return { post: (m) => channel.postMessage(m), close: () => channel.close() };
}

/**
 * Edits the order ticket in the other windows of the desk: the workspace's, or the one popped out into a window of
 * its own, which a ladder click in the workspace otherwise never reached.
 */
export function editTicketElsewhere(patch: Partial<TicketForm>): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ type: 'ticket', patch } satisfies WorkspaceMessage);
  channel.close();
}
