// The connection tests' usual ground: the real local venue, a funded trader on it, and a real HTTP gateway in front
// of it that the test's rule can make fail the way gateways do. Made before the file's tests, gone after them.
import { afterAll, beforeAll } from 'vitest';
import { openHttpGateway, type HttpGateway } from '../desk/http-gateway';
import { LocalVenue, type Account } from './local-venue';

export interface VenueBehindGateway {
  readonly venue: LocalVenue;
  readonly trader: Account;
  readonly gateway: HttpGateway;
}

/**
 * Registers the file's hooks that make and remove them; `take` is handed them once they are up, before any
 * beforeAll the file registers after this call (and its afterAll hooks run before they are removed).
 */
export function venueBehindGateway(take: (made: VenueBehindGateway) => void): void {
  let made: VenueBehindGateway | undefined;
  beforeAll(async () => {
    const venue = await LocalVenue.start();
    made = { venue, trader: await venue.newAccount(), gateway: await openHttpGateway(venue.port) };
    take(made);
  });
  afterAll(async () => {
    await made?.gateway.close();
    await made?.venue.dispose();
  });
}
