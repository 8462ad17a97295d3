/**
 * The pre-trade limits as the trader edits them: how far from the market a limit may be (percent) and the largest
 * notional (quote asset) before the desk holds an order. The desk is the judge of what it accepts: the boxes are
 * sent as typed through 'settings.update', and its refusal is put back beside the box it is about.
 */
import type { BridgeErrorIssue, PreTradeSettings, Request, Settings } from '../../../src-shared/ipc/contract';
import { BridgeError, call } from '../../bridge';

export type LimitField = keyof PreTradeSettings;
export type LimitsDraft = Record<LimitField, string>;
export type LimitErrors = Partial<Record<LimitField, string>>;

const FIELDS: readonly LimitField[] = ['maxDeviationPercent', 'maxNotional'];

export const LIMIT_WORDS: Readonly<Record<LimitField, string>> = {
  maxDeviationPercent: 'Largest distance of a limit from the market, in %',
  maxNotional: 'Largest notional, in the quote asset',
};

/** The change to send: each box trimmed ('' turns its check off); only the boxes that differ from what is set. */
export function limitsChange(draft: LimitsDraft, current: PreTradeSettings | undefined): Request<'settings.update'> {
  const preTrade: Partial<LimitsDraft> = {};
  for (const field of FIELDS) {
    const value = draft[field].trim();
    if (current === undefined || value !== current[field]) preTrade[field] = value;
  }
  return { preTrade };
}

/**
 * The bridge's refusal, by box: each issue whose path is a box's ("preTrade.maxNotional") goes beside it, the first
 * for each box ("abc" fails both as a decimal and as above 0: the first says what is wrong with it). By the path,
 * never by reading the message, whose wording may change. A refusal that names no box is kept whole under `other`.
 */
export function limitsRefusal(message: string, issues: readonly BridgeErrorIssue[] = []): { errors: LimitErrors; other?: string } {
  const errors: LimitErrors = {};
  for (const issue of issues) {
    const field = FIELDS.find((f) => issue.path === `preTrade.${f}` || issue.path.startsWith(`preTrade.${f}.`));
    if (field !== undefined) errors[field] ??= issue.message;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { errors, other: message.replace(/^E\d{4}_[A-Za-z]+:\s*/, '').replace(/^settings\.update:\s*/, '') };
}

/** Whether the box's value differs from what the desk holds (nothing to save otherwise). */
export function limitsEdited(draft: LimitsDraft, current: PreTradeSettings): boolean {
  return Object.keys(limitsChange(draft, current).preTrade ?? {}).length > 0;
}

/** What the check does with the value the desk holds, in words: '' is off. */
export function limitSummary(field: LimitField, value: string): string {
  if (value === '') return 'off';
  return field === 'maxDeviationPercent' ? `${value}%` : value;
}

export type SaveOutcome = { settings: Settings } | { errors: LimitErrors; other?: string; ref: string };

/** Sends the boxes to the desk: its settings as they now stand, or its refusal by box. */
export async function saveLimits(draft: LimitsDraft, current: PreTradeSettings | undefined, send = call<'settings.update'>): Promise<SaveOutcome> {
  try {
    return { settings: await send('settings.update', limitsChange(draft, current)) };
  } catch (err) {
    const ref = err instanceof BridgeError ? err.ref : 'E0901_InternalError';
    return { ...limitsRefusal(err instanceof Error ? err.message : String(err), err instanceof BridgeError ? err.issues : []), ref };
  }
}
