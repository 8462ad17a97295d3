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
import { refusedOn, scriptedWindow } from './fixtures';

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
