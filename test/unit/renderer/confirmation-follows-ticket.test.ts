import { describe, expect, it } from 'vitest';
import { EMPTY_TICKET, sendsOrder, ticketRequest, type TicketForm } from '../../../src-renderer/features/ticket/ticket-check';

// A limit 20% above the market, held by the deviation check: the trader reads the question and corrects the ticket.
const asked: TicketForm = { ...EMPTY_TICKET, price: '2000000000', size: '0.05', clientOrderId: 'mine' };
const request = ticketRequest(asked);

describe('the confirmation of a held order', () => {
  it('stands while the ticket shows the order it asks about', () => {
    expect(sendsOrder(asked, request)).toBe(true);
    expect(sendsOrder({ ...asked, price: ' 2000000000 ' }, request)).toBe(true);
    // A price box the ticket does not send (a market order's) changes nothing sent.
    const market: TicketForm = { ...asked, type: 'MARKET' };
    expect(sendsOrder({ ...market, price: '2500000000' }, ticketRequest(market))).toBe(true);
  });

  it('is withdrawn once the trader edits what the order is made of', () => {
    const edits: Partial<TicketForm>[] = [
      { price: '2500000000' }, { size: '0.5' }, { side: 'SELL' }, { productId: 'ETH-VND' }, { type: 'MARKET' },
      { sizeMode: 'quote' }, { timeInForce: 'IOC' }, { postOnly: true }, { stp: 'CANCEL_BOTH' }, { clientOrderId: 'other' },
      { clientOrderId: '' }, { scheduledAt: '2030-01-01T10:00' },
    ];
    for (const edit of edits) expect(sendsOrder({ ...asked, ...edit }, request), JSON.stringify(edit)).toBe(false);
  });
});
