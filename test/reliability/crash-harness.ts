/**
 * Crash recovery of the local venue: run it as a child process under mixed REST and WebSocket load, SIGKILL it at
 * a random moment, check the database exactly as the kill left it, restart on the same folder and check again
 * through the API. Cycle after cycle.
 *
 * What "never creates a second" means for an order whose answer never came: after the restart the harness looks
 * the client_order_id up first, as the desk client does. Absent: it resends, and afterwards exactly one order has
 * that id. Present and still working: it resends anyway, and the venue must refuse with E0303 (the id is taken
 * while open). Present and done: the id is free again on the venue, so a blind resend WOULD make a second order;
 * the desk does not resend, and neither does the harness.
 *
 * Failures are collected, not thrown, so a long run reports every broken cycle; the venue's stderr of a failed
 * cycle is kept in the failure text.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { PRODUCTS, findAsset } from '../../src-shared/protocol/products';
import { journalFolder, readJournal } from '../../src-main/venue/store/journal-file';
import { parseJournalEntry } from '../../src-main/venue/store/merged-changes';
import { FEE_ACCOUNT_ID } from '../../src-main/venue/exchange/exchange';
import { SeededRandom } from '../../src-shared/seeded-random';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(REPO_ROOT, 'src-main/venue/cli.ts');
const USER_FUNDS: Readonly<Record<string, string>> = { BTC: '100', ETH: '1000', SOL: '10000', VND: '1000000000000' };

export interface CrashRunOptions {
  readonly cycles: number;
  readonly seed?: number;
  readonly users?: number;
  readonly restClients?: number;
  readonly wsClients?: number;
  /** The kill lands at a uniformly random moment of [minLoadMs, maxLoadMs] after the load starts. */
  readonly minLoadMs?: number;
  readonly maxLoadMs?: number;
  readonly log?: (line: string) => void;
}

export interface CycleReport {
  readonly cycle: number;
  /** Spawn to the `venue listening` line of the restart that followed this cycle's kill. */
  readonly readyMs: number;
  readonly killedAfterMs: number;
  readonly acknowledged: number;
  /** Of `acknowledged`, those placed over the WebSocket. */
  readonly acknowledgedOverWebSocket: number;
  readonly unanswered: number;
  /** Unanswered orders the lookup found absent and the harness resent. */
  readonly resent: number;
  readonly failures: readonly string[];
}

export interface CrashRunReport {
  readonly cycles: readonly CycleReport[];
  readonly firstStartMs: number;
  readonly acknowledged: number;
  readonly acknowledgedOverWebSocket: number;
  readonly unanswered: number;
  readonly resent: number;
  readonly failures: readonly string[];
}

interface Trader {
  readonly userId: string;
  readonly key: string;
  readonly secret: string;
}

/** One order the harness sent, by client_order_id. */
interface Sent {
  readonly trader: number;
  readonly body: Record<string, unknown>;
  /** The venue's order id once an answer carried it; undefined while unanswered. */
  orderId?: string;
}

interface Venue {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly stderr: () => string;
  readonly exited: Promise<void>;
}


/** A wire decimal as a whole count of 10^-decimals, exactly. */
export function toAtoms(text: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  if (fraction.replace(/0+$/, '').length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  return BigInt((match[1] ?? '0') + fraction.padEnd(decimals, '0').slice(0, decimals));
}

function startVenue(dataDir: string): Promise<{ venue: Venue; readyMs: number }> {
  const started = performance.now();
  // node itself, not npm or the tsx binary, so that SIGKILL hits the venue process and nothing in between.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, '--port', '0', '--data', dataDir, '--order-rate', '0', '--request-rate', '0'],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /venue listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1] === undefined) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ venue: { child, baseUrl: match[1], stderr: () => stderr, exited }, readyMs: performance.now() - started });
    });
    void exited.then(() => reject(new Error(`venue exited before it was ready: ${stderr.trim()}`)));
  });
}

async function kill(venue: Venue): Promise<void> {
  venue.child.kill('SIGKILL');
  await venue.exited;
}

