// A panel in its own window: linked to a product or following the desk's, and able to go back into the workspace.
import { useEffect, useRef, useState } from 'react';
import { useActingEnvironment } from '../../stores/connection-view';
import { useDesk } from '../../stores/desk-store';
import { followDeskProduct } from '../../stores/feed';
import { PANEL_TITLES } from '../../stores/layout-slice';
import { NoticesBar } from '../errors/NoticesBar';
import { EnvironmentBadge } from './DeskBar';
import type { TicketForm } from '../ticket/ticket-check';
import { PanelView } from './PanelView';
import { useContentRoom } from './content-room';
import { ProductPicker } from './ProductPicker';
import { watchHistorySearches } from '../blotters/history-query';
import { dockMessage, keepInAddress, workspaceChannel, type PopOutTarget, type WorkspaceMessage } from './pop-out';

/** The window's toolbar, the panel's frame and header, until the room left under them is measured. */
const GUESSED_FRAME_PX = 140;

/** The foot of the window, less the panel's margin, padding and border under its content, where the page is not scrolled. */
function windowFoot(panel: HTMLElement): number {
  const style = getComputedStyle(panel);
  return window.innerHeight - window.scrollY - parseFloat(style.marginBottom) - parseFloat(style.paddingBottom) - parseFloat(style.borderBottomWidth);
}

/** The form of this window's order ticket, which goes back to the workspace with it. */
function ticketOf(target: PopOutTarget): TicketForm | undefined {
  return target.kind === 'ticket' ? useDesk.getState().ticket : undefined;
}

export function PoppedOutPanel(props: { target: PopOutTarget }): React.JSX.Element {
  const { target } = props;
  const deskProduct = useDesk((s) => s.layout.productId);
  const [linked, setLinked] = useState(target.productId);
  const root = useRef<HTMLDivElement>(null);
  // Opened by the effect that closes it: one made once (useMemo) and closed by a cleanup stayed closed when React
  // ran the effect again (development's StrictMode does at once, so under `npm start` the window threw on its
  // first post and never answered the workspace again).
  const channelRef = useRef<ReturnType<typeof workspaceChannel> | undefined>(undefined);
  const post = (message: WorkspaceMessage): void => channelRef.current?.post(message);
  const productId = linked ?? deskProduct;

  useEffect(() => {
    const channel = workspaceChannel((m) => {
      if (m.type === 'roll-call') channel.post({ type: 'popped', id: target.id });
      // Followed here too when this panel follows the desk product.
      if (m.type === 'desk-product') followDeskProduct(m.productId);
      // A price clicked on a ladder in another window goes to this ticket.
      if (m.type === 'ticket' && target.kind === 'ticket') useDesk.getState().editTicket(m.patch);
    });
    channelRef.current = channel;
    // Closing the window any way at all puts the panel back.
    const dock = (): void => channel.post(dockMessage(target.id, ticketOf(target)));
    window.addEventListener('pagehide', dock);
    // Also after a reload of this window, whose pagehide docked the panel: it is out again, here.
    channel.post({ type: 'popped', id: target.id });
    return () => {
      window.removeEventListener('pagehide', dock);
      channel.close();
      if (channelRef.current === channel) channelRef.current = undefined;
    };
  }, [target]);

  useEffect(() => {
    // What the trader changes here goes into the address, which a reload opens the window from.
    const stopTicket = target.kind !== 'ticket' ? undefined : useDesk.subscribe((s, prev) => s.ticket !== prev.ticket && keepInAddress('ticket', s.ticket));
    const stopHistory = target.kind !== 'history' ? undefined : watchHistorySearches((id, search) => id === target.id && keepInAddress('history', search));
    return () => (stopTicket?.(), stopHistory?.());
  }, [target]);

  // The window's own toolbar, the panel's frame and its header (wrapped onto more lines in a narrow window) are
  // measured: a guess at them left a popped-out ladder, tape or blotter some 60 px short of its window's foot.
  const room = useContentRoom(target.kind, root, windowFoot);

  const { name: environmentName } = useActingEnvironment();
  useEffect(() => {
    // The title names the environment too: it is what the taskbar and the window switcher show of this window.
    document.title = `${PANEL_TITLES[target.kind]} · ${environmentName} · Nova Desk`;
  }, [target, environmentName]);

  useEffect(() => {
    // This window's store loads the desk product and panel links; keep the link in both.
    const s = useDesk.getState();
    s.setLayout({ ...s.layout, panels: [{ id: target.id, kind: target.kind, width: 1, height: 1, ...(linked !== undefined && { productId: linked }) }] });
  }, [linked, target]);

  return (
    <div className="desk popped" ref={root}>
      <div className="slot-tools" role="toolbar" aria-label="Window">
        <EnvironmentBadge />
        <ProductPicker label="Linked product" value={linked ?? ''} followLabel="Desk product" onChange={(id) => {
          const next = id === '' ? undefined : id;
          setLinked(next);
          keepInAddress('productId', next);
          post({ type: 'link', id: target.id, productId: next });
        }} />
        <button type="button" onClick={() => (post(dockMessage(target.id, ticketOf(target))), window.close())}>Back to workspace</button>
      </div>
      <NoticesBar />
      <PanelView panelId={target.id} kind={target.kind} productId={productId} height={room ?? window.innerHeight - GUESSED_FRAME_PX} />
    </div>
  );
}
