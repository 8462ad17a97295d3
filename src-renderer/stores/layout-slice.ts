// The workspace: which panels are shown, in what order and size, each linked to a product or following the desk's.
import type { StateCreator } from 'zustand';
import type { DeskState } from './desk-store';

export const PANEL_KINDS = ['ticket', 'ladder', 'tape', 'chart', 'openOrders', 'history', 'fills', 'account', 'keys', 'environments', 'errors'] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

export const PANEL_TITLES: Readonly<Record<PanelKind, string>> = {
  ticket: 'Order ticket',
  ladder: 'Depth ladder',
  tape: 'Trades',
  chart: 'Chart',
  openOrders: 'Open orders',
  history: 'Order history',
  fills: 'Fills',
  account: 'Account',
  keys: 'API keys',
  environments: 'Environments',
  errors: 'Error catalogue',
};

export interface PanelPlacement {
  id: string;
  kind: PanelKind;
  /** Grid columns it spans (1-3) and rows of 200px. */
  width: number;
  height: number;
  /** A product this panel is linked to; absent = follows the desk's product. */
  productId?: string;
  /** Shown in its own window rather than in the workspace. */
  poppedOut?: boolean;
}

export interface Layout {
  version: 1;
  productId: string;
  panels: PanelPlacement[];
}

export const DEFAULT_LAYOUT: Layout = {
  version: 1,
  productId: 'BTC-VND',
  panels: [
    { id: 'ticket', kind: 'ticket', width: 1, height: 3 },
    { id: 'ladder', kind: 'ladder', width: 1, height: 3 },
    { id: 'chart', kind: 'chart', width: 1, height: 2 },
    { id: 'tape', kind: 'tape', width: 1, height: 1 },
    { id: 'openOrders', kind: 'openOrders', width: 2, height: 2 },
    { id: 'account', kind: 'account', width: 1, height: 2 },
    { id: 'history', kind: 'history', width: 2, height: 2 },
    { id: 'fills', kind: 'fills', width: 1, height: 2 },
    { id: 'environments', kind: 'environments', width: 2, height: 2 },
    { id: 'keys', kind: 'keys', width: 1, height: 2 },
  ],
};

export interface LayoutSlice {
  layout: Layout;
  /**
   * Whether the saved layout has been read (or found missing): until then the workspace shows the default, and
   * neither saves it nor marks panels on it, which would write the default over the trader's saved layout.
   */
  layoutLoaded: boolean;
  setLayout: (layout: Layout) => void;
  layoutRead: () => void;
  setProduct: (productId: string) => void;
  updatePanel: (id: string, patch: Partial<Omit<PanelPlacement, 'id' | 'kind'>>) => void;
  movePanel: (id: string, by: number) => void;
  addPanel: (kind: PanelKind) => void;
  removePanel: (id: string) => void;
}

export const createLayoutSlice: StateCreator<DeskState, [], [], LayoutSlice> = (set) => ({
  layout: DEFAULT_LAYOUT,
  layoutLoaded: false,
  setLayout: (layout) => set({ layout }),
  layoutRead: () => set({ layoutLoaded: true }),
  setProduct: (productId) => set((s) => ({ layout: { ...s.layout, productId } })),
  updatePanel: (id, patch) =>
    set((s) => ({ layout: { ...s.layout, panels: s.layout.panels.map((p) => (p.id === id ? { ...p, ...patch } : p)) } })),
  movePanel: (id, by) =>
    set((s) => ({ layout: { ...s.layout, panels: movePanel(s.layout.panels, id, by) } })),
  addPanel: (kind) =>
    set((s) => ({
      layout: { ...s.layout, panels: [...s.layout.panels, { id: `${kind}-${Date.now().toString(36)}`, kind, width: 1, height: 2 }] },
    })),
  removePanel: (id) => set((s) => ({ layout: { ...s.layout, panels: s.layout.panels.filter((p) => p.id !== id) } })),
});

export function movePanel(panels: readonly PanelPlacement[], id: string, by: number): PanelPlacement[] {
  const from = panels.findIndex((p) => p.id === id);
  if (from === -1) return [...panels];
  const to = Math.max(0, Math.min(panels.length - 1, from + by));
  const next = [...panels];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/** A saved layout read back: anything unexpected gives the default rather than a broken workspace. */
export function readLayout(value: unknown): Layout {
  if (typeof value !== 'object' || value === null) return DEFAULT_LAYOUT;
  const v = value as Partial<Layout>;
  if (v.version !== 1 || typeof v.productId !== 'string' || !Array.isArray(v.panels)) return DEFAULT_LAYOUT;
  const panels = v.panels.filter(
    (p): p is PanelPlacement =>
      typeof p === 'object' && p !== null && typeof p.id === 'string' && (PANEL_KINDS as readonly string[]).includes(p.kind) &&
      Number.isInteger(p.width) && Number.isInteger(p.height),
  );
  return { version: 1, productId: v.productId, panels: panels.map((p) => ({ ...p, poppedOut: false })) };
}
