// Entry of the venue's worker thread inside the desk: start the venue on a free loopback port, report, stop on request.
import { parentPort, workerData } from 'node:worker_threads';
import { startVenue } from './server';
import type { WorkerCommand, WorkerOptions, WorkerReport } from './worker-protocol';

const options = workerData as WorkerOptions;
const port = parentPort;
if (port === null) throw new Error('venue worker started outside a worker thread');
const report = (message: WorkerReport): void => port.postMessage(message);

// The desk takes the local user's credentials from the ready report, so bootstrap.json holds no secret.
// A halted venue (a commit failed) ends this thread: the desk's supervisor starts it again on the same folder,
// which resumes from exactly what was committed.
const onHalt = (reason: Error): void => {
  process.stderr.write(`${reason.message}\n`);
  process.exit(1);
};

startVenue({ port: options.port ?? 0, dataDir: options.dataDir, simulate: options.simulate, nativeBinding: options.nativeBinding, secretInBootstrap: false, onHalt })
  .then((venue) => {
    report({ type: 'ready', baseUrl: venue.baseUrl, wsUrl: venue.wsUrl, local: venue.venue.localCredentials() });
    port.on('message', (command: WorkerCommand) => {
      if (command.type === 'stop') {
        venue.close().then(
          () => {
            report({ type: 'stopped' });
            port.close();
          },
          (err: unknown) => {
            // The desk waits for this report, and should learn what failed: the journal lets the next start
            // apply what the close could not flush. What the failed close left open must not keep the thread.
            report({ type: 'stopped', error: err instanceof Error ? err.message : String(err) });
            process.exit(1);
          },
        );
      }
    });
  })
  .catch((err: unknown) => {
    report({ type: 'failed', reason: err instanceof Error ? err.message : String(err) });
    port.close();
  });
