/** The Status the blotters and the ticket's last order show: what became of an order, as a trader reads it. */
import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../src-renderer/features/blotters/order-columns';
import { restingOrder } from './fixtures';

describe('an order\'s status as shown', () => {
  it('says a working order that has traded is partly filled', () => {
    expect(statusOf(restingOrder('a'))).toBe('ACTIVE');
    expect(statusOf(restingOrder('a', { filled_base_size: '0.04', filled_quote_size: '96000000' }))).toBe('ACTIVE (partly filled)');
    expect(statusOf(restingOrder('a', { filled_base_size: '0.04', cancel_requested_at: '9' }))).toBe('CANCELLING (partly filled)');
  });

  it('says an order ended with part of it filled was partly filled, and a filled one just FILLED', () => {
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'CANCELED', filled_base_size: '0.04' }))).toBe('CANCELED (partly filled)');
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.1' }))).toBe('FILLED');
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'CANCELED' }))).toBe('CANCELED');
  });

  it('says why the venue rejected or cut short an order, in the catalogue\'s words with its code', () => {
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0201_InsufficientBalance' }))).toBe('REJECTED: Insufficient balance (E0201)');
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'CANCELED', reject_reason: 'E0204_SelfTradePrevented', filled_base_size: '0.02' }))).toBe(
      'CANCELED (partly filled): Self-trade prevented (E0204)',
    );
    // A reference this desk does not know (a newer venue's) is shown as the venue sent it.
    expect(statusOf(restingOrder('a', { status: 'DONE', done_reason: 'REJECTED', reject_reason: 'E0299_SomethingNew' }))).toBe('REJECTED: E0299_SomethingNew');
  });
});