async function call(baseUrl: string, method: string, urlPath: string, trader?: Trader, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(urlPath, baseUrl), {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(trader === undefined ? {} : { 'NOVA-KEY': trader.key, 'NOVA-SECRET': trader.secret }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

interface FileView {
  readonly integrity: string;
  /** client_order_id → order ids, per user id, for orders created at or after `since`. */
  readonly ordersByClientId: Map<string, string[]>;
  /** Sum of free + locked over every account, by asset, in atoms. */
  readonly totals: Map<string, bigint>;
  /** Per user and asset, free + locked in atoms. */
  readonly balances: Map<string, Map<string, bigint>>;
  /** Users other than the fee account that no API key reaches: /sim/users must never leave one. */
  readonly keyless: string[];
}

/**
 * The database as the venue left it: the tables with the pending journal laid over them (the venue applies the
 * journal on open; until then the tables alone are behind by design). Read-only, so nothing is recovered or
 * checkpointed by looking.
 */
function readFile(dataDir: string, since: bigint): FileView {
  const file = path.join(dataDir, 'venue.sqlite');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.defaultSafeIntegers(true);
    const integrity = (db.prepare('PRAGMA integrity_check').pluck().all() as string[]).join('; ');
    const read = db.transaction(() => {
      const orders = new Map<string, { userId: string; clientOrderId: string }>();
      for (const row of db.prepare('SELECT order_id, user_id, client_order_id FROM orders WHERE created_at >= ?').iterate(since)) {
        const r = row as { order_id: string; user_id: string; client_order_id: string };
        orders.set(r.order_id, { userId: r.user_id, clientOrderId: r.client_order_id });
      }
      const balances = new Map<string, Map<string, bigint>>();
      const setBalance = (userId: string, asset: string, amount: bigint): void => {
        const user = balances.get(userId) ?? new Map<string, bigint>();
        user.set(asset, amount);
        balances.set(userId, user);
      };
      for (const row of db.prepare('SELECT user_id, asset, free, locked FROM balances').iterate()) {
        const r = row as { user_id: string; asset: string; free: bigint; locked: bigint };
        setBalance(r.user_id, r.asset, r.free + r.locked);
      }
      const users = new Set(db.prepare('SELECT id FROM users').pluck().all() as string[]);
      const keyOwners = new Set(db.prepare('SELECT user_id FROM api_keys').pluck().all() as string[]);
      const position = Number(db.prepare('SELECT through FROM journal_position').pluck().get());
      for (const record of readJournal(journalFolder(file), { repair: false, after: position })) {
        const entry = parseJournalEntry(record.seq, record.text);
        for (const u of entry.users) users.add(u[0]);
        for (const k of entry.apiKeys) keyOwners.add(k[1]);
        for (const o of entry.orders) {
          if (BigInt(o[6]) >= since) orders.set(o[1], { userId: o[2], clientOrderId: o[3] });
        }
        for (const b of entry.balances) setBalance(b[0], b[1], BigInt(b[2]) + BigInt(b[3]));
      }
      const keyless = [...users].filter((id) => id !== FEE_ACCOUNT_ID && !keyOwners.has(id));
      return { orders, balances, keyless };
    });
    const { orders, balances, keyless } = read();
    const ordersByClientId = new Map<string, string[]>();
    for (const [orderId, o] of orders) {
      const key = `${o.userId}/${o.clientOrderId}`;
      ordersByClientId.set(key, [...(ordersByClientId.get(key) ?? []), orderId]);
    }
    const totals = new Map<string, bigint>();
    for (const user of balances.values()) for (const [asset, amount] of user) totals.set(asset, (totals.get(asset) ?? 0n) + amount);
    return { integrity, ordersByClientId, totals, balances, keyless };
  } finally {
    db.close();
  }
}

function sameTotals(expected: Map<string, bigint>, actual: Map<string, bigint>): string | undefined {
  for (const asset of new Set([...expected.keys(), ...actual.keys()])) {
    const want = expected.get(asset) ?? 0n;
    const got = actual.get(asset) ?? 0n;
    if (want !== got) return `${asset} total is ${got} atoms, deposits were ${want} (difference ${got - want})`;
  }
  return undefined;
}

/** The order a client could send next: resting and crossing limits around the reference price, and markets. */
function randomOrder(random: () => number): Record<string, unknown> {
  const product = PRODUCTS[Math.floor(random() * 2)] ?? PRODUCTS[0]!;
  const tick = toAtoms(product.priceIncrement, 8);
  const lot = toAtoms(product.sizeIncrement, 8);
  const reference = toAtoms(product.referencePrice, 8) / tick;
  const side = random() < 0.5 ? 'BUY' : 'SELL';
  const lots = BigInt(1 + Math.floor(random() * 20)) * (toAtoms(product.minSize, 8) / lot);
  const size = formatAtoms(lots * lot, 8);
  if (random() < 0.2) return { product_id: product.id, type: 'MARKET', side, base_size: size };
  const offset = BigInt(Math.floor(random() * 11) - 5);
  return { product_id: product.id, type: 'LIMIT', side, limit_price: formatAtoms((reference + offset) * tick, 8), base_size: size };
}

function formatAtoms(atoms: bigint, decimals: number): string {
  const text = atoms.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, -decimals);
  const fraction = text.slice(-decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function wsOrder(body: Record<string, unknown>): Record<string, unknown> {
  return {
    product_id: body.product_id,
    type: String(body.type).toLowerCase(),
    side: String(body.side).toLowerCase(),
    size: body.base_size,
    ...(body.limit_price === undefined ? {} : { price: body.limit_price }),
    client_order_id: body.client_order_id,
  };
}

export async function runCrashCycles(options: CrashRunOptions): Promise<CrashRunReport> {
  // Seeded, so a failing run's choices can be replayed with its seed.
  const stream = new SeededRandom(options.seed ?? 1);
  const random = (): number => stream.next();
  const log = options.log ?? (() => undefined);
  const minLoad = options.minLoadMs ?? 100;
  const maxLoad = options.maxLoadMs ?? 600;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nova-crash-'));
  const runId = Date.now().toString(36);
  const failures: string[] = [];
  const reports: CycleReport[] = [];
  const usedSeconds = new Map<string, Set<number>>();

  const first = await startVenue(dataDir);
  let venue = first.venue;
  try {
    const boot = JSON.parse(fs.readFileSync(path.join(dataDir, 'bootstrap.json'), 'utf8')) as { user_id: string; api_key: string; api_secret: string };
    const admin: Trader = { userId: boot.user_id, key: boot.api_key, secret: boot.api_secret };
    const traders: Trader[] = [];
    for (let i = 0; i < (options.users ?? 4); i++) {
      const made = await call(venue.baseUrl, 'POST', '/sim/users', admin, { balances: USER_FUNDS });
      if (made.status !== 200) throw new Error(`POST /sim/users answered ${made.status}: ${JSON.stringify(made.body)}`);
      traders.push({ userId: made.body.user_id, key: made.body.api_key.api_key, secret: made.body.api_key.api_secret });
    }
    // Deposits are done: from here every asset's total over all accounts must stay exactly this.
    const deposited = readFile(dataDir, 0n).totals;

    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      const cycleFailures: string[] = [];
      const fail = (why: string): void => {
        cycleFailures.push(`cycle ${cycle}: ${why}`);
      };
      const since = BigInt(Date.now() - 1000) * 1_000_000n;
      const ledger = new Map<string, Sent>();
      const unanswered = new Set<string>();
      let serial = 0;
      let acknowledgedOverWebSocket = 0;
      const nextClientId = (): string => `c${runId}-${cycle}-${serial++}`;
      let killed = false;

      const restClient = async (): Promise<void> => {
        const baseUrl = venue.baseUrl;
        while (!killed) {
          const traderIndex = Math.floor(random() * traders.length);
          const trader = traders[traderIndex]!;
          if (random() < 0.15) {
            const known = [...ledger.entries()].filter(([, s]) => s.trader === traderIndex && s.orderId !== undefined);
            const target = known[Math.floor(random() * known.length)];
            if (target !== undefined) {
              // A cancel's outcome is not tracked: the order's record after the restart says what happened.
              await call(baseUrl, 'DELETE', `/api/v1/order/active?client_order_id=${target[0]}`, trader).catch(() => undefined);
              continue;
            }
          }
          const clientOrderId = nextClientId();
          const body = { ...randomOrder(random), client_order_id: clientOrderId, ...(random() < 0.5 ? { wait: true } : {}) };
          const sent: Sent = { trader: traderIndex, body };
          ledger.set(clientOrderId, sent);
          unanswered.add(clientOrderId);
          try {
            const reply = await call(baseUrl, 'POST', '/api/v1/orders', trader, body);
            unanswered.delete(clientOrderId);
            if (reply.status === 200) sent.orderId = reply.body.order.order_id;
            else fail(`POST ${JSON.stringify(body)} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
          } catch {
            // No answer: the kill came first. Stays in `unanswered`.
          }
        }
      };

      const wsClient = async (traderIndex: number): Promise<void> => {
        const trader = traders[traderIndex]!;
        const used = usedSeconds.get(trader.key) ?? new Set<number>();
        usedSeconds.set(trader.key, used);
        // A signature is accepted once: each connection of a key signs a second no earlier one used.
        let timestamp = Math.floor(Date.now() / 1000);
        while (used.has(timestamp)) timestamp--;
        used.add(timestamp);
        const socket = new WebSocket(venue.baseUrl.replace('http://', 'ws://') + '/ws');
        const waiting = new Map<string, (frame: any) => void>();
        const closed = new Promise<void>((resolve) => {
          socket.on('close', () => resolve());
          socket.on('error', () => resolve());
        });
        socket.on('message', (data: Buffer) => {
          const frame = JSON.parse(data.toString('utf8'));
          const id = frame.request_id ?? frame.data?.[0]?.client_order_id;
          const resolve = typeof id === 'string' ? waiting.get(id) : undefined;
          if (resolve === undefined) return;
          // An order the engine refused gets both an update and an error event, in either order: the update is
          // the acknowledgement, so an error only answers if no update follows it shortly.
          if (frame.type === 'error') setTimeout(() => resolve(frame), 200);
          else resolve(frame);
        });
        const answer = (id: string): Promise<any> =>
          Promise.race([
            new Promise<any>((resolve) => waiting.set(id, resolve)),
            closed.then(() => undefined),
          ]).finally(() => waiting.delete(id));
        await Promise.race([new Promise<void>((resolve) => socket.once('open', () => resolve())), closed]);
        if (socket.readyState !== WebSocket.OPEN) return;
        const signature = createHmac('sha256', trader.secret).update(`${trader.key},${timestamp}`).digest('hex');
        const authId = `auth-${cycle}-${traderIndex}`;
        const authed = answer(authId);
        socket.send(JSON.stringify({ op: 'auth', request_id: authId, data: { key: trader.key, timestamp, signature } }));
        const auth = await authed;
        if (auth === undefined) return;
        if (auth.type !== 'authenticated') {
          fail(`WebSocket auth refused: ${JSON.stringify(auth)}`);
          socket.close();
          return;
        }
        while (!killed && socket.readyState === WebSocket.OPEN) {
          const clientOrderId = nextClientId();
          const body = { ...randomOrder(random), client_order_id: clientOrderId };
          const sent: Sent = { trader: traderIndex, body };
          ledger.set(clientOrderId, sent);
          unanswered.add(clientOrderId);
          const answered = answer(clientOrderId);
          socket.send(JSON.stringify({ op: 'create_order', request_id: clientOrderId, data: wsOrder(body) }));
          const frame = await answered;
          if (frame === undefined) break;
          unanswered.delete(clientOrderId);
          if (frame.type === 'update') {
            sent.orderId = frame.data[0].id;
            acknowledgedOverWebSocket++;
          }
          else fail(`WebSocket create_order ${JSON.stringify(body)} refused: ${JSON.stringify(frame)}`);
        }
        socket.terminate();
      };

      // Opens accounts without funds (the totals stay the deposits'), each to be stored with its key or not at all.
      const accountClient = async (): Promise<void> => {
        const baseUrl = venue.baseUrl;
        while (!killed) await call(baseUrl, 'POST', '/sim/users', admin, { balances: {} }).catch(() => undefined);
      };

      const killAfter = minLoad + random() * (maxLoad - minLoad);
      const clients = [
        accountClient(),
        ...Array.from({ length: options.restClients ?? 4 }, () => restClient()),
        ...Array.from({ length: options.wsClients ?? 2 }, (_, i) => wsClient((cycle + i) % traders.length)),
      ];
      await new Promise((resolve) => setTimeout(resolve, killAfter));
      const venueErrors = venue.stderr();
      // Clients stop at once: what they have in flight now is what the kill leaves unanswered.
      killed = true;
      await kill(venue);
      await Promise.all(clients);
      const acknowledged = [...ledger.values()].filter((s) => s.orderId !== undefined).length;
      if (venueErrors.trim() !== '') fail(`venue wrote to stderr before the kill: ${venueErrors.trim()}`);

      // The file exactly as the kill left it.
      const file = readFile(dataDir, since);
      if (file.integrity !== 'ok') fail(`PRAGMA integrity_check after the kill: ${file.integrity}`);
      const userIdOf = (s: Sent): string => traders[s.trader]!.userId;
      for (const [clientOrderId, sent] of ledger) {
        if (sent.orderId === undefined) continue;
        const found = file.ordersByClientId.get(`${userIdOf(sent)}/${clientOrderId}`) ?? [];
        if (found.length !== 1 || found[0] !== sent.orderId) {
          fail(`acknowledged order ${clientOrderId} (${sent.orderId}) is in the killed database as [${found.join(', ')}]`);
        }
      }
      for (const clientOrderId of unanswered) {
        const found = file.ordersByClientId.get(`${userIdOf(ledger.get(clientOrderId)!)}/${clientOrderId}`) ?? [];
        if (found.length > 1) fail(`unanswered order ${clientOrderId} is in the killed database ${found.length} times`);
      }
      const fileTotals = sameTotals(deposited, file.totals);
      if (fileTotals !== undefined) fail(`killed database: ${fileTotals}`);
      if (file.keyless.length > 0) fail(`killed database: users without an API key: ${file.keyless.join(', ')}`);

      const restarted = await startVenue(dataDir).catch((err: unknown) => {
        throw new Error(`cycle ${cycle}: restart failed: ${err instanceof Error ? err.message : String(err)}`);
      });
      venue = restarted.venue;
      const baseUrl = venue.baseUrl;

      // Unanswered orders: look up, then resend only what is absent or still working (see the header).
      let resent = 0;
      for (const clientOrderId of unanswered) {
        const sent = ledger.get(clientOrderId)!;
        const trader = traders[sent.trader]!;
        const lookup = await call(baseUrl, 'GET', `/api/v1/order/archived?order=${clientOrderId}`, trader);
        if (lookup.status === 404) {
          const retry = await call(baseUrl, 'POST', '/api/v1/orders', trader, { ...sent.body, wait: true });
          if (retry.status === 200) {
            sent.orderId = retry.body.order.order_id;
            resent++;
          } else fail(`resending absent ${clientOrderId} answered ${retry.status}: ${JSON.stringify(retry.body)}`);
        } else if (lookup.status === 200) {
          sent.orderId = lookup.body.order.order_id;
          if (lookup.body.order.status !== 'DONE') {
            const retry = await call(baseUrl, 'POST', '/api/v1/orders', trader, { ...sent.body, wait: true });
            if (retry.status !== 409 || !String(retry.body?.error?.message).startsWith('E0303')) {
              fail(`resending working ${clientOrderId} answered ${retry.status}, not 409 E0303: ${JSON.stringify(retry.body)}`);
            }
          }
        } else fail(`looking up ${clientOrderId} answered ${lookup.status}: ${JSON.stringify(lookup.body)}`);
      }

      // Every order this cycle made, through the API: each client order id exactly once, with the acknowledged id.
      for (let t = 0; t < traders.length; t++) {
        const seen = new Map<string, string[]>();
        const orderIds = new Set<string>();
        let start = since;
        for (;;) {
          const page = await call(baseUrl, 'GET', `/api/v1/orders/archived?start_time=${start}&sort=created_at&limit=1000`, traders[t]);
          if (page.status !== 200) {
            fail(`archived listing answered ${page.status}: ${JSON.stringify(page.body)}`);
            break;
          }
          let added = 0;
          for (const order of page.body.orders as any[]) {
            if (orderIds.has(order.order_id)) continue;
            orderIds.add(order.order_id);
            added++;
            seen.set(order.client_order_id, [...(seen.get(order.client_order_id) ?? []), order.order_id]);
            start = BigInt(order.created_at);
          }
          if (page.body.orders.length < 1000 || added === 0) break;
        }
        for (const [clientOrderId, sent] of ledger) {
          if (sent.trader !== t) continue;
          const found = seen.get(clientOrderId) ?? [];
          if (sent.orderId === undefined) fail(`${clientOrderId} has no order after lookup and resend`);
          else if (found.length !== 1 || found[0] !== sent.orderId) {
            fail(`order ${clientOrderId} (${sent.orderId}) is listed after the restart as [${found.join(', ')}]`);
          }
        }
      }

      // Conservation through the API: every trader's and the admin's balances, plus the accounts no key reads
      // (the fee account) from the file.
      const afterFile = readFile(dataDir, since);
      const totals = new Map<string, bigint>();
      const apiUsers = new Set<string>();
      for (const trader of [admin, ...traders]) {
        apiUsers.add(trader.userId);
        const account = await call(baseUrl, 'GET', `/accounts/${trader.userId}`, trader);
        if (account.status !== 200) {
          fail(`GET /accounts answered ${account.status}`);
          continue;
        }
        for (const b of account.body.account.asset_balances as { asset: string; balance: string }[]) {
          totals.set(b.asset, (totals.get(b.asset) ?? 0n) + toAtoms(b.balance, findAsset(b.asset)?.decimals ?? 0));
        }
      }
      for (const [userId, assets] of afterFile.balances) {
        if (apiUsers.has(userId)) continue;
        for (const [asset, amount] of assets) totals.set(asset, (totals.get(asset) ?? 0n) + amount);
      }
      const apiTotals = sameTotals(deposited, totals);
      if (apiTotals !== undefined) fail(`after the restart: ${apiTotals}`);

      for (const product of PRODUCTS) {
        const book = await call(baseUrl, 'GET', `/products/${product.id}/orderbook?depth=1`);
        const bid = book.body?.orderbook?.bids?.[0]?.price as string | undefined;
        const ask = book.body?.orderbook?.asks?.[0]?.price as string | undefined;
        if (book.status !== 200) fail(`${product.id} order book answered ${book.status}`);
        else if (bid !== undefined && ask !== undefined && toAtoms(bid, 8) >= toAtoms(ask, 8)) {
          fail(`${product.id} book is crossed after the restart: bid ${bid} >= ask ${ask}`);
        }
      }

      // Keep the books and holds bounded over a long run.
      for (const trader of traders) await call(baseUrl, 'DELETE', '/api/v1/orders/active/all', trader);

      if (cycleFailures.length > 0 && venue.stderr().trim() !== '') cycleFailures.push(`cycle ${cycle}: venue stderr: ${venue.stderr().trim()}`);
      const report: CycleReport = {
        cycle,
        readyMs: restarted.readyMs,
        killedAfterMs: killAfter,
        acknowledged,
        acknowledgedOverWebSocket,
        unanswered: unanswered.size,
        resent,
        failures: cycleFailures,
      };
      reports.push(report);
      failures.push(...cycleFailures);
      log(
        `cycle ${cycle}: killed after ${killAfter.toFixed(0)} ms, ${acknowledged} acknowledged (${acknowledgedOverWebSocket} over WebSocket), ${unanswered.size} unanswered ` +
          `(${resent} resent), ready in ${restarted.readyMs.toFixed(0)} ms${cycleFailures.length > 0 ? `, ${cycleFailures.length} FAILURES` : ''}`,
      );
      for (const line of cycleFailures) log(`  ${line}`);
    }
  } finally {
    venue.child.kill('SIGTERM');
    await venue.exited;
    if (failures.length === 0) fs.rmSync(dataDir, { recursive: true, force: true });
    else log(`data folder kept for inspection: ${dataDir}`);
  }
  const sum = (pick: (r: CycleReport) => number): number => reports.reduce((n, r) => n + pick(r), 0);
  return {
    cycles: reports,
    firstStartMs: first.readyMs,
    acknowledged: sum((r) => r.acknowledged),
    acknowledgedOverWebSocket: sum((r) => r.acknowledgedOverWebSocket),
    unanswered: sum((r) => r.unanswered),
    resent: sum((r) => r.resent),
    failures,
  };
}
