// npx vite-node bench/postgres-read-checks.mjs -- --before DIR [--slots 200] [--per-slot 250] [--reads 300]
// The reads issue 57's deleted-row checks changed (PostgreSQL): a slot's UTXO changes (its summary in the commitment's
// row, checked by a CRC of the lists the read gets: changes-summary.ts), a block (its milestone's row joined, to
// tell a lost row), a block's children (each milestone's count of blocks against its white-flag record's), the tips
// and a slot's block IDs (the same count), a page of an address's updates (a seek of each one's output). Both
// sources' statements run against one database of generated slots (the schema of this tree: a superset), alternating
// read by read; each read's p50 and p99, and the ratio after/before. `--before`: the src/ of the commit before
// (`git archive COMMIT src | tar -x -C DIR`, or a worktree's src). A private cluster (postgres-cluster.mjs).
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { startPostgres } from '../scripts/postgres-cluster.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const before = resolve(arg('--before', '/work/main/src'));
const after = join(import.meta.dirname, '../src');
const SLOTS = Number(arg('--slots', 200));
const PER = Number(arg('--per-slot', 250));
const READS = Number(arg('--reads', 300));

const load = async (src) => ({
  ...(await import(join(src, 'ledger/postgres/schema.ts'))),
  ...(await import(join(src, 'ledger/postgres/archive-schema.ts'))),
});
const [old, now] = [await load(before), await load(after)];
const { changesSummary, checkChanges } = await import(join(after, 'ledger/postgres/changes-summary.ts'));
const { openPool } = await import(join(after, 'ledger/postgres/client.ts'));

const pg = startPostgres();
if ('unavailable' in pg) throw new Error(pg.unavailable);
try {
  pg.primary.sql('create database bench');
  const url = `postgresql://postgres@/bench?host=${encodeURIComponent(pg.primary.host)}&port=${pg.primary.port}`;
  const pool = openPool(url, 1);
  for (const statement of now.SCHEMA) await pool.query(statement);
  // An imported ledger's status (its network record's bytes are not read here), genesis slot 0.
  await pool.query(
    'insert into status (one, network_id, genesis_slot, genesis_unix_time, latest_slot, latest_commitment_id, ' +
      "pruned_until, imported) values (true, 1, 0, 0, $1, '\\x00', 1, '\\x00')",
    [SLOTS],
  );
  // Each slot: PER blocks of ~300 bytes naming two parents of the slot before, PER outputs created, PER / 2 spent.
  const unspent = [];
  const ADDRESSES = 50;
  const addresses = Array.from({ length: ADDRESSES }, () => randomBytes(33));
  const blocksOf = [];
  for (let slot = 1; slot <= SLOTS; slot++) {
    const ids = Array.from({ length: PER }, () => randomBytes(32));
    const parents = blocksOf[slot - 2] ?? ids;
    const twoParents = (i) => [parents[i % parents.length], parents[(i + 1) % parents.length]];
    const raws = ids.map((_, i) => Buffer.concat([randomBytes(4), ...twoParents(i), randomBytes(236)]));
    blocksOf.push(ids);
    await pool.query(
      'insert into blocks (block_id, slot, raw, checksum) select id, $1, raw, 0 ' +
        'from unnest($2::bytea[], $3::bytea[]) t(id, raw)',
      [slot, ids, raws],
    );
    const created = Array.from({ length: PER }, () => randomBytes(34));
    await pool.query(
      'insert into outputs (output_id, created_slot, raw, checksum) select id, $1, $2, 0 ' +
        'from unnest($3::bytea[]) t(id)',
      [slot, randomBytes(60), created],
    );
    const spent = unspent.splice(0, unspent.length > PER ? PER / 2 : 0);
    await pool.query('update outputs set spent_slot = $1 where output_id = any($2::bytea[])', [slot, spent]);
    unspent.push(...created);
    // Each created output's update under one of ADDRESSES addresses (a by-address page reads one's).
    await pool.query(
      'insert into ledger_updates (milestone, output_id, spent, address, owner, amount, unix_time, seal) ' +
        'select $1, id, false, a, a, 1, 1000 + $1, 0 from unnest($2::bytea[], $3::bytea[]) t(id, a)',
      [slot, created, created.map((_, i) => addresses[i % ADDRESSES])],
    );
    const summary = changesSummary(slot, created, spent);
    await pool.query(now.WRITES.commitment, [slot, randomBytes(32), randomBytes(100), summary]);
    const whiteFlag = Buffer.alloc(8 + 38 * PER);
    await pool.query('insert into milestone_times (slot, unix_time, white_flag) values ($1, $2, $3)', [
      slot,
      1000 + slot,
      whiteFlag,
    ]);
  }
  await pool.query('vacuum analyze');

  const pick = (n) => Math.floor(Math.random() * n);
  const someBlock = () => {
    const slot = 1 + pick(SLOTS - 1);
    return { slot, id: blocksOf[slot - 1][pick(PER)] };
  };
  const reads = {
    utxoChanges: [
      async (q) => {
        const slot = 1 + pick(SLOTS);
        const r = (await pool.query(q.QUERIES.utxoChanges, [slot])).rows[0];
        const list = (b) => b ?? new Uint8Array(0);
        if (q === now) checkChanges(slot, r.changes, true, list(r.created), list(r.consumed));
      },
    ],
    block: [async (q) => void (await pool.query(q.QUERIES.block, [someBlock().id]))],
    tips: [async (q) => void (await pool.query(q.QUERIES.tips, []))],
    blockIdsOfSlot: [async (q) => void (await pool.query(q.QUERIES.blockIdsOfSlot, [1 + pick(SLOTS), 1000]))],
    updatesByAddress: [
      async (q) => {
        const page = [addresses[pick(ADDRESSES)], 1 + pick(SLOTS - 1), new Uint8Array(0), false, 100];
        await pool.query(q.ARCHIVE_QUERIES.updatesByAddress.upFrom, page);
      },
    ],
    children: [
      async (q) => {
        const { slot, id } = someBlock();
        await pool.query(q.ARCHIVE_QUERIES.children, [id, slot, slot + 15]);
      },
    ],
  };
  console.log(`before ${before}\nafter ${after}\n${SLOTS} slots of ${PER} blocks, ${PER} outputs created\n`);
  for (const [name, [read]] of Object.entries(reads)) {
    const times = new Map([
      [old, []],
      [now, []],
    ]);
    for (let i = 0; i < 20; i++) await read(i % 2 ? old : now); // warm
    for (let i = 0; i < 2 * READS; i++) {
      const q = i % 2 ? old : now;
      const t = performance.now();
      await read(q);
      times.get(q).push(performance.now() - t);
    }
    const at = (q, p) => {
      const sorted = times.get(q).sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
    };
    const line = (q) => `p50 ${at(q, 0.5).toFixed(3)} ms, p99 ${at(q, 0.99).toFixed(3)} ms`;
    console.log(
      `${name}: before ${line(old)}; after ${line(now)}; after/before p50 ${(at(now, 0.5) / at(old, 0.5)).toFixed(2)}`,
    );
  }
  await pool.end();
} finally {
  pg.stop();
}
