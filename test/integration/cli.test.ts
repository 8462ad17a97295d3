// `npm run venue` as the venue contract describes it: the listening line, bootstrap.json, exit codes, SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const CLI = join(import.meta.dirname, '../../src-main/venue/cli.ts');

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

function runVenue(args: string[]): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { child, stdout: '', stderr: '', exit: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
  child.stdout?.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

async function listening(run: Run): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const match = /venue listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout);
    if (match?.[1] !== undefined) return match[1];
    if (run.child.exitCode !== null) throw new Error(`venue exited: ${run.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`venue never listened: ${run.stderr}`);
}

describe('npm run venue', () => {
  it('listens on the port it names, writes bootstrap.json 0600, stops on SIGTERM with 0 and resumes on restart', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-cli-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const data = join(folder, 'venue-data');
    const run = runVenue(['--port', '0', '--data', data]);
    const baseUrl = await listening(run);
    const file = join(data, 'bootstrap.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const boot = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(boot).sort()).toEqual(['api_key', 'api_secret', 'base_url', 'user_id', 'ws_url']);
    expect(boot['base_url']).toBe(baseUrl);
    expect(boot['ws_url']).toBe(`${baseUrl.replace('http', 'ws')}/ws`);
    const headers = { 'nova-key': boot['api_key'] ?? '', 'nova-secret': boot['api_secret'] ?? '' };
    const account = (await (await fetch(`${baseUrl}/accounts/${boot['user_id'] ?? ''}`, { headers })).json()) as {
      account: { asset_balances: { asset: string; balance: string }[] };
    };
    expect(account.account.asset_balances.map((b) => [b.asset, b.balance])).toEqual([
      ['BTC', '10'],
      ['ETH', '100'],
      ['SOL', '1000'],
      ['VND', '10000000000'],
    ]);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);

    const again = runVenue(['--port', '0', '--data', data]);
    const secondUrl = await listening(again);
    const boot2 = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(boot2['api_key']).toBe(boot['api_key']);
    expect(boot2['base_url']).toBe(secondUrl);
    const ok = await fetch(`${secondUrl}/accounts/${boot['user_id'] ?? ''}`, { headers });
    expect(ok.status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exit).toBe(0);
  });

  it('exits non-zero with a one-line reason on a bad flag', async () => {
    for (const args of [['--bogus'], ['--port', 'eighty'], ['--port', '70000'], ['--order-rate', '-1']]) {
      const run = runVenue(args);
      expect(await run.exit).not.toBe(0);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^venue: /);
    }
  });

  it('exits non-zero with a one-line reason when the port is busy', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const data = mkdtempSync(join(tmpdir(), 'nova-cli-busy-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const run = runVenue(['--port', String(port), '--data', data]);
    expect(await run.exit).toBe(1);
    expect(run.stderr.trim()).toBe(`venue: port ${port} is busy`);
    blocker.close();
  });
});
