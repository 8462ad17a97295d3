// Restart to ready: start the venue (no simulator) on an existing data folder and report, on the ready line,
// how long startVenue took (open, restore, listen) and how long since the process started, in ms; then stop.
import { startVenue } from '../../src-main/venue/server';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('restart-venue.ts needs the data folder');
const begin = performance.now();
const running = await startVenue({ port: 0, dataDir });
const ready = performance.now();
process.stdout.write(`ready ${ready - begin} ${ready}\n`);
await running.close();
