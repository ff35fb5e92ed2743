// npm run bench:ledger -- --store postgres — the PostgreSQL store beside LMDB (issue 15), in one run, on a private
// PostgreSQL cluster (primary + hot standby, scripts/postgres-cluster.mjs):
//   node bench/ledger.mjs --store postgres [--transactions 1000000] [--per-slot 1000] [--rounds 3] [--seconds 8]
// 1. ingest: accept + commit of the typical block through the ingest pool, on LMDB alone and on LMDB publishing to
//    PostgreSQL (the rate counts until the database holds the slots), in alternating rounds;
// 2. fills the publishing ledger to N transactions (live publishing), then bulk-imports the same history into a new
//    database (secondary indexes dropped, then rebuilt, as inx-indexer does);
// 3. p50/p99 of each query on the N-transaction history: LMDB (in process) and a PostgresReader (over the socket);
// 4. requests/s, wrk with random paths: `serve --read-only` over LMDB, and over PostgreSQL with 1 and 2 processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { startPostgres } from '../scripts/postgres-cluster.mjs';
import { ledgerFixture } from './ledger-fixture.mjs';
import { blockGenerator } from './ledger-generate.mjs';
import { acceptPipelined } from './ledger-pipeline.mjs';
import { writeSection } from './results-file.mjs';
import { needWrk, wrk } from './wrk.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = arg('--transactions', 1_000_000);
const PER_SLOT = arg('--per-slot', 1000);
const ROUNDS = arg('--rounds', 3);
const SECONDS = arg('--seconds', 8);
const SHARE = 5_000; // blocks per ingest round and store
const SAMPLE = 2 * ROUNDS * SHARE;
// The publishing ledger takes half the sample's blocks, then fills to N transactions: block indices up to LAST.
const LAST = N + ROUNDS * SHARE;
const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
needWrk('bench:ledger --store postgres');

const cluster = startPostgres();
if ('unavailable' in cluster) {
  console.error(`no PostgreSQL: ${cluster.unavailable}`);
  process.exit(2);
}
const url = (server, database = 'postgres') =>
  `postgresql://postgres@/${database}?host=${encodeURIComponent(server.host)}&port=${server.port}`;
const dirs = [];
const temp = () => {
  const d = mkdtempSync(join(os.tmpdir(), 'tangle-pg-bench-'));
  dirs.push(d);
  return d;
};
const children = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  cluster.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

await tc.ready();
const fx = ledgerFixture(tc);
const { generate, close: closeGenerators } = blockGenerator();
const genesisOf = (outputs) => ({
  outputs: Array.from({ length: outputs }, (_, n) => fx.genesisOutput(n)),
  accounts: [{ accountId: fx.accountId, blockIssuanceCredits: 1n << 60n }],
});
const clock = () => fx.params.genesisUnixTime;

// Each ledger's blocks go to slots in order, PER_SLOT each; a slot is committed once full.
function feeder(ledger) {
  let accepted = 0;
  let committedUpTo = 0;
  const slotOf = (n) => 1 + Math.floor(n / PER_SLOT);
  return {
    accept: (blocks) =>
      acceptPipelined(ledger, blocks, (bytes) => {
        ledger.acceptBlock(bytes, { slot: slotOf(accepted++) });
        while (committedUpTo < slotOf(accepted) - 1) ledger.commitSlot(++committedUpTo);
      }),
    finish() {
      while (committedUpTo < slotOf(accepted - 1)) ledger.commitSlot(++committedUpTo);
    },
  };
}

// 1. Ingest, side by side: the same blocks into LMDB alone and into LMDB publishing to PostgreSQL, alternating.
const sample = await generate(0, SAMPLE);
const lmdbOnly = tc.openLedger({ path: temp(), params: fx.params, genesis: genesisOf(2 * SAMPLE), clock });
const writerDir = temp();
let t0 = performance.now();
const writer = await tc.openLedger({
  path: writerDir,
  params: fx.params,
  genesis: genesisOf(2 * LAST),
  clock,
  store: url(cluster.primary),
});
await writer.published();
const genesisSeconds = (performance.now() - t0) / 1000;
const feeds = { lmdb: feeder(lmdbOnly), postgres: feeder(writer) };
const ingest = [];
for (let r = 0; r < ROUNDS; r++) {
  const round = {};
  for (const [k, i] of r % 2 === 0
    ? [
        ['lmdb', 0],
        ['postgres', 1],
      ]
    : [
        ['postgres', 1],
        ['lmdb', 0],
      ]) {
    const from = (2 * r + i) * SHARE;
    t0 = performance.now();
    await feeds[k].accept(sample.slice(from, from + SHARE));
    if (k === 'postgres') await writer.published();
    round[k] = SHARE / ((performance.now() - t0) / 1000);
  }
  ingest.push(round);
  console.log(
    `ingest round ${r + 1}: LMDB ${Math.round(round.lmdb)}/s, LMDB + PostgreSQL ${Math.round(round.postgres)}/s`,
  );
}
lmdbOnly.close();

