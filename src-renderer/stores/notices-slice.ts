// What the trader is told: venue errors with the catalogue's title, message and action, and fill notices.
import type { StateCreator } from 'zustand';
import { findErrorRecord } from '../../src-shared/errors/catalogue';
import type { DeskState } from './desk-store';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  /** The catalogue's title, or the first words of the message when the reference is unknown. */
  title: string;
  /** What went wrong in this request. */
  detail: string;
  /** The catalogue's general explanation. */
  explanation: string;
  /** What to do about it, in words. */
  action: string;
  ref: string;
}

export interface NoticesSlice {
  notices: Notice[];
  notify: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
}

const ACTION_WORDS: Readonly<Record<string, string>> = {
  retry: 'Try again.',
  redirect_login: 'Check the API key for this environment, or import it again.',
  contact_support: 'Contact support if this keeps happening.',
  none: 'Change the request and send it again.',
};

/** The notice for a failure answered with a catalogue reference and a message that starts with it. */
export function errorNotice(ref: string, message: string): Omit<Notice, 'id'> {
  const record = findErrorRecord(ref);
  const detail = message.startsWith(`${ref}:`) ? message.slice(ref.length + 1).trim() : message;
  return {
    kind: 'error',
    ref,
    title: record?.title ?? ref,
    detail,
    explanation: record?.message ?? '',
    action: ACTION_WORDS[record?.action ?? 'none'] ?? '',
  };
}

let nextId = 1;
const KEEP = 20;

export const createNoticesSlice: StateCreator<DeskState, [], [], NoticesSlice> = (set) => ({
  notices: [],
  // The same failure from several calls at once is said once.
  notify: (notice) =>
    set((s) => ({
      notices: [{ ...notice, id: nextId++ }, ...s.notices.filter((n) => n.ref !== notice.ref || n.detail !== notice.detail || n.title !== notice.title)].slice(0, KEEP),
    })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
