// The About box: what a trader reads out to support. Pure text from what index.ts gathers.
import type { MessageBoxOptions } from 'electron';
import type { VenueStatus } from '../../src-shared/ipc/contract';

export interface AboutFacts {
  readonly appName: string;
  readonly appVersion: string;
  /** process.versions */
  readonly versions: Readonly<Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>>;
  /** The venue API version every environment speaks (the /api/v1 paths). */
  readonly venueApi: string;
  readonly localVenue: VenueStatus;
}

export function aboutBox(facts: AboutFacts): MessageBoxOptions {
  const v = facts.versions;
  const local = facts.localVenue;
  const venue = local.state === 'ready' ? `${local.state} at ${local.baseUrl}${local.simulate ? ', simulated market' : ''}` : local.state;
  return {
    type: 'info',
    title: `About ${facts.appName}`,
    message: `${facts.appName} ${facts.appVersion}`,
    detail: [
      `Electron ${v.electron ?? '?'}`,
      `Chrome ${v.chrome ?? '?'}`,
      `Node ${v.node ?? '?'}`,
      `V8 ${v.v8 ?? '?'}`,
      `Venue API ${facts.venueApi}`,
      `Local venue: ${venue}`,
    ].join('\n'),
    buttons: ['OK'],
    noLink: true,
  };
}
