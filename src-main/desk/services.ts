// What the windows may call, one function per contract method, implemented by the Desk under plain Node so it
// is tested without Electron (ARCHITECTURE rule 2).
import type { MethodName, ParsedRequest, Response, Session, SessionRead } from '../../src-shared/ipc/contract';
import type { Desk } from './desk';

/**
 * Which window called: one desk serves several (pop-outs), and what a window watches must outlive another
 * window's unwatch. The transports name it (a WebContents id, a browser page's connection).
 */
export interface BridgeCaller {
  readonly window: string;
}

/** What a service answers: a session read's answer with the session it was read on (dispatch puts it in the Result). */
export type ServiceAnswer<M extends MethodName> = M extends SessionRead ? { session: Session; value: Response<M> } : Response<M>;

export type DeskServices = { [M in MethodName]: (request: ParsedRequest<M>, caller: BridgeCaller) => Promise<ServiceAnswer<M>> | ServiceAnswer<M> };

export function deskServices(desk: Desk): DeskServices {
  return {
    'venue.status': () => desk.venueStatus(),
    'environments.list': () => desk.environments(),
    'environments.configure': (r) => desk.configureEnvironment(r),
    'environments.switch': (r) => desk.switchEnvironment(r.id),
    'connection.status': () => desk.status(),
    'orders.place': (r) => desk.placeOrder(r),
    'orders.cancel': (r) => desk.cancelOrder(r),
    'orders.cancelBulk': (r) => desk.cancelBulk(r),
    'orders.cancelAll': (r) => desk.cancelAll(r.product_id, r.environment),
    'orders.active': (r) => desk.onSession(() => desk.activeOrders(r.product_id)),
    'orders.history': (r) => desk.onSession(() => desk.history(r)),
    'orders.fills': (r) => desk.onSession(() => desk.fills(r.product_id, r.limit)),
    'market.products': () => desk.listProducts(),
    'market.watch': (r, caller) => desk.watch(r.product_id, caller.window),
    'market.unwatch': (r, caller) => desk.unwatch(r.product_id, caller.window),
    'market.book': (r) => desk.book(r.product_id, r.depth),
    'market.trades': (r) => desk.trades(r.product_id, r.limit),
    'market.candles': (r) => desk.candlesOf(r.product_id),
    'account.get': () => desk.onSession(() => desk.account()),
    'keys.list': (r) => desk.listKeys(r.environment),
    'keys.create': (r) => desk.createKey(r),
    'keys.import': (r) => desk.importKey(r),
    'keys.use': (r) => desk.useKey(r.environment, r.api_key),
    'keys.forget': (r) => desk.forgetKey(r.environment, r.api_key),
    'keys.revoke': (r) => desk.revokeKey(r.environment, r.api_key),
    'errors.catalogue': (r) => [...desk.errorCatalogue(r)],
    'settings.get': () => desk.settings(),
    'settings.update': (r) => desk.updateSettings(r),
    'layouts.list': () => desk.layouts(),
    'layouts.save': (r) => desk.saveLayout(r.name, r.layout),
    'layouts.load': (r) => desk.loadLayout(r.name),
    'layouts.delete': (r) => desk.deleteLayout(r.name),
  };
}
