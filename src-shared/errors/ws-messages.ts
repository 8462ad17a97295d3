/**
 * The message texts the interface's 7.4 lists for WebSocket trading errors. The local venue puts the text in
 * front of its reference; a venue that sends the text alone is still understood by the desk through it.
 */
import type { ErrorRef } from './catalogue';

export const WS_MESSAGE_OF: Readonly<Partial<Record<ErrorRef, string>>> = {
  E0001_AuthRequired: 'authentication required',
  E0002_ApiKeyExpired: 'authentication failed',
  E0005_ApiKeyRevoked: 'authentication failed',
  E0004_InsufficientScope: 'read-only api key',
  E0104_InvalidSymbol: 'invalid product',
  E0201_InsufficientBalance: 'insufficient balance',
  E0202_PostOnlyWouldMatch: 'post only would match',
  E0301_OrderNotFound: 'order not found',
  E0302_OrderAlreadyDone: 'order already done',
};

/** Texts 7.4 names without a reference of their own in WS_MESSAGE_OF, and what they stand for. */
const OTHER_TEXTS: readonly (readonly [text: string, ref: ErrorRef])[] = [
  ['invalid price', 'E0101_InvalidArgument'],
  ['invalid size', 'E0101_InvalidArgument'],
  ['missing order id', 'E0101_InvalidArgument'],
  ['position limit', 'E0210_OrderLimitExceeded'],
];

/** The reference a 7.4 message text stands for, when a venue sends the text alone; the first listed wins. */
export function refOfWsMessage(message: string): ErrorRef | undefined {
  const text = message.trim().toLowerCase();
  for (const [ref, listed] of Object.entries(WS_MESSAGE_OF) as [ErrorRef, string][]) if (text.startsWith(listed)) return ref;
  for (const [listed, ref] of OTHER_TEXTS) if (text.startsWith(listed)) return ref;
  return undefined;
}
