/**
 * 'desk-' and 24 hex digits: inside the interface's client_order_id alphabet, never UUID-shaped. Web Crypto, which
 * both the main process and a window have: the desk names an order sent without one, and the ticket names its own
 * sends, so that it can follow one whose outcome is unknown (features/ticket/in-doubt.ts).
 */
export function newClientOrderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `desk-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * What a client order id is compared by: the venue holds them unique case-insensitively among a user's open orders
 * (docs/api.md) and echoes each as sent, so two that differ only in letter case name the same order.
 */
export function clientOrderIdKey(clientOrderId: string): string {
  return clientOrderId.toLowerCase();
}

export function sameClientOrderId(a: string, b: string): boolean {
  return clientOrderIdKey(a) === clientOrderIdKey(b);
}
