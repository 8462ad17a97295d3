// A venue that cannot write bootstrap.json (a folder in its place, a file it may not write) fails to start, and
// lets go of what it had opened: the port it listened on and the data folder. It kept both, so the desk's next
// start on the folder was refused as "another venue is running" while the failed one served on, unreported.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startVenue } from '../../src-main/venue/server';
import { refused } from './raw-http';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-bootstrap-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));


async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('fails to start, closing its port and freeing its folder, when bootstrap.json cannot be written', async () => {
  fs.mkdirSync(path.join(dataDir, 'bootstrap.json'));
  const port = await freePort();
  await expect(startVenue({ port, dataDir })).rejects.toThrow(/bootstrap\.json/);
  expect(await refused(port)).toBe(true);

  fs.rmdirSync(path.join(dataDir, 'bootstrap.json'));
  const running = await startVenue({ port: 0, dataDir });
  try {
    expect((await fetch(`${running.baseUrl}/products`)).status).toBe(200);
  } finally {
    await running.close();
  }
});
