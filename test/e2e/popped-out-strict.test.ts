/**
 * A popped-out panel keeps talking to the workspace under React's development build, which `npm start` runs:
 * StrictMode mounts, unmounts and mounts every component again at once, and a panel whose channel was made once
 * and closed by that unmount threw on its next post and never answered the workspace again. The other e2e tests
 * drive the production build (npm run web), where this never shows. Needs /usr/bin/chromium.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let outDir: string;
let server: Server;
let url: string;
let browser: Browser;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'nova-strict-page-'));
  await build({
    root: join(import.meta.dirname, 'strict-mode-page'),
    configFile: false,
    logLevel: 'error',
    mode: 'development',
    plugins: [react()],
    // React's development build, as the dev server gives it: the production one never mounts twice.
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
    build: { outDir, emptyOutDir: true, minify: false },
  });
  server = createServer((request, response) => {
    if (request.url === '/blank') return void response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>workspace</title>');
    const path = request.url === '/' || request.url === undefined ? '/index.html' : request.url.split('?')[0] ?? '/index.html';
    readFile(join(outDir, path)).then(
      (body) => response.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}/`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(outDir, { recursive: true, force: true });
});

describe('a popped-out panel under StrictMode (npm start)', () => {
  it('answers the workspace\'s roll-call and docks with its button', { timeout: 60_000 }, async () => {
    // One context: a BroadcastChannel reaches only the pages of its own.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(url);
    await page.getByRole('button', { name: 'Back to workspace' }).waitFor();
    // The workspace's side of the channel: a page of the same origin listening to what the panel says.
    const workspace = await context.newPage();
    await workspace.goto(`${url}blank`);
    await workspace.evaluate(() => {
      const heard: unknown[] = [];
      const channel = new BroadcastChannel('nova-desk-workspace');
      channel.onmessage = (e: MessageEvent) => heard.push(e.data);
      Object.assign(window, { heard, channel });
      channel.postMessage({ type: 'roll-call' });
    });
    const heard = (): Promise<unknown[]> => workspace.evaluate(() => (window as unknown as { heard: unknown[] }).heard);
    await expect.poll(heard, { timeout: 5_000 }).toContainEqual({ type: 'popped', id: 'p1' });

    await page.getByRole('button', { name: 'Back to workspace' }).click();
    await expect.poll(heard, { timeout: 5_000 }).toContainEqual({ type: 'dock', id: 'p1' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
