// What the trader is told: venue errors with the catalogue's title, message and action, and fill notices.
import type { StateCreator } from 'zustand';
import { findErrorRecord } from '../../src-shared/errors/catalogue';
import type { MethodName } from '../../src-shared/ipc/contract';
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

/** Browser mode's bridge (web-transport.ts) fails a call that was on its way when its link to the desk closed with these words. */
const LINK_LOST_IN_FLIGHT = 'the outcome is unknown';

/**
 * Why a failed call may have been carried out all the same, or undefined for a plain refusal: the desk lost the
 * venue's answer to an order ('placement', E0802), or browser mode lost its link to the desk with the call on its
 * way ('link', E0902; a call that never reached the desk says it cannot be reached instead). Either way, sending it
 * again before looking may place the order twice.
 */
export function unknownOutcome(ref: string, message: string): 'placement' | 'link' | undefined {
  if (ref === 'E0802_OrderOutcomeUnknown') return 'placement';
  if (ref === 'E0902_ServiceUnavailable' && message.includes(LINK_LOST_IN_FLIGHT)) return 'link';
  return undefined;
}

/**
 * The notice for a failure answered with a catalogue reference and a message that starts with it. `method`: the
 * call that failed, when known: a lost link says "do not send it again" only of a placement (or of a call it cannot
 * name); of a read or a cancel, asking again is what the trader should do.
 */
export function errorNotice(ref: string, message: string, method?: MethodName): Omit<Notice, 'id'> {
  const record = findErrorRecord(ref);
  const detail = message.startsWith(`${ref}:`) ? message.slice(ref.length + 1).trim() : message;
  const notice: Omit<Notice, 'id'> = {
    kind: 'error',
    ref,
    title: record?.title ?? ref,
    detail,
    explanation: record?.message ?? '',
    action: ACTION_WORDS[record?.action ?? 'none'] ?? '',
  };
  // E0802's catalogue action is 'none', whose words told the trader to send the order again; E0902's 'retry' did
  // the same of a request the desk may already have carried out.
  switch (unknownOutcome(ref, message)) {
    case 'placement':
      return { ...notice, action: 'Do not send it again until it shows among the orders or the desk says it was not placed.' };
    case 'link':
      if (method !== undefined && method !== 'orders.place') {
        return {
          ...notice,
          title: 'The link to the desk was lost',
          explanation: 'The connection to the desk closed while the request was on its way.',
          action: 'Once the desk answers again, ask again if it is still needed: this request places no order.',
        };
      }
      return {
        ...notice,
        title: 'Outcome unknown: the link to the desk was lost',
        explanation: 'The connection to the desk closed while the request was on its way, so this window cannot tell whether the desk carried it out.',
        action: 'Do not send it again before looking: once the desk answers again, see whether it was done (an order among the orders).',
      };
    default:
      return notice;
  }
}

let nextId = 1;
/** At most this many notices at once: a burst must not cover the panels below them. */
export const MAX_NOTICES = 4;
/** An info notice (a fill, say) closes itself after this long; an error stays until dismissed or pushed out. */
export const INFO_NOTICE_MS = 6000;

/**
 * The notices to keep, newest first, at most MAX_NOTICES: when there are more, the oldest info notices go first,
 * then the oldest errors (a refusal the trader has had on screen gives way to newer ones, never to a fill).
 */
function keepNewest(notices: Notice[]): Notice[] {
  const kept = [...notices];
  while (kept.length > MAX_NOTICES) {
    const info = kept.findLastIndex((n) => n.kind === 'info');
    kept.splice(info === -1 ? kept.length - 1 : info, 1);
  }
  return kept;
}

export const createNoticesSlice: StateCreator<DeskState, [], [], NoticesSlice> = (set, get) => ({
  notices: [],
  // The same failure from several calls at once is said once.
  notify: (notice) => {
    const id = nextId++;
    set((s) => ({
      notices: keepNewest([{ ...notice, id }, ...s.notices.filter((n) => n.ref !== notice.ref || n.detail !== notice.detail || n.title !== notice.title)]),
    }));
    if (notice.kind === 'info') setTimeout(() => get().dismiss(id), INFO_NOTICE_MS);
  },
  dismiss: (id) => set((s) => (s.notices.some((n) => n.id === id) ? { notices: s.notices.filter((n) => n.id !== id) } : {})),
});
