// One panel by kind, sized to the room the workspace (or its own window) gives it.
import type { PanelKind } from '../../stores/layout-slice';
import { AccountPanel } from '../account/AccountPanel';
import { FillsPanel } from '../blotters/FillsPanel';
import { OpenOrdersPanel } from '../blotters/OpenOrdersPanel';
import { OrderHistoryPanel } from '../blotters/OrderHistoryPanel';
import { ChartPanel } from '../chart/ChartPanel';
import { EnvironmentsPanel } from '../environments/EnvironmentsPanel';
import { CataloguePanel } from '../errors/CataloguePanel';
import { KeysPanel } from '../keys/KeysPanel';
import { LadderPanel } from '../ladder/LadderPanel';
import { TapePanel } from '../tape/TapePanel';
import { TicketPanel } from '../ticket/TicketPanel';

/** Panels whose content is as tall as the height they are given: the rest are as tall as what they show. */
export const SIZED_BY_HEIGHT: ReadonlySet<PanelKind> = new Set(['ladder', 'tape', 'chart', 'openOrders', 'history', 'fills']);

/** `height`: the room for a panel sized by height under its header and notes, as useContentRoom measures it. */
export function PanelView(props: { panelId: string; kind: PanelKind; productId: string; height: number }): React.JSX.Element {
  const { panelId, kind, productId } = props;
  const body = Math.max(120, props.height);
  switch (kind) {
    case 'ticket': return <TicketPanel productId={productId} />;
    case 'ladder': return <LadderPanel productId={productId} height={body} />;
    case 'tape': return <TapePanel productId={productId} height={body} />;
    case 'chart': return <ChartPanel productId={productId} height={body} />;
    case 'openOrders': return <OpenOrdersPanel productId={productId} height={body} />;
    case 'history': return <OrderHistoryPanel panelId={panelId} height={body} />;
    case 'fills': return <FillsPanel height={body} />;
    case 'account': return <AccountPanel />;
    case 'keys': return <KeysPanel />;
    case 'environments': return <EnvironmentsPanel />;
    case 'errors': return <CataloguePanel />;
  }
}
