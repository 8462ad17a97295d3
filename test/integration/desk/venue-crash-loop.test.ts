// The embedded venue's worker ending again and again (killed, out of memory) is restarted a few times within a
// minute, then left failed, saying why. It was left 'stopped' with no reason, as if the desk had stopped it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedVenue, type EmbeddedVenue } from '../../../src-main/desk/embedded-venue';
import { venueWorkerFromSource } from '../../../src-main/web/typescript-worker';
import { eventually, removeFolder } from './open-desk';

const dataDir = mkdtempSync(join(tmpdir(), 'nova-crash-loop-'));
let venue: EmbeddedVenue | undefined;

afterAll(async () => {
  await venue?.stop().catch(() => undefined);
  removeFolder(dataDir);
});

describe('the embedded venue ending unasked, again and again', () => {
  it('is left failed once it has ended too often, saying so', async () => {
    const running = startEmbeddedVenue(venueWorkerFromSource(), { dataDir: join(dataDir, 'venue'), simulate: false });
    venue = running;
    await running.ready();
    const states: string[] = [];
    // Five restarts are allowed within the minute; the sixth end is the one left alone.
    for (let ended = 0; ended < 6; ended++) {
      await eventually(() => (running.status().state === 'ready' ? true : undefined), `the venue ready (${ended} ends)`, 60_000);
      await running.terminate();
      const after = await eventually(() => (running.status().state === 'ready' ? undefined : running.status()), 'the venue to notice its worker ended');
      states.push(after.state);
    }
    const last = await eventually(() => (running.status().state === 'starting' ? undefined : running.status()), 'the venue to settle');
    expect(states.slice(0, 5)).toEqual(['starting', 'starting', 'starting', 'starting', 'starting']);
    expect(last.state).toBe('failed');
    expect(last.detail).toMatch(/the local venue stopped unexpectedly too often/);
  }, 120_000);
});
