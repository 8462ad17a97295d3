/**
 * The workspace: the trader's panels on a grid, moved, resized, linked to a product, popped out and docked
 * again. The layout is saved through the desk as the trader changes it and restored on the next start.
 */
import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { call } from '../../bridge';
import { useDesk } from '../../stores/desk-store';
import { PANEL_KINDS, PANEL_TITLES, type Layout, type PanelKind, type PanelPlacement } from '../../stores/layout-slice';
import { NoticesBar } from '../errors/NoticesBar';
import { PanelView } from './PanelView';
import { panelInnerFoot, useContentRoom } from './content-room';
import { ProductPicker } from './ProductPicker';
import { openPopOut, workspaceChannel } from './pop-out';
import { historySearchOf, readHistorySearch, rememberHistorySearch } from '../blotters/history-query';
import { readTicketForm } from '../ticket/ticket-check';
import { DeskBar } from './DeskBar';

export const LAYOUT_NAME = 'workspace';
const ROW_PX = 200;
/** The slot's toolbar, the panel's frame and header, until the room left under them is measured. */
const GUESSED_FRAME_PX = 80;
const SAVE_DELAY_MS = 500;

/** A panel that follows the desk product goes on following it in its own window. */
export function popOut(panel: PanelPlacement): void {
  const history = panel.kind === 'history' ? historySearchOf(panel.id) : undefined;
  const target = {
    id: panel.id, kind: panel.kind, deskProductId: useDesk.getState().layout.productId,
    ...(panel.productId !== undefined && { productId: panel.productId }),
    ...(history !== undefined && { history }),
    // The order the trader was writing goes with the ticket.
    ...(panel.kind === 'ticket' && { ticket: useDesk.getState().ticket }),
  };
  if (openPopOut(target) !== null) {
    useDesk.getState().updatePanel(panel.id, { poppedOut: true });
    return;
  }
  // A browser that blocks pop-up windows answers with none: the button would otherwise seem to do nothing.
  useDesk.getState().notify({
    kind: 'error',
    ref: '',
    title: 'Not popped out',
    detail: `The browser did not open a window for ${PANEL_TITLES[panel.kind]}: it blocks pop-up windows from this page. The panel stays in the workspace.`,
    explanation: '',
    action: 'Allow pop-up windows for this page in the browser, then pop the panel out again.',
  });
}

/** The panel the trader is in: the one holding focus, else the one last clicked. */
function panelIdAt(target: EventTarget | null): string | undefined {
  return (target instanceof Element ? target.closest('[data-panel-id]')?.getAttribute('data-panel-id') : undefined) ?? undefined;
}

function Slot(props: { panel: PanelPlacement; deskProduct: string }): React.JSX.Element {
  const { panel } = props;
  const s = useDesk.getState();
  const productId = panel.productId ?? props.deskProduct;
  const title = PANEL_TITLES[panel.kind];
  const slot = useRef<HTMLDivElement>(null);
  const room = useContentRoom(panel.kind, slot, panelInnerFoot);
  return (
    <div className="slot" ref={slot} data-panel-id={panel.id} style={{ gridColumn: `span ${panel.width}`, gridRow: `span ${panel.height}` }}>
      <div className="slot-tools" role="toolbar" aria-label={`${title} layout`}>
        <ProductPicker label={`${title} product`} value={panel.productId ?? ''} followLabel="Desk product" onChange={(id) => s.updatePanel(panel.id, { productId: id === '' ? undefined : id })} />
        <button type="button" aria-label={`Move ${title} earlier`} onClick={() => s.movePanel(panel.id, -1)}>◀</button>
        <button type="button" aria-label={`Move ${title} later`} onClick={() => s.movePanel(panel.id, 1)}>▶</button>
        <button type="button" aria-label={`Narrower ${title}`} onClick={() => s.updatePanel(panel.id, { width: Math.max(1, panel.width - 1) })}>−W</button>
        <button type="button" aria-label={`Wider ${title}`} onClick={() => s.updatePanel(panel.id, { width: Math.min(3, panel.width + 1) })}>+W</button>
        <button type="button" aria-label={`Shorter ${title}`} onClick={() => s.updatePanel(panel.id, { height: Math.max(1, panel.height - 1) })}>−H</button>
        <button type="button" aria-label={`Taller ${title}`} onClick={() => s.updatePanel(panel.id, { height: Math.min(5, panel.height + 1) })}>+H</button>
        {/* ↗, not ⧉: no font of a Debian desktop's (DejaVu, Liberation) has ⧉, which showed there as an empty box. */}
        <button type="button" aria-label={`Pop out ${title}`} title="Pop out (Alt+P)" onClick={() => popOut(panel)}>↗</button>
        <button type="button" aria-label={`Close ${title}`} onClick={() => s.removePanel(panel.id)}>✕</button>
      </div>
      <PanelView panelId={panel.id} kind={panel.kind} productId={productId} height={room ?? panel.height * ROW_PX - GUESSED_FRAME_PX} />
    </div>
  );
}

