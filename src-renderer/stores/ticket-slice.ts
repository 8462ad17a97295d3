// The order ticket's form, in the store so the ladder can fill it with a click on a price.
import type { StateCreator } from 'zustand';
import { EMPTY_TICKET, type TicketForm } from '../features/ticket/ticket-check';
import type { DeskState } from './desk-store';

export interface TicketSlice {
  ticket: TicketForm;
  editTicket: (patch: Partial<TicketForm>) => void;
}

export const createTicketSlice: StateCreator<DeskState, [], [], TicketSlice> = (set) => ({
  ticket: EMPTY_TICKET,
  editTicket: (patch) => set((s) => ({ ticket: { ...s.ticket, ...patch } })),
});
