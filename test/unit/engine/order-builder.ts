import type { OrderIn } from '../../../src-main/venue/engine';

let nextSeq = 1;

/**
 * A GTC limit order with defaults a test can override. Seqs keep increasing across a test file, and each order
 * gets an owner of its own unless the test names one, so self-trade prevention only fires where a test asks.
 */
export function limitOrder(fields: Partial<OrderIn> & Pick<OrderIn, 'side' | 'limitTicks' | 'lots'>): OrderIn {
  const seq = nextSeq++;
  return {
    seq,
    owner: 1_000_000 + seq,
    quoteBudget: Number.POSITIVE_INFINITY,
    tif: 'GTC',
    postOnly: false,
    stp: 'CANCEL_TAKER',
    ...fields,
  };
}

/** A market (limit 0) IOC order. */
export function marketOrder(fields: Partial<OrderIn> & Pick<OrderIn, 'side'>): OrderIn {
  return limitOrder({ limitTicks: 0, lots: 0, tif: 'IOC', ...fields });
}
