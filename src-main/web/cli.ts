/**
 * npm run web -- --port <p> --data <dir>: the desk in a browser. The same services as the Electron app, under
 * Node, with the embedded local venue in a worker thread; prints `desk ready at http://127.0.0.1:<p>/?token=<t>`
 * once the address answers. Ctrl-C stops the venue cleanly.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Desk } from '../desk/desk';
import { startEmbeddedVenue } from '../desk/embedded-venue';
import { deskServices } from '../desk/services';
import { openSecretStore } from '../secrets';
import { parseWebArgs } from './args';
import { venueWorkerFromSource } from './typescript-worker';
import { startWebBridge } from './web-bridge';

async function main(): Promise<void> {
  const args = parseWebArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    console.error(`npm run web: ${args}`);
    process.exit(2);
  }
  const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
  if (!existsSync(resolve(rendererDir, 'index.html'))) {
    console.error(`npm run web: the renderer is not built (${rendererDir} has no index.html); run npm run build`);
    process.exit(1);
  }
  const secrets = await openSecretStore();
  if (secrets.notice !== undefined) console.error(`npm run web: ${secrets.notice}`);
  const desk = await Desk.open({
    dataDir: args.dataDir,
    secrets,
    // The worker runs the venue's TypeScript through tsx, as this process does.
    launchLocalVenue: (dataDir) =>
      startEmbeddedVenue(venueWorkerFromSource(), { dataDir }),
  });
  await desk.whenLive().catch((err: unknown) => console.error(`npm run web: not connected yet: ${desk.keys.scrub(err instanceof Error ? err.message : String(err))}`));
  const web = await startWebBridge({ desk, services: deskServices(desk), rendererDir, port: args.port });

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    // A venue whose close failed kept its journal for the next start; the trader is still told, and the exit says so.
    web
      .close()
      .then(() => desk.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(`npm run web: stopping failed: ${desk.keys.scrub(err instanceof Error ? err.message : String(err))}`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`desk ready at ${web.url}`);
}

main().catch((err: unknown) => {
  console.error(`npm run web: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
