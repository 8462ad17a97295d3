// npm run web end to end: the real script on a fresh data folder, the ready line, the one-time token, the
// session cookie, the bridge, and what is refused without them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../eventually';
import { BridgeClient, exchangeToken } from './web-client';

const ROOT = resolve(import.meta.dirname, '../../..');
const READY = /^desk ready at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))$/m;

let child: ChildProcess;
let dataDir: string;
let readyUrl: string;
let origin: string;
let output = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'nova-web-'));
  // Its own process group, so the test stops npm and everything it started by that group's id.
  child = spawn('npm', ['run', '--silent', 'web', '--', '--port', '0', '--data', dataDir], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  readyUrl = await new Promise<string>((resolveReady, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
      const match = READY.exec(output);
      if (match?.[1] !== undefined) resolveReady(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`npm run web exited with ${code}:\n${output}`)));
  });
  origin = new URL(readyUrl).origin;
}, 120_000);

afterAll(async () => {
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function refusedUpgrade(headers: Record<string, string>): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/bridge`, { headers });
    ws.once('unexpected-response', (_req, res) => resolveStatus(res.statusCode ?? 0));
    ws.once('open', () => {
      ws.close();
      reject(new Error('the bridge let the connection in'));
    });
    ws.once('error', () => undefined);
  });
}

describe('npm run web', () => {
  it('prints the ready line with a loopback address and a token', () => {
    expect(output).toMatch(READY);
    expect(readyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=.{32}$/);
  });

  it('refuses a wrong option in one line', async () => {
    const run = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src-main/web/cli.ts'), '--port', 'eighty', '--data', dataDir], { cwd: ROOT });
    let stderr = '';
    run.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise((r) => run.once('exit', r));
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^npm run web: --port must be a whole number from 0 to 65535, not "eighty"$/);
  });

  it('refuses a second desk on the same data folder in one line, leaving the first serving', async () => {
    const run = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src-main/web/cli.ts'), '--port', '0', '--data', dataDir], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (chunk) => (stdout += String(chunk)));
    run.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise((r) => run.once('exit', r));
    expect(code).toBe(1);
    expect(stdout).not.toMatch(READY);
    expect(stderr.trim().split('\n').at(-1)).toBe(`npm run web: another Nova Desk is using the data folder ${dataDir} (its desk.json, keys and local venue): stop that desk first, or give this one another data folder`);
    expect((await fetch(`${origin}/`)).status).toBe(401);
  }, 60_000);

  it('refuses the page and the bridge to whoever has neither token nor session', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/?token=wrong`, { redirect: 'manual' })).status).toBe(403);
    expect(await refusedUpgrade({ origin })).toBe(401);
  });

  it('exchanges the token once for a session, which opens the page and the bridge', async () => {
    const { cookie } = await exchangeToken(readyUrl);
    expect(cookie).toMatch(/^nova_desk_session=/);
    // The token is used up: a second browser (or a link copied from the history) needs a new one.
    expect((await fetch(readyUrl, { redirect: 'manual' })).status).toBe(403);

    const page = await fetch(`${origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    // No other site may frame the desk to steer a trader's clicks.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect((await fetch(`${origin}/../../package.json`, { headers: { cookie } })).status).toBe(404);

    // Another site in the same browser carries the cookie but not our origin.
    expect(await refusedUpgrade({ cookie, origin: 'http://evil.example' })).toBe(403);

    const client = await BridgeClient.open(origin, { cookie, origin });
    expect((await client.value('venue.status')).state).toBe('ready');
    expect((await client.value('environments.list')).active).toBe('local');
    const status = await client.value('connection.status');
    expect(status).toMatchObject({ environment: 'local', state: 'live' });
    expect((await client.value('market.products')).map((p: { id: string }) => p.id)).toContain('BTC-VND');

    const malformed = await client.call('orders.place', { product_id: 'BTC-VND', side: 'BUY', base_size: 1 });
    expect(malformed).toMatchObject({ ok: false, error: { ref: 'E0101_InvalidArgument' } });
    client.sendRaw('not json');
    client.sendRaw(JSON.stringify({ id: 1, method: 'settings.get', extra: true }));
    client.sendRaw(JSON.stringify({ id: { nested: 1 }, method: 'settings.get' }));
    // The connection stays usable after frames it could not read.
    expect((await client.call('settings.get')).ok).toBe(true);
    expect(client.unmatched).toEqual([
      { ok: false, error: { ref: 'E0102_MalformedJson', message: 'E0102_MalformedJson: a bridge frame must be JSON' } },
      { ok: false, error: { ref: 'E0101_InvalidArgument', message: 'E0101_InvalidArgument: a bridge frame is { id, method, request }' } },
      { ok: false, error: { ref: 'E0101_InvalidArgument', message: 'E0101_InvalidArgument: a bridge frame is { id, method, request }' } },
    ]);
    client.close();
  });

  it('stops on SIGTERM and closes its address', async () => {
    const exited = new Promise((r) => child.once('exit', r));
    // The whole group: npm, tsx and the desk's node process, each stopping on its own signal.
    process.kill(-(child.pid ?? 0), 'SIGTERM');
    await exited;
    // npm may exit before the desk's own process has finished its shutdown (store threads, journal): the
    // address must close, not necessarily before npm is gone.
    await eventually(() => fetch(`${origin}/`).then(() => undefined, () => true), 'the address to close', 10_000);
    await expect(fetch(`${origin}/`)).rejects.toThrow();
  });
});
