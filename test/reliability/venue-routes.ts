/**
 * Every REST route the venue serves, read from the venue's own Fastify app rather than listed by hand, so a
 * route added later is in every test that walks them.
 */
import { buildHttpApi } from '../../src-main/venue/api/http-api';
import { RateLimiter } from '../../src-main/venue/api/rate-limit';
import { MarketSimulator } from '../../src-main/venue/sim/market-simulator';
import type { Venue } from '../../src-main/venue/venue';

export interface Route {
  readonly method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** As registered, with `:name` path parameters. */
  readonly path: string;
}

/**
 * The routes of the app the server builds over this venue (with the simulator's controls when
 * `withSimulator`). HEAD routes are left out: Fastify adds one to each GET, answered by the same handler.
 */
export async function venueRoutes(venue: Venue, withSimulator: boolean): Promise<Route[]> {
  const app = buildHttpApi(venue, {
    requestLimit: new RateLimiter(0),
    orderLimit: new RateLimiter(0),
    ...(withSimulator ? { simulator: new MarketSimulator(venue, { seed: 1 }) } : {}),
  });
  try {
    await app.ready();
    return parseRouteTree(app.printRoutes({ commonPrefix: false }));
  } finally {
    await app.close();
  }
}

/**
 * Fastify's route tree, one segment a line, four columns an indentation level:
 *
 *     ├── /api/v1/orders (POST)
 *     │   ├── /active (GET, HEAD, DELETE)
 */
export function parseRouteTree(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line.trimEnd());
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method === '' || method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method: method as Route['method'], path: stack.join('') });
    }
  }
  return routes;
}
