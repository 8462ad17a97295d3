/**
 * One store per window, built from slices (ARCHITECTURE: zustand). Components always select what they need;
 * the ladder and tape read it through `useDesk.subscribe` so a book update never re-renders the workspace.
 */
import { create } from 'zustand';
import { createAccountSlice, type AccountSlice } from './account-slice';
import { createLayoutSlice, type LayoutSlice } from './layout-slice';
import { createMarketSlice, type MarketSlice } from './market-slice';
import { createNoticesSlice, type NoticesSlice } from './notices-slice';
import { createOrdersSlice, type OrdersSlice } from './orders-slice';
import { createTicketSlice, type TicketSlice } from './ticket-slice';

export type DeskState = MarketSlice & OrdersSlice & AccountSlice & NoticesSlice & LayoutSlice & TicketSlice;

export const useDesk = create<DeskState>()((...a) => ({
  ...createMarketSlice(...a),
  ...createOrdersSlice(...a),
  ...createAccountSlice(...a),
  ...createNoticesSlice(...a),
  ...createLayoutSlice(...a),
  ...createTicketSlice(...a),
}));
