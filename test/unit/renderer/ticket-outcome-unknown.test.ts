/**
 * A send whose outcome is unknown is not a refusal (review-7): the ticket's Last order line said "REFUSED:
 * E0802_OrderOutcomeUnknown" when the desk lost the venue's answer, and "REFUSED: E0902_ServiceUnavailable" when
 * browser mode lost its link to the desk with the order on its way, and E0802's notice said to send it again. A
 * trader trusting either sends the order a second time while the first may be live. The lost link is the real
 * browser-mode bridge over a real WebSocket on 127.0.0.1, closed by the other end as the order arrives.
 */
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderFields } from '../../../src-shared/ipc/contract';
import { refusedText } from '../../../src-renderer/features/ticket/TicketPanel';
import { refusedOn, restingOrder, scriptedWindow } from './fixtures';

/** ws in a browser's place: a browser reports a refused connection by its close event, ws throws it unless listened to. */
class BrowserLikeWebSocket extends WebSocket {
  constructor(address: string) {
    super(address);
    this.on('error', () => undefined);
  }
}

const request: OrderFields = { product_id: 'BTC-VND', side: 'BUY', type: 'LIMIT', limit_price: '2500000000', base_size: '0.001', client_order_id: 'lo-1' };

/**
 * The send as the ticket makes it, through the real bridge module (loaded afresh: it keeps the first bridge it
 * makes): the Last order line it shows, and the notice.
 */
