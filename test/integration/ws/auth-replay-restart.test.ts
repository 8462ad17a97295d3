// A WebSocket auth frame is good once (interface 4.12: a replayed signature is refused). The venue remembered the
// signatures it had taken only in memory, so one captured before a restart signed in again right after it, for as
// long as its timestamp stayed inside the window (30 s). Here the frame is replayed after a clean restart and after
// a kill, on the same folder, and must be refused as it is before a restart.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startVenue } from '../../../src-main/venue/server';
import { TestSocket, signature, type Frame } from './ws-client';
import { limitData, px } from './ws-venue';

const CLI = join(import.meta.dirname, '../../../src-main/venue/cli.ts');

interface Boot {
  api_key: string;
  api_secret: string;
  ws_url: string;
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nova-ws-replay-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function bootOf(dataDir: string): Boot {
  return JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Boot;
}

function authFrame(boot: Boot, timestamp: number): Frame {
  return { op: 'auth', data: { key: boot.api_key, timestamp, signature: signature(boot.api_key, boot.api_secret, timestamp) } };
}

/** The answer to `frame` on a new connection, which is then closed. */
async function answer(wsUrl: string, frame: Frame): Promise<Frame> {
  const socket = await TestSocket.open(wsUrl);
  try {
    const reply = await socket.request(frame);
    expect(socket.invalid).toEqual([]);
    return reply;
  } finally {
    socket.close();
  }
}

const now = (): number => Math.floor(Date.now() / 1000);

describe('a used WebSocket auth signature', () => {
  it('is refused after a restart on the same folder, as before it', async () => {
    const dataDir = folder();
    let running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    onTestFinished(() => running.close());
    const boot = bootOf(dataDir);
    const signedAt = now();
    const frame = authFrame(boot, signedAt);
    expect(await answer(running.wsUrl, frame)).toMatchObject({ channel: 'auth', type: 'authenticated' });
    const before = await answer(running.wsUrl, frame);
    expect(before).toMatchObject({ channel: 'auth', type: 'error', code: 401 });

    await running.close();
    running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    const after = await answer(running.wsUrl, frame);
    expect({ ...after, request_id: undefined }).toEqual({ ...before, request_id: undefined });
    // Another second's signature of the same key still signs in. The second before the used one, not now() - 1:
    // a restart that takes a second made that the used second itself (CI failed so once).
    expect(await answer(running.wsUrl, authFrame(boot, signedAt - 1))).toMatchObject({ channel: 'auth', type: 'authenticated' });
  });

  it('is refused after the venue was killed once it answered authenticated', async () => {
    const data = join(folder(), 'venue-data');
    const start = async (): Promise<{ wsUrl: string; kill: () => Promise<void> }> => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      onTestFinished(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /venue listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', () => reject(new Error(`venue exited: ${err}`)));
      });
      return {
        wsUrl: `${baseUrl.replace('http', 'ws')}/ws`,
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      };
    };
    const first = await start();
    const boot = bootOf(data);
    const frame = authFrame(boot, now());
    expect(await answer(first.wsUrl, frame)).toMatchObject({ channel: 'auth', type: 'authenticated' });
    await first.kill();

    const second = await start();
    const after = await answer(second.wsUrl, frame);
    expect(after).toMatchObject({ channel: 'auth', type: 'error', code: 401 });
    expect(after['message']).toContain('signature already used');
  });
});

describe('an auth answered once its signature is kept', () => {
  it('still lets a frame sent right behind it, before its answer, act as its key', async () => {
    const dataDir = folder();
    const running = await startVenue({ port: 0, dataDir, orderRate: 0, requestRate: 0 });
    onTestFinished(() => running.close());
    const socket = await TestSocket.open(running.wsUrl);
    onTestFinished(() => socket.close());
    socket.send({ ...authFrame(bootOf(dataDir), now()), request_id: 'auth' });
    socket.send({ op: 'create_order', request_id: 'order', data: limitData('buy', px(-500), '0.001') });
    await socket.next((f) => f['request_id'] === 'auth');
    const placed = await socket.next((f) => f['request_id'] === 'order' || (Array.isArray(f['data']) && (f['data'] as Frame[]).some((o) => o['request_id'] === 'order')));
    expect(placed['type'], JSON.stringify(placed)).toBe('update');
    expect(socket.frames.find((f) => f['request_id'] === 'auth')).toMatchObject({ channel: 'auth', type: 'authenticated' });
    expect(socket.invalid).toEqual([]);
  });
});
