// Run by journal.test.ts in a child process: commits three batches, applies only the first to the tables, says
// so, and kills itself (SIGKILL: no close, no exit handlers) before anything else can apply the others.
import { openStore } from '../../../src-main/venue/store';
import { balance, order, user } from './sample-rows';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: crash-child.ts <database file>');

const store = openStore(file, { materializeDelayMs: 3_600_000 });
const owner = user(1);
await store.commit({ users: [owner], balances: [balance(owner, 'VND', 1_000n)] });
store.materialize();

const placed = order(owner, 1, { status: 'SUBMITTED' });
await Promise.all([
  store.commit({ orders: [placed], balances: [balance(owner, 'VND', 600n, 400n)] }),
  store.commit({ orders: [{ ...placed, status: 'ACTIVE' }] }),
]);
await store.commit({
  orders: [{ ...placed, status: 'DONE', doneReason: 'CANCELED', restingLots: 0 }, order(owner, 2)],
  balances: [balance(owner, 'VND', 750n, 250n)],
  meta: { last: 'acknowledged before the crash' },
});

process.stdout.write('acknowledged\n', () => process.kill(process.pid, 'SIGKILL'));
