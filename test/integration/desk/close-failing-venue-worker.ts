// The venue's real worker entry with one fault injected: closing the venue fails (as a flush to a full disk
// would), after the real close has run, so the folder is still left free. Used by venue-close-fails.test.ts
// through ts-worker-loader.mjs.
import { Venue } from '../../../src-main/venue/venue';

const { close } = Object.getOwnPropertyDescriptors(Venue.prototype);
const closeFirst = close?.value as Venue['close'];
Venue.prototype.close = async function (this: Venue): Promise<void> {
  await closeFirst.apply(this);
  throw new Error('injected: the final flush failed');
};

await import('../../../src-main/venue/worker');
