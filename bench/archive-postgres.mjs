// npx vite-node bench/archive-postgres.mjs -- [--src DIR] [--milestones 400] [--per-milestone 250]
//   [--addresses 20000] [--reads 2000]
// The archive's tables in PostgreSQL (issue 57): what writing a milestone's archive rows costs (writeArchive in its
// own transaction, milestone by milestone, over a generated history: outputs booked to random addresses, half as many
// spent; with it, in the same transaction, the milestone's own row of milestone_times, its time and ID sealed where
// the sources seal them: milestone-times.ts), then the plans of the explorer's queries on it (EXPLAIN, after ANALYZE)
// and each read's p50 through PostgresExplorer. Run from the sources (vite-node), so that --src can name another
// commit's src/ (the before of an A/B: `git archive COMMIT | tar -x -C DIR`, with node_modules linked in). A private
// cluster (postgres-cluster.mjs).
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startPostgres } from '../scripts/postgres-cluster.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const src = resolve(arg('--src', join(import.meta.dirname, '../src')));
const MILESTONES = Number(arg('--milestones', 400));
const PER = Number(arg('--per-milestone', 250));
const ADDRESSES = Number(arg('--addresses', 20_000));
const READS = Number(arg('--reads', 2000));

const { SCHEMA, WRITES } = await import(join(src, 'ledger/postgres/schema.ts'));
// The seal of a milestone_times row's time and ID (issue 57), in the sources that have it.
const times = await import(join(src, 'ledger/postgres/milestone-times.ts')).catch(() => undefined);
// The summary of a milestone's ledger updates its row keeps (issue 57: a deleted row), in the sources that have it.
const missing = await import(join(src, 'ledger/postgres/missing-rows.ts')).catch(() => undefined);
const { ARCHIVE_QUERIES } = await import(join(src, 'ledger/postgres/archive-schema.ts'));
const { writeArchive } = await import(join(src, 'ledger/postgres/write-archive.ts'));
const { PostgresExplorer } = await import(join(src, 'ledger/postgres/postgres-explorer.ts'));
const { openPool, inTransaction } = await import(join(src, 'ledger/postgres/client.ts'));

const pg = startPostgres();
if ('unavailable' in pg) throw new Error(pg.unavailable);
try {
  pg.primary.sql('create database bench');
  const url = `postgresql://postgres@/bench?host=${encodeURIComponent(pg.primary.host)}&port=${pg.primary.port}`;
  const pool = openPool(url, 2);
  for (const statement of SCHEMA) await pool.query(statement);

  // A deterministic-enough history: addresses and output IDs random, amounts from 1 to 10^9.
  const addresses = Array.from({ length: ADDRESSES }, () => Uint8Array.of(0, ...randomBytes(32)));
  const unspent = [];
  const pick = (n) => Math.floor(Math.random() * n);
  let writing = 0;
  let rowWriting = 0;
  for (let m = 1; m <= MILESTONES; m++) {
    const updates = [];
    const changes = new Map();
    const change = (address, amount, outputs) => {
      const key = Buffer.from(address).toString('hex');
      const c = changes.get(key) ?? { address, amount: 0n, plain: 0n, outputs: 0, returns: 0 };
      c.amount += amount;
      c.plain += amount;
      c.outputs += outputs;
      changes.set(key, c);
    };
    for (let i = 0; i < PER; i++) {
      const address = addresses[pick(ADDRESSES)];
      const amount = BigInt(1 + pick(1e9));
      const outputId = randomBytes(34);
      updates.push({ address, owner: address, amount, index: m, outputId, spent: false, time: 1000 + m });
      change(address, amount, 1);
      unspent.push({ address, amount, outputId });
    }
    for (let i = 0; i < PER / 2 && unspent.length > PER; i++) {
      const at = pick(unspent.length - PER); // not one booked in this milestone
      const o = unspent[at];
      unspent[at] = unspent[unspent.length - 1];
      unspent.pop();
      const { address, amount, outputId } = o;
      updates.push({ address, owner: address, amount, index: m, outputId, spent: true, time: 1000 + m });
      change(address, -amount, -1);
    }
    const rows = { updates, held: [], balances: [...changes.values()] };
    // An applied milestone's row: its time, ID, payload (about 1 KB), white-flag record and analytics (sealed bytes).
    const [time, id] = [1000 + m, randomBytes(32)];
    const sealed = times === undefined ? [] : [times.timeSeal(m, time, id)];
    const milestoneRow = [m, time, id, ...sealed, randomBytes(1000), randomBytes(40 * PER), randomBytes(120)];
    const t = performance.now();
    await inTransaction(pool, async (c) => {
      // The archive first: the row keeps the summary of its updates, where the sources have one.
      const seals = await writeArchive(c, rows);
      const r = performance.now();
      const s = missing?.updatesSummary(m, seals);
      await c.query(
        WRITES.appliedMilestone,
        s === undefined ? milestoneRow : [...milestoneRow, s.count, s.digest, s.seal],
      );
      rowWriting += performance.now() - r;
    });
    writing += performance.now() - t;
  }
  const total = (await pool.query('select count(*) as n from ledger_updates')).rows[0].n;
  console.log(`src ${src}`);
  console.log(
    `write: ${MILESTONES} milestones of ${PER * 1.5} updates (${total} rows): ` +
      `${(writing / MILESTONES).toFixed(2)} ms a milestone, of which its milestone_times row ` +
      `${(rowWriting / MILESTONES).toFixed(3)} ms (${times === undefined ? 'unsealed' : 'time and ID sealed'})`,
  );
  await pool.query('vacuum analyze ledger_updates');
  await pool.query('vacuum analyze address_balances');

  const explorer = new PostgresExplorer((text, values) => pool.query(text, values));
  const someAddress = () => addresses[pick(ADDRESSES)];
  const plans = {
    'updatesByAddress (down)': [ARCHIVE_QUERIES.updatesByAddress.down, [someAddress(), 100]],
    updatesByMilestone: [ARCHIVE_QUERIES.updatesByMilestone, [MILESTONES / 2, new Uint8Array(0), false, 100]],
    balance: [ARCHIVE_QUERIES.balance, [someAddress()]],
    'richest (at the latest)': [ARCHIVE_QUERIES.richest, [100, MILESTONES]],
    'richest (10 milestones back)': [ARCHIVE_QUERIES.richest, [100, MILESTONES - 10]],
  };
  for (const [name, [text, values]] of Object.entries(plans)) {
    const { rows } = await pool.query(`explain ${text}`, values);
    console.log(`\nEXPLAIN ${name}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  }

  const reads = {
    updatesByAddress: () => explorer.updatesByAddress(someAddress(), true, 100),
    updatesByMilestone: () => explorer.updatesByMilestone(1 + pick(MILESTONES), 100),
    balance: () => explorer.balance(someAddress(), 2000),
    richest: () => explorer.richest(100, MILESTONES - pick(10)),
  };
  console.log('');
  for (const [name, read] of Object.entries(reads)) {
    const times = [];
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      await read();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
    console.log(`read ${name}: p50 ${times[times.length >> 1].toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`);
  }
  await pool.end();
} finally {
  pg.stop();
}
