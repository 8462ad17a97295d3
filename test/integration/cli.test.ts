// `npm run venue` as the venue contract describes it: the listening line, bootstrap.json, exit codes, SIGTERM.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listening, runVenue } from './venue-process';

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

  it('names what is wrong: a flag given twice, a whole number out of range', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'abc', '--port', '0'], /^venue: --port is given more than once$/],
      [['--seed', '2147483649'], /^venue: --seed must be between 0 and 2147483648$/],
      [['--order-rate', '99999999999'], /^venue: --order-rate must be between 0 and \d+$/],
    ];
    for (const [args, reason] of cases) {
      const run = runVenue(args);
      expect(await run.exit).toBe(2);
      expect(run.stderr.trim()).toMatch(reason);
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

    // That first start made the local user before the port refused it: the next start still hands it over.
    const again = runVenue(['--port', '0', '--data', data]);
    const baseUrl = await listening(again);
    const boot = JSON.parse(readFileSync(join(data, 'bootstrap.json'), 'utf8')) as Record<string, string>;
    const reply = await fetch(`${baseUrl}/accounts/${boot['user_id'] ?? ''}`, { headers: { 'nova-key': boot['api_key'] ?? '', 'nova-secret': boot['api_secret'] ?? '' } });
    expect(reply.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });

  it('refuses a second venue on a folder in use, and a used folder whose venue.key is gone', async () => {
    const data = mkdtempSync(join(tmpdir(), 'nova-cli-folder-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const first = runVenue(['--port', '0', '--data', data]);
    const baseUrl = await listening(first);
    const second = runVenue(['--port', '0', '--data', data]);
    expect(await second.exit).toBe(1);
    expect(second.stderr.trim()).toBe(`venue: another venue is running on ${data}: stop it first, or start this one on another folder`);
    expect((await fetch(`${baseUrl}/products`)).status, 'the first still serves').toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    // Without its master key the folder's secrets cannot be derived: a new key would make every one wrong.
    const bootstrap = readFileSync(join(data, 'bootstrap.json'), 'utf8');
    rmSync(join(data, 'venue.key'));
    const keyless = runVenue(['--port', '0', '--data', data]);
    expect(await keyless.exit).toBe(1);
    expect(keyless.stderr.trim().split('\n')).toHaveLength(1);
    expect(keyless.stderr).toMatch(/venue\.key is missing/);
    expect(readFileSync(join(data, 'bootstrap.json'), 'utf8'), 'bootstrap.json untouched').toBe(bootstrap);
    expect(existsSync(join(data, 'venue.key')), 'no new key left behind').toBe(false);
  });

  it('on SIGTERM stops within its grace even while a client has sent half a request', async () => {
    const data = mkdtempSync(join(tmpdir(), 'nova-cli-stall-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const run = runVenue(['--port', '0', '--data', data]);
    const url = new URL(await listening(run));
    const stalled = connect(Number(url.port), '127.0.0.1');
    onTestFinished(() => {
      stalled.destroy();
    });
    await new Promise<void>((resolve) => stalled.once('connect', resolve));
    // The headers promise 50 bytes of body; 5 come, then nothing.
    stalled.write('POST /sim/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"bal');
    stalled.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('prints its usage with --help and exits 0', async () => {
    const run = runVenue(['--help']);
    expect(await run.exit).toBe(0);
    expect(run.stdout).toMatch(/^usage: npm run venue -- /);
    expect(run.stdout).toMatch(/--simulate/);
  });

  it('with --simulate opens books that have both sides', async () => {
    const data = mkdtempSync(join(tmpdir(), 'nova-cli-sim-'));
    onTestFinished(() => rmSync(data, { recursive: true, force: true }));
    const run = runVenue(['--port', '0', '--data', data, '--simulate']);
    const baseUrl = await listening(run);
    // The simulator quotes at its first step, a tick after the venue listens.
    const sides = async (product: string) => {
      const { orderbook } = (await (await fetch(`${baseUrl}/products/${product}/orderbook`)).json()) as { orderbook: { bids: unknown[]; asks: unknown[] } };
      return { bids: orderbook.bids.length > 0, asks: orderbook.asks.length > 0 };
    };
    for (const product of ['BTC-VND', 'ETH-VND', 'SOL-VND']) {
      let seen = await sides(product);
      for (let i = 0; i < 100 && !(seen.bids && seen.asks); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await sides(product);
      }
      expect(seen, product).toEqual({ bids: true, asks: true });
    }
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('refuses at start, naming the place, a data folder or journal folder it cannot write', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'nova-cli-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const data = join(folder, 'venue-data');
    const first = runVenue(['--port', '0', '--data', data]);
    await listening(first);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
    // Root writes anywhere: as root the venue runs as nobody, on a folder that nobody owns.
    const asRoot = process.getuid?.() === 0;
    const owner = asRoot ? { uid: 65534, gid: 65534 } : {};
    if (asRoot) execFileSync('chown', ['-R', '65534:65534', folder]);
    const refusal = async (): Promise<string> => {
      const run = runVenue(['--port', '0', '--data', data], owner);
      expect(await run.exit).toBe(1);
      return run.stderr;
    };

    const journal = join(data, 'venue.sqlite.journal');
    chmodSync(journal, 0o555);
    expect(await refusal()).toMatch(`the journal folder ${journal} cannot be written`);
    chmodSync(journal, 0o755);
    chmodSync(data, 0o555);
    expect(await refusal()).toMatch(`the data folder ${data} cannot be locked for this venue`);
    chmodSync(data, 0o755);
    const again = runVenue(['--port', '0', '--data', data], owner);
    await listening(again);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });
});

