/**
 * The market simulator's controls under /sim (admin key required, like every /sim endpoint): status, pause,
 * resume, speed, volatility and a product's reference price. Every answer is the simulator's status. Bodies are
 * parsed from unknown; a bad one is the API's error object, which the app's error handler renders.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shapeError } from '../../../src-shared/protocol/shape';
import { access } from './access';
import type { MarketSimulator } from '../sim/market-simulator';

const SpeedBody = z.object({ speed: z.number() });
const VolatilityBody = z.object({ volatility: z.number() });
const ReferencePriceBody = z.object({ product_id: z.string(), price: z.string() });

/** The shape here; the ranges and the price's increments are the simulator's to check (E0110, E0104, E0101). */
function parse<T>(shape: z.ZodType<T>, body: unknown): T {
  const parsed = shape.safeParse(body);
  if (!parsed.success) throw shapeError(parsed.error, body);
  return parsed.data;
}

/** Only the venue admin's key reaches these; reading the status is a read, the rest need a key that may trade. */
export function registerSimControls(app: FastifyInstance, sim: MarketSimulator): void {
  app.get('/sim/status', access('admin-read'), () => {
    return Promise.resolve(sim.status());
  });

  app.post('/sim/pause', access('admin-trade'), () => {
    return sim.pause().then(() => sim.status());
  });

  app.post('/sim/resume', access('admin-trade'), () => {
    return sim.resume().then(() => sim.status());
  });

  app.post('/sim/speed', access('admin-trade'), (request) => {
    return sim.setSpeed(parse(SpeedBody, request.body).speed).then(() => sim.status());
  });

  app.post('/sim/volatility', access('admin-trade'), (request) => {
    return sim.setVolatility(parse(VolatilityBody, request.body).volatility).then(() => sim.status());
  });

  app.post('/sim/reference-price', access('admin-trade'), (request) => {
    const body = parse(ReferencePriceBody, request.body);
    return sim.setReferencePrice(body.product_id, body.price).then(() => sim.status());
  });
}