async function sendFromTicket(): Promise<{ line: string; notice: { title: string; action: string; explanation: string } | undefined }> {
  vi.resetModules();
  const { attemptOrRefusal } = await import('../../../src-renderer/stores/desk-actions');
  const { useDesk } = await import('../../../src-renderer/stores/desk-store');
  const answer = await attemptOrRefusal('orders.place', { ...request, environment: 'local' });
  if (!('refused' in answer)) throw new Error('the send was not refused');
  return { line: refusedText(request, 'VND', answer.refused), notice: useDesk.getState().notices[0] };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the ticket after a send whose outcome is unknown', () => {
  it('says the outcome of an order whose answer the desk lost (E0802) is unknown, and not to send it again', async () => {
    scriptedWindow({
      'orders.place': () => refusedOn({ environment: 'local' }, 'E0802_OrderOutcomeUnknown', 'the order MAY have been placed: it was sent and its answer was lost'),
    });
    const { line, notice } = await sendFromTicket();
    expect(line).toBe('BUY 0.001 BTC-VND: OUTCOME UNKNOWN (being looked up): do not send it again');
    expect(line).not.toMatch(/REFUSED/);
    expect(notice?.action).toMatch(/^Do not send it again/);
    expect(notice?.action).not.toMatch(/Change the request and send it again/);
  });

  it('says so when browser mode loses its link to the desk with the order on its way', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const placements: unknown[] = [];
    server.on('connection', (socket) =>
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { method?: string };
        if (frame.method !== 'orders.place') return;
        // Received, then the link closes before any answer: the desk may well have placed it.
        placements.push(frame);
        socket.close();
      }),
    );
    try {
      vi.stubGlobal('WebSocket', BrowserLikeWebSocket);
      vi.stubGlobal('window', { location: { protocol: 'http:', host: `127.0.0.1:${(server.address() as AddressInfo).port}` } });
      const { line, notice } = await sendFromTicket();
      expect(placements).toHaveLength(1);
      expect(line).toBe('BUY 0.001 BTC-VND: OUTCOME UNKNOWN (link to the desk lost): look among the orders before sending it again');
      expect(notice?.title).toMatch(/^Outcome unknown/);
      expect(notice?.action).toMatch(/^Do not send it again/);
      expect(notice?.explanation).not.toMatch(/does not accept this request/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('still says REFUSED, with the reference, of a send refused or one that never reached the desk', async () => {
    scriptedWindow({ 'orders.place': () => refusedOn({ environment: 'local' }, 'E0213_InvalidStopPrice', 'the trigger is met already') });
    const refused = await sendFromTicket();
    expect(refused.line).toBe('BUY 0.001 BTC-VND: REFUSED: E0213_InvalidStopPrice');
    expect(refused.notice?.action).toBe('Change the request and send it again.');

    // No desk listening: the order was never sent, and sending it again is what the trader should do.
    const closed = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => closed.once('listening', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    vi.stubGlobal('WebSocket', BrowserLikeWebSocket);
    vi.stubGlobal('window', { location: { protocol: 'http:', host: `127.0.0.1:${port}` } });
    const unreached = await sendFromTicket();
    expect(unreached.line).toBe('BUY 0.001 BTC-VND: REFUSED: E0902_ServiceUnavailable');
    expect(unreached.notice?.action).toBe('Try again.');
  });
});

describe('the ticket\'s Last order line once the desk learns what became of an order whose outcome was unknown', () => {
  /**
   * An order sent from the ticket (named there when the trader gave it no client order id) and answered E0802, with
   * fresh modules as sendFromTicket has them: the line then, what the ticket follows, and the store the desk's
   * news reaches.
   */
  async function sendInDoubt(fields: OrderFields) {
    vi.resetModules();
    const { attemptOrRefusal } = await import('../../../src-renderer/stores/desk-actions');
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { nameSend, learnedOutcome } = await import('../../../src-renderer/features/ticket/in-doubt');
    const { refusedText } = await import('../../../src-renderer/features/ticket/TicketPanel');
    let received: string | undefined;
    scriptedWindow({
      'orders.place': (r: OrderFields) => {
        received = r.client_order_id;
        return refusedOn({ environment: 'local' }, 'E0802_OrderOutcomeUnknown', `the order MAY have been placed: it was sent and its answer was lost. The desk is looking it up by its client order id ${r.client_order_id}`);
      },
    });
    useDesk.setState({ connection: { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' } });
    const sent = nameSend(fields, useDesk.getState());
    const answer = await attemptOrRefusal('orders.place', { ...sent.request, environment: 'local' });
    if (!('refused' in answer)) throw new Error('the send was not refused');
    return { line: refusedText(sent.request, 'VND', answer.refused), received, sent, useDesk, learned: () => learnedOutcome(useDesk.getState(), sent) };
  }

  it('follows the order by its client order id into the open orders, and on to the history once done', async () => {
    const { line, sent, useDesk, learned } = await sendInDoubt(request);
    expect(line).toMatch(/OUTCOME UNKNOWN/);
    expect(sent.request.client_order_id).toBe('lo-1');
    expect(learned()).toBeUndefined();
    // Another order under another id, or under this id on another product, is not it.
    useDesk.getState().applyOrders([restingOrder('other'), restingOrder('elsewhere', { client_order_id: 'lo-1', product_id: 'ETH-VND' })]);
    expect(learned()).toBeUndefined();
    // The orders channel (or the desk's lookup) brings it: client order ids are case-insensitive.
    useDesk.getState().applyOrders([restingOrder('placed', { client_order_id: 'LO-1', base_size: '0.001', limit_price: '2500000000' })]);
    expect(learned()).toMatchObject({ order_id: 'placed', status: 'ACTIVE' });
    useDesk.getState().applyOrders([restingOrder('placed', { client_order_id: 'LO-1', base_size: '0.001', status: 'DONE', done_reason: 'FILLED', filled_base_size: '0.001', updated_at: '2' })]);
    expect(learned()).toMatchObject({ order_id: 'placed', done_reason: 'FILLED' });
  });

  it('is not placed once the desk\'s lookup says the venue never had it', async () => {
    const { sent, useDesk, learned } = await sendInDoubt(request);
    const status = useDesk.getState().connection;
    if (status === undefined) throw new Error('no status');
    useDesk.getState().setConnection({ ...status, notPlaced: ['other-1'] });
    expect(learned()).toBeUndefined();
    useDesk.getState().setConnection({ ...status, notPlaced: ['other-1', 'lo-1'] });
    expect(learned()).toBe('not_placed');
    const { notPlacedText } = await import('../../../src-renderer/features/ticket/in-doubt');
    expect(notPlacedText(sent.request, 'VND')).toBe('BUY 0.001 BTC-VND: NOT PLACED (the desk looked it up): safe to send again');
  });

  it('does not take the lookup\'s "not placed" of an earlier send under the same client order id for this one\'s', async () => {
    vi.resetModules();
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { nameSend, learnedOutcome } = await import('../../../src-renderer/features/ticket/in-doubt');
    // The first send was not placed, and the line said it was safe to send again: sent again, the same form.
    const status = { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' } as const;
    useDesk.setState({ connection: { ...status, notPlaced: ['LO-1'] } });
    const sent = nameSend(request, useDesk.getState());
    expect(learnedOutcome(useDesk.getState(), sent)).toBeUndefined();
    // Still said of the first while this one is on its way (a status sent again for its latency, say).
    useDesk.getState().setConnection({ ...status, latencyMs: 3, notPlaced: ['LO-1'] });
    expect(learnedOutcome(useDesk.getState(), sent)).toBeUndefined();
    // This one placed: it is the order, whatever the status still says of the first.
    useDesk.getState().applyOrders([restingOrder('placed', { client_order_id: 'lo-1' })]);
    expect(learnedOutcome(useDesk.getState(), sent)).toMatchObject({ order_id: 'placed' });
  });

  it('takes "not placed" of a send under a client order id again once the status no longer said it of an earlier one', async () => {
    vi.resetModules();
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    const { nameSend, learnedOutcome, earlierNoteGone } = await import('../../../src-renderer/features/ticket/in-doubt');
    const status = { environment: 'local', production: false, state: 'live', apiKey: 'k', detail: '' } as const;
    useDesk.setState({ connection: { ...status, notPlaced: ['lo-1'] } });
    const sent = nameSend(request, useDesk.getState());
    expect(earlierNoteGone(useDesk.getState(), sent)).toBe(false);
    // The desk drops the first's note as it sends this one (the ticket then follows it without it); this one's own
    // lookup then finds none either.
    useDesk.getState().setConnection({ ...status });
    expect(earlierNoteGone(useDesk.getState(), sent)).toBe(true);
    const followed = { ...sent, notPlacedBefore: false };
    expect(earlierNoteGone(useDesk.getState(), followed)).toBe(false);
    expect(learnedOutcome(useDesk.getState(), followed)).toBeUndefined();
    useDesk.getState().setConnection({ ...status, notPlaced: ['lo-1'] });
    expect(learnedOutcome(useDesk.getState(), followed)).toBe('not_placed');
  });

  it('names an order the trader gave no client order id, so that it can be followed', async () => {
    const { client_order_id: _typed, ...unnamed } = request;
    const { received, sent, useDesk, learned } = await sendInDoubt(unnamed);
    expect(received).toMatch(/^desk-[0-9a-f]{24}$/);
    expect(sent.request.client_order_id).toBe(received);
    useDesk.getState().applyOrders([restingOrder('placed', { client_order_id: received ?? '' })]);
    expect(learned()).toMatchObject({ order_id: 'placed' });
  });

  it('does not take an order already known under a client order id used again for it', async () => {
    vi.resetModules();
    const { useDesk } = await import('../../../src-renderer/stores/desk-store');
    useDesk.getState().applyOrders([restingOrder('older', { client_order_id: 'lo-1', status: 'DONE', done_reason: 'CANCELLED' })]);
    const { nameSend, learnedOutcome } = await import('../../../src-renderer/features/ticket/in-doubt');
    const sent = nameSend(request, useDesk.getState());
    expect(learnedOutcome(useDesk.getState(), sent)).toBeUndefined();
    useDesk.getState().applyOrders([restingOrder('newer', { client_order_id: 'lo-1' })]);
    expect(learnedOutcome(useDesk.getState(), sent)).toMatchObject({ order_id: 'newer' });
  });
});