export function Workspace(): React.JSX.Element {
  const panels = useDesk(useShallow((s) => s.layout.panels));
  const deskProduct = useDesk((s) => s.layout.productId);
  const popped = panels.filter((p) => p.poppedOut === true);

  useEffect(() => {
    // Panels whose windows answered the roll-call: a reloaded workspace must not show them a second time, even
    // once the saved layout (which marks nothing as out) arrives after their answers.
    const out = new Set<string>();
    const markOut = (): void => {
      const s = useDesk.getState();
      if (!s.layoutLoaded) return;
      for (const p of s.layout.panels) if (out.has(p.id) && p.poppedOut !== true) s.updatePanel(p.id, { poppedOut: true });
    };
    const channel = workspaceChannel((m) => {
      const s = useDesk.getState();
      if (m.type === 'dock') {
        out.delete(m.id);
        // Docked, the panel goes on with what the trader typed in its window.
        const history = readHistorySearch(m.history);
        if (history !== undefined) rememberHistorySearch(m.id, history);
        const ticket = readTicketForm(m.ticket);
        if (ticket !== undefined) s.editTicket(ticket);
        s.updatePanel(m.id, { poppedOut: false });
      } else if (m.type === 'link') s.updatePanel(m.id, { productId: m.productId });
      else if (m.type === 'ticket') s.editTicket(m.patch);
      else if (m.type === 'popped') {
        out.add(m.id);
        markOut();
        // A window that announces itself may have been reloaded, and read an older desk product from the saved
        // layout (saved after a pause): it is told the one the workspace shows.
        if (s.layoutLoaded) channel.post({ type: 'desk-product', productId: s.layout.productId });
      }
    });
    const unsubscribe = useDesk.subscribe((state, prev) => {
      if (state.layout.productId !== prev.layout.productId) channel.post({ type: 'desk-product', productId: state.layout.productId });
      if ((state.layout !== prev.layout || state.layoutLoaded !== prev.layoutLoaded) && out.size > 0) markOut();
    });
    channel.post({ type: 'roll-call' });
    return () => (unsubscribe(), channel.close());
  }, []);

  useEffect(() => {
    // Alt+P (also the app's Window menu) pops out the panel the trader is in.
    let lastClicked: string | undefined;
    const remember = (e: PointerEvent): void => void (lastClicked = panelIdAt(e.target) ?? lastClicked);
    const popOutCurrent = (e: KeyboardEvent): void => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyP') return;
      const s = useDesk.getState();
      const id = panelIdAt(document.activeElement) ?? lastClicked;
      const panel = s.layout.panels.find((p) => p.id === id && p.poppedOut !== true);
      if (panel === undefined) return;
      e.preventDefault();
      popOut(panel);
    };
    window.addEventListener('pointerdown', remember, true);
    window.addEventListener('keydown', popOutCurrent);
    return () => (window.removeEventListener('pointerdown', remember, true), window.removeEventListener('keydown', popOutCurrent));
  }, []);

  useEffect(() => {
    // Saved after a pause, and at once when the window goes (a reload, a close): a change made just before
    // would otherwise be lost with the timer.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: Layout | undefined;
    const save = (): void => {
      clearTimeout(timer);
      if (pending !== undefined) void call('layouts.save', { name: LAYOUT_NAME, layout: pending }).catch(() => undefined);
      pending = undefined;
    };
    const unsubscribe = useDesk.subscribe((state, prev) => {
      if (state.layout === prev.layout || !state.layoutLoaded) return;
      pending = state.layout;
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    });
    window.addEventListener('pagehide', save);
    return () => (save(), unsubscribe(), window.removeEventListener('pagehide', save));
  }, []);

  return (
    <div className="desk">
      <DeskBar />
      <NoticesBar />
      <div className="add-panel">
        <label>Add panel
          <select value="" onChange={(e) => e.target.value !== '' && useDesk.getState().addPanel(e.target.value as PanelKind)}>
            <option value="">…</option>
            {PANEL_KINDS.map((k) => <option key={k} value={k}>{PANEL_TITLES[k]}</option>)}
          </select>
        </label>
        {popped.length > 0 && <span className="muted"> Popped out: {popped.map((p) => PANEL_TITLES[p.kind]).join(', ')}</span>}
      </div>
      <main className="workspace">
        {panels.filter((p) => p.poppedOut !== true).map((p) => <Slot key={p.id} panel={p} deskProduct={deskProduct} />)}
      </main>
    </div>
  );
}
