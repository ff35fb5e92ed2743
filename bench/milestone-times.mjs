// npx vite-node bench/milestone-times.mjs -- [--src DIR]
// The plans of the reads of milestone_times' time and ID (issue 57): an output's metadata (its slots' times, with the
// ID and seal each is checked with), a milestone by index and by ID, the indexer's first timed slot from a slot; then,
// where the sources seal the rows (milestone-times.ts), what a row's seal costs the writer and its check a read. On
// test/ledger/postgres/postgres-schema.test.ts's tables (100 slots of 500 transactions, 150,000 outputs, 100,000
// milestones' times, every other one with an ID), after ANALYZE, each EXPLAIN'd with a custom plan as the client's unnamed
// statements get. `--src` names another commit's src/ (the before of an A/B). A private cluster (postgres-cluster.mjs).
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startPostgres } from '../scripts/postgres-cluster.mjs';

const args = process.argv.slice(2);
const src = resolve(args.includes('--src') ? args[args.indexOf('--src') + 1] : join(import.meta.dirname, '../src'));
const { SCHEMA, QUERIES } = await import(join(src, 'ledger/postgres/schema.ts'));
const { openPool } = await import(join(src, 'ledger/postgres/client.ts'));
const times = await import(join(src, 'ledger/postgres/milestone-times.ts')).catch(() => undefined);

const pg = startPostgres();
if ('unavailable' in pg) throw new Error(pg.unavailable);
try {
  pg.primary.sql('create database plans');
  const url = `postgresql://postgres@/plans?host=${encodeURIComponent(pg.primary.host)}&port=${pg.primary.port}`;
  const pool = openPool(url, 1);
  for (const s of SCHEMA) await pool.query(s);
  const id = (p, i) => `decode(md5('${p}' || ${i}) || md5('${p}' || ${i}), 'hex')`;
  await pool.query(
    'insert into status (network_id, genesis_slot, genesis_unix_time, latest_slot, latest_commitment_id, ' +
      "pruned_until) values (1, 0, 0, 100, '\\x00', 0)",
  );
  await pool.query(
    `insert into blocks select ${id('b', 'i')}, 1 + i / 500, case when i % 10 <> 0 then ${id('t', 'i')} end, ` +
      `'\\x00'::bytea from generate_series(0, 49999) i`,
  );
  await pool.query(
    `insert into outputs select ${id('t', 'i')} || int2send(o::int2), 1 + i / 500, ` +
      `case when o = 0 then 2 + i / 500 end, '\\x00'::bytea from generate_series(0, 49999) i, generate_series(0, 2) o`,
  );
  await pool.query(
    'insert into milestone_times (slot, unix_time, milestone_id) ' +
      `select s, 1700000000 + 5 * s, case when s % 2 = 0 then ${id('m', 's')} end from generate_series(0, 99999) s`,
  );
  await pool.query("update milestone_times set white_flag = '\\x' where slot >= 90000");
  await pool.query('vacuum analyze');
  await pool.query('set plan_cache_mode = force_custom_plan');
  console.log(`src ${src}`);
  for (const [name, query, values] of [
    ['output (metadata)', QUERIES.output, [`${id('t', '7')} || int2send(0::int2)`]],
    ['milestone by index', QUERIES.importedMilestone, ['42']],
    ['milestone by ID', QUERIES.milestoneById, [id('m', '42')]],
    ['first timed slot from', QUERIES.timedSlotFrom, ['4242']],
  ]) {
    await pool.query(`prepare q as ${query}`);
    const { rows } = await pool.query(`explain (costs off) execute q(${values.join(', ')})`);
    await pool.query('deallocate q');
    console.log(`\nEXPLAIN ${name}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  }
  await pool.end();
} finally {
  pg.stop();
}

// The seal and its check alone, CPU only: 200,000 of each, three rounds (a row with an ID, as a milestone's).
if (times !== undefined) {
  const id = randomBytes(32);
  const N = 200_000;
  const seals = Array.from({ length: 1000 }, (_, i) => times.timeSeal(i, 1_700_000_000 + i, id));
  for (let round = 1; round <= 3; round++) {
    let t = performance.now();
    for (let i = 0; i < N; i++) times.timeSeal(i % 1000, 1_700_000_000 + (i % 1000), id);
    const seal = ((performance.now() - t) * 1000) / N;
    t = performance.now();
    for (let i = 0; i < N; i++) times.checkedTime(i % 1000, String(1_700_000_000 + (i % 1000)), id, seals[i % 1000]);
    const check = ((performance.now() - t) * 1000) / N;
    console.log(`round ${round}: timeSeal ${seal.toFixed(2)} µs, checkedTime ${check.toFixed(2)} µs`);
  }
}