// 2. Fill the publishing ledger to N transactions, publishing as it goes (the rate counts until the database holds
//    them); then the same history into a new database in bulk (indexes dropped while writing, rebuilt after).
const STEP = 50_000;
let next = generate(SAMPLE, Math.min(LAST, SAMPLE + STEP));
t0 = performance.now();
for (let from = SAMPLE; from < LAST; from += STEP) {
  const blocks = await next;
  const to = Math.min(LAST, from + STEP);
  next = to < LAST ? generate(to, Math.min(LAST, to + STEP)) : undefined;
  await feeds.postgres.accept(blocks);
  process.stdout.write(`\rindexed and published ${to - SAMPLE + ROUNDS * SHARE}/${N} transactions   `);
}
feeds.postgres.finish();
await writer.published();
const fillSeconds = (performance.now() - t0) / 1000;
const fillRate = (LAST - SAMPLE) / fillSeconds;
console.log(`\nfill with live publishing: ${Math.round(fillRate)} transactions/s`);
await closeGenerators();
const latestSlot = writer.latestCommitment().slot;

cluster.primary.sql('create database bulk');
t0 = performance.now();
const bulk = await tc.PostgresPublisher.open(url(cluster.primary, 'bulk'), writer, { bulk: true });
await bulk.published();
await bulk.close();
const bulkRate = N / ((performance.now() - t0) / 1000);
console.log(`bulk import: ${Math.round(bulkRate)} transactions/s`);

// 3. Query latency on the same N-transaction history: the ledger in process, and a reader of the primary.
const txIds = [];
for (let slot = 1; slot <= latestSlot; slot += Math.max(1, Math.floor(latestSlot / 200))) {
  for (const o of writer.utxoChanges(slot).createdOutputs)
    if (o[32] === 0 && o[33] === 0) txIds.push(o.subarray(0, 32));
}
let seed = 7;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
async function latency(name, fn, count = 5_000) {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    samples[i] = Number(process.hrtime.bigint() - t) / 1e6;
  }
  samples.sort();
  return { name, p50: samples[Math.floor(count * 0.5)], p99: samples[Math.floor(count * 0.99)] };
}
const reader = await tc.openLedger({ params: fx.params, store: url(cluster.primary), readOnly: true, clock });
const queries = [];
for (const [name, ask] of [
  ['includedBlock (random transaction)', (l) => l.includedBlock(txIds[rand(txIds.length)])],
  [`utxoChanges (random slot, ${PER_SLOT} transactions each)`, (l) => l.utxoChanges(1 + rand(latestSlot))],
  ['congestion (account, latest commitment)', (l) => l.congestion(fx.accountId)],
]) {
  const lmdb = await latency(name, () => ask(writer));
  const postgres = await latency(name, () => ask(reader));
  queries.push({ name, lmdb, postgres });
  console.log(`${name}: LMDB p99 ${lmdb.p99.toFixed(3)} ms, PostgreSQL p99 ${postgres.p99.toFixed(3)} ms`);
}
await reader.close();
writer.close();

