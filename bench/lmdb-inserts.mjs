// Why the ledger does not insert each commit's transaction records into the transaction index (stardust/ledger-records.ts,
// `recentTransactions`): CPU per record of an LMDB table keyed by hash (random keys, as transaction IDs are) against
// one keyed by slot (appends), written as the ledger writes a slot: 1,000 records in one synchronous transaction, into
// a table that already holds `--before` thousand records.
//   node bench/lmdb-inserts.mjs [--before 150] [--slots 40]
// Prints CPU µs per record for random inserts, appends, and random inserts merged 32 slots at a time (sorted).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';

const { open } = createRequire(import.meta.url)('lmdb');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const BEFORE = arg('--before', 150);
const SLOTS = arg('--slots', 40);
const PER_SLOT = 1000;

const dir = mkdtempSync(join(os.tmpdir(), 'tangle-lmdb-inserts-'));
const binary = { keyEncoding: 'binary', encoding: 'binary', compression: false };
const root = open({ path: dir, ...binary, overlappingSync: false, maxDbs: 4 });
const byHash = root.openDB({ name: 'hash', ...binary });
const bySlot = root.openDB({ name: 'slot', ...binary });
const value = randomBytes(40); // a transaction record: block ID, slot, output count
const hashKeys = (n) => Array.from({ length: n }, () => randomBytes(32));
let next = 0;
const slotKeys = (n) =>
  Array.from({ length: n }, () => {
    const k = Buffer.alloc(32);
    k.writeUInt32BE(next++, 0);
    return k;
  });
for (let s = 0; s < BEFORE; s++) {
  const keys = hashKeys(PER_SLOT);
  root.transactionSync(() => {
    for (const k of keys) byHash.put(k, value);
  });
}

function measure(name, slot) {
  const cpu0 = process.cpuUsage();
  for (let s = 0; s < SLOTS; s++) slot(s);
  const cpu = process.cpuUsage(cpu0);
  console.log(`${name}: ${((cpu.user + cpu.system) / (SLOTS * PER_SLOT)).toFixed(2)} µs of CPU per record`);
}
measure(`random keys, one commit per slot (table of ${BEFORE},000)`, () => {
  const keys = hashKeys(PER_SLOT);
  root.transactionSync(() => {
    for (const k of keys) byHash.put(k, value);
  });
});
measure('appends, one commit per slot', () => {
  const keys = slotKeys(PER_SLOT);
  root.transactionSync(() => {
    for (const k of keys) bySlot.put(k, value, { append: true });
  });
});
let waiting = [];
measure('random keys, merged every 32 slots, sorted', (s) => {
  waiting.push(...hashKeys(PER_SLOT));
  if ((s + 1) % 32 !== 0 && s !== SLOTS - 1) return;
  waiting.sort(Buffer.compare);
  root.transactionSync(() => {
    for (const k of waiting) byHash.put(k, value);
  });
  waiting = [];
});
root.close();
rmSync(dir, { recursive: true, force: true });
