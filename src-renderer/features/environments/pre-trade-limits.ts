/**
 * The pre-trade limits as the trader edits them: how far from the market a limit may be (percent) and the largest
 * notional (quote asset) before the desk holds an order. The desk is the judge of what it accepts: the boxes are
 * sent as typed through 'settings.update', and its refusal is put back beside the box it is about.
 */
import type { BridgeErrorIssue, PreTradeSettings, Request, Settings } from '../../../src-shared/ipc/contract';
import { call } from '../../bridge';
import { placeIssues, refusalOf } from '../../ui/field-error';

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
 * The bridge's refusal, by box: each issue whose path is a box's ("preTrade.maxNotional") goes beside it. A refusal
 * some of which names no box is kept whole under `other`: only its placed part was shown, the rest lost.
 */
export function limitsRefusal(message: string, issues: readonly BridgeErrorIssue[] = []): { errors: LimitErrors; other?: string } {
  const { errors, unplaced } = placeIssues(issues, FIELDS, (f) => `preTrade.${f}`);
  return unplaced ? { errors, other: message.replace(/^E\d{4}_[A-Za-z]+:\s*/, '').replace(/^settings\.update:\s*/, '') } : { errors };
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
    const refused = refusalOf(err);
    return { ...limitsRefusal(refused.message, refused.issues), ref: refused.ref };
  }
}