// 4. Requests/s: serve --read-only over the LMDB store, and over the primary with 1 and with 2 processes.
function serve(extra) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, 'serve', '--read-only', '--synced', '--port', '0', ...extra], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m !== null) done({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => fail(new Error(`serve ${extra.join(' ')} exited ${code}`)));
  });
}
const account = tc.addressToBech32({ type: 8, aliasId: fx.accountId }, fx.params.bech32Hrp);
const paths = [
  ...txIds.slice(0, 20_000).map((id) => `/api/core/v2/transactions/${tc.toHex(id)}/included-block`),
  ...Array.from({ length: latestSlot }, (_, i) => `/api/core/v3/commitments/by-slot/${i + 1}/utxo-changes`),
  `/api/core/v3/accounts/${account}/congestion`,
];
const servers = {
  lmdb: await serve(['--db', writerDir, '--workers', '1']),
  postgres1: await serve(['--store', url(cluster.primary), '--workers', '1']),
  postgres2: await serve(['--store', url(cluster.primary), '--workers', '2']),
};
const http = [];
for (const s of Object.values(servers)) wrk(s.port, paths, { seconds: 2, connections: 32 }); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const round = {};
  for (const [k, s] of Object.entries(servers)) {
    const result = wrk(s.port, paths, { seconds: SECONDS, connections: 32 });
    if (result.bad > 0 || result.errors !== undefined) throw new Error(`${k}: ${result.bad} non-2xx, ${result.errors}`);
    round[k] = result;
  }
  http.push(round);
  console.log(
    `http round ${r + 1}: ${Object.entries(round)
      .map(([k, v]) => `${k} ${Math.round(v.rps)}/s`)
      .join(', ')}`,
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ingestLmdb = median(ingest.map((r) => r.lmdb));
const ingestPg = median(ingest.map((r) => r.postgres));
const rps = (k) => median(http.map((r) => r[k].rps));
const int = (x) => Math.round(x).toLocaleString('en-US');
const ms = (x) => x.toFixed(3);
const md = `## PostgreSQL store beside LMDB (issue 15)

Produced by \`npm run bench:ledger -- --store postgres\` (= \`node bench/ledger.mjs --store postgres --transactions ${N} --per-slot ${PER_SLOT} --rounds ${ROUNDS} --seconds ${SECONDS}\`) on
${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, PostgreSQL ${cluster.primary.sql('show server_version')} (a private cluster on this machine: primary and
hot standby, Unix socket, fsync off as in the tests), client \`pg\`. The typical signed transaction block of
\`bench/ledger-fixture.mjs\`, ${PER_SLOT} per slot. Medians of ${ROUNDS} alternating rounds; every round in brackets.

| measure | LMDB | PostgreSQL | ratio |
|---|---:|---:|---:|
| ingest through the ingest pool, blocks/s (PostgreSQL: LMDB + publishing, until the database holds them) | ${int(ingestLmdb)} | ${int(ingestPg)} | **${(ingestPg / ingestLmdb).toFixed(2)}** (${ingest.map((r) => (r.postgres / r.lmdb).toFixed(2)).join(', ')}) |
| fill to ${int(N)} transactions with live publishing, transactions/s | | ${int(fillRate)} | |
| bulk import of the ${int(N)} transactions into a new database (secondary indexes dropped, then rebuilt), transactions/s | | ${int(bulkRate)} | |
${queries.map((q) => `| ${q.name}, p50 / p99 ms, on ${int(N)} transactions | ${ms(q.lmdb.p50)} / ${ms(q.lmdb.p99)} | ${ms(q.postgres.p50)} / ${ms(q.postgres.p99)} | ${(q.postgres.p99 / q.lmdb.p99).toFixed(1)}× the p99 |`).join('\n')}
| requests/s, \`serve --read-only\`, one process (wrk, 32 connections, random paths) | ${int(rps('lmdb'))} | ${int(rps('postgres1'))} | **${(rps('postgres1') / rps('lmdb')).toFixed(2)}** (${http.map((r) => (r.postgres1.rps / r.lmdb.rps).toFixed(2)).join(', ')}) |
| requests/s, two reader processes on the primary | | ${int(rps('postgres2'))} | ${(rps('postgres2') / rps('postgres1')).toFixed(2)}× one reader (${http.map((r) => (r.postgres2.rps / r.postgres1.rps).toFixed(2)).join(', ')}) |

The genesis (${int(2 * LAST)} outputs) went into the database in ${genesisSeconds.toFixed(1)} s. Random paths: ${int(Math.min(20_000, txIds.length))} transactions
(included block), every slot (UTXO changes), the account (congestion). On this 2-core machine PostgreSQL, the readers
and wrk share the cores, so two readers cannot double one; on separate machines each reader adds its own.
`;
console.log(md);
if (!args.includes('--no-write')) {
  writeSection('postgres', md);
  console.log('wrote bench/RESULTS.md (postgres section)');
}
