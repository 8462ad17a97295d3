// What the renderer's unit tests share: an order record, and zustand made to draw a store's current state on a server.
import type { Session } from '../../../src-shared/ipc/contract';
import type { Order } from '../../../src-shared/protocol/records';
import type * as Zustand from 'zustand';
import type { StateCreator } from 'zustand';
import { vi } from 'vitest';

/** A resting limit buy of 0.1 BTC-VND as the venue records it; `patch` is what a test is about. */
export function restingOrder(id: string, patch: Partial<Order> = {}): Order {
  return {
    order_id: id, client_order_id: `c-${id}`, user_id: 'u', status: 'ACTIVE', done_reason: '', product_id: 'BTC-VND', side: 'BUY',
    type: 'LIMIT', time_in_force: 'GTC', post_only: 'false', stp: 'CANCEL_TAKER', limit_price: '2400000000', base_size: '0.1',
    quote_size: '0', exact_quote_size: '0', average_fill_price: '0', filled_base_size: '0', filled_quote_size: '0',
    maker_fee_rate: '0.001', taker_fee_rate: '0.002', fee_asset_id: 'VND', created_at: '1', updated_at: '1',
    cancel_requested_at: '0', expired_at: '0', scheduled_at: '0', trades: [], ...patch,
  };
}

/**
 * zustand whose hook reads a store's current state when drawn with react-dom/server (it reads the initial one
 * there), as a window does: `vi.mock('zustand', async (original) => (await import('./fixtures')).serverDrawnZustand(await original()))`.
 */
export async function serverDrawnZustand(zustand: typeof Zustand): Promise<typeof Zustand> {
  const react = await import('react');
  const bind = (init: StateCreator<object>): unknown => {
    const api = zustand.createStore(init);
    const read = (selector: (s: object) => unknown = (s) => s): unknown =>
      react.useSyncExternalStore(api.subscribe, () => selector(api.getState()), () => selector(api.getState()));
    return Object.assign(read, api);
  };
  return { ...zustand, create: ((init?: StateCreator<object>) => (init === undefined ? bind : bind(init))) as typeof zustand.create };
}

class ReadOn {
  constructor(
    readonly session: Session,
    readonly value: unknown,
  ) {}
}

/** A scripted answer to a read of the account, answered on `session` (the Result's session the desk names). */
export function readOn(session: Session, value: unknown): unknown {
  return new ReadOn(session, value);
}

class RefusedOn {
  constructor(
    readonly session: Session,
    readonly ref: string,
    readonly description: string,
  ) {}
}

/** A scripted refusal of a read of the account, tried on `session` (the Result's session the desk names). */
export function refusedOn(session: Session, ref: string, description: string): unknown {
  return new RefusedOn(session, ref, description);
}

/** The refusal a scripted bridge gives a method its test did not script. */
const UNSCRIPTED = { ok: false, error: { ref: 'E0902_ServiceUnavailable', message: 'E0902_ServiceUnavailable: not scripted' } } as const;

/**
 * A window whose window.nova (what the real bridge module calls) answers each method with `answers[method]`, and
 * refuses the others as the desk would refuse an unreachable call. Undo with vi.unstubAllGlobals().
 */
export function scriptedWindow(answers: Record<string, (request: any) => unknown>): void {
  const nova = new Proxy({}, {
    get: (_target, method: string) => async (request: unknown) => {
      const answer = answers[method];
      if (answer === undefined) return UNSCRIPTED;
      const value = await answer(request);
      if (value instanceof RefusedOn) return { ok: false, error: { ref: value.ref, message: `${value.ref}: ${value.description}` }, session: value.session };
      return value instanceof ReadOn ? { ok: true, value: value.value, session: value.session } : { ok: true, value };
    },
  });
  vi.stubGlobal('window', { nova, location: { protocol: 'http:', host: 'test' } });
}

/** What startFeed subscribes through, keeping each event's handler for the test to tell the event itself. */
export function toldEvents(): { subscribe: never; tell: (name: string, payload: unknown) => void } {
  const handlers: Record<string, (payload: unknown) => void> = {};
  const subscribe = (name: string, handler: (payload: unknown) => void): (() => void) => {
    handlers[name] = handler;
    return () => undefined;
  };
  return { subscribe: subscribe as never, tell: (name, payload) => handlers[name]?.(payload) };
}
