// A Retry-After no venue means: 99999999 seconds (three years), as a gateway that mangles the header, or a venue
// counting in the wrong unit, sends it. A read is not held for that long, in silence, with every panel behind it
// frozen: it is refused with the venue's rate-limit error and what remains of the wait, as an order is, and the
// client sends nothing to the venue meanwhile. The 429 comes from the real gateway in front of the real venue.
import { describe, expect, it } from 'vitest';
import { VenueRestClient, type RequestAttempt } from '../../../src-main/connection/rest-client';
import { MAX_RETRY_AFTER_MS, VenueError } from '../../../src-main/connection/venue-error';
import type { HttpGateway } from '../desk/http-gateway';
import type { Account } from './local-venue';
import { venueBehindGateway } from './venue-behind-gateway';

let trader: Account;
let gateway: HttpGateway;
venueBehindGateway((made) => ({ trader, gateway } = made));

describe('a Retry-After of years', () => {
  it('refuses the read with E0501 and what remains of the wait, rather than holding it (or spinning on a timer that cannot hold it)', async () => {
    let refusals = 0;
    gateway.rule = ({ path }) => {
      if (path !== '/api/v1/orders/active' || refusals++ > 0) return 'pass';
      return { instead: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '99999999' }, body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'E0501_RateLimitExceeded: too many requests' } }) } };
    };
    const warnings: string[] = [];
    let warned: (warning: Error) => void = () => undefined;
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
      if (warning.name === 'TimeoutOverflowWarning') warned(warning);
    };
    process.on('warning', onWarning);
    const client = new VenueRestClient({ baseUrl: gateway.baseUrl, credentials: trader.credentials, maxRetries: 3 });
    const attempts: RequestAttempt[] = [];
    client.onDidAttempt((a) => attempts.push(a));
    try {
      // Settled, or the process warned that a timer could not hold the wait (and fires at once, again and again).
      const outcome = await new Promise<unknown>((resolve) => {
        warned = resolve;
        client.listActiveOrders().then(resolve, resolve);
      });
      expect(warnings).not.toContain('TimeoutOverflowWarning');
      expect(outcome).toBeInstanceOf(VenueError);
      const refusal = outcome as VenueError;
      expect(refusal.ref).toBe('E0501_RateLimitExceeded');
      // The venue's years are taken as an hour (parseRetryAfter): what remains of that is told, not three years.
      expect(refusal.retryAfterMs).toBeGreaterThan(3_500_000);
      expect(refusal.retryAfterMs).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
      // One request reached the gateway; nothing more was sent while the budget is closed.
      expect(attempts.map((a) => a.outcome)).toEqual(['rate_limited']);
      expect(refusals).toBe(1);
    } finally {
      process.off('warning', onWarning);
      client.dispose();
      gateway.rule = () => 'pass';
    }
  });
});
