// npm run bench:ledger — the ledger index at scale (issue 4):
//   node bench/ledger.mjs [--transactions 1000000] [--per-slot 1000] [--no-write] [--store postgres]
// 1. the machine's signature limit, measured in this run (cores × verifications per second ÷ signatures per
//    transaction), and the accept + commit rate of the typical signed transaction block (2 signatures), serial
//    (acceptBlock) and through the ingest pool (precheck on worker threads, applied in order), as a ratio of it;
// 2. fills an LMDB index to N transactions (generation on worker threads, pipelined);
// 3. p50/p99 latency of each query on that index; disk and resident memory per transaction.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as tc from '../dist/index.js';
import { ledgerFixture } from './ledger-fixture.mjs';
import { blockGenerator } from './ledger-generate.mjs';
import { acceptPipelined, CHUNK } from './ledger-pipeline.mjs';
import { writeSection } from './results-file.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = arg('--transactions', 1_000_000);
const PER_SLOT = arg('--per-slot', 1000);
const RATE_SAMPLE = Math.min(N, 165_000);
const here = dirname(fileURLToPath(import.meta.url));
// --store postgres: the PostgreSQL store side by side with LMDB (issue 15), in bench/ledger-postgres.mjs.
if (args.includes('--store')) {
  if (args[args.indexOf('--store') + 1] !== 'postgres') throw new Error('--store takes postgres');
  await import('./ledger-postgres.mjs');
  process.exit(0);
}

await tc.ready();
const fx = ledgerFixture(tc);

const { generate, close: closeGenerators } = blockGenerator();

const dir = mkdtempSync(join(os.tmpdir(), 'tangle-ledger-bench-'));
const diskBytes = () => readdirSync(dir).reduce((s, f) => s + statSync(join(dir, f)).blocks * 512, 0);
const genesis = {
  outputs: Array.from({ length: 2 * N }, (_, n) => fx.genesisOutput(n)),
  accounts: [{ accountId: fx.accountId, blockIssuanceCredits: 1n << 60n }],
};
let t0 = performance.now();
const ledger = tc.openLedger({ path: dir, params: fx.params, genesis, clock: () => fx.params.genesisUnixTime });
const genesisSeconds = (performance.now() - t0) / 1000;
// A genesis as large as a snapshot leaves the indexer's entries to the writer's background build (issue 58): it is
// waited for here, so that the rates and the disk per transaction below are the blocks' own, not the build's.
t0 = performance.now();
while (ledger.indexerBuild?.() !== undefined) await new Promise((next) => setTimeout(next, 20));
const indexBuildSeconds = (performance.now() - t0) / 1000;
genesis.outputs.length = 0;
const diskAfterGenesis = diskBytes();
const heap = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const heapBefore = heap();

// Blocks go to slots in order, PER_SLOT each; slots are committed after their blocks are accepted. Accepting runs
// ahead over several uncommitted slots at once, as a node does (commits lag by minCommittableAge).
let accepted = 0;
let committedUpTo = 0;
let blockBytes = 0;
// Transaction IDs packed in one buffer: a million small objects on the heap would put this script's own garbage
// collection pauses into the latency samples.
const txIdBuffer = new Uint8Array(32 * N);
const txId = (i) => txIdBuffer.subarray(32 * i, 32 * i + 32);
const slotOf = (n) => 1 + Math.floor(n / PER_SLOT);
function commitFullSlots(all = false) {
  const last = all ? slotOf(accepted - 1) : slotOf(accepted) - 1;
  while (committedUpTo < last) ledger.commitSlot(++committedUpTo);
}
function record(result, bytes) {
  txIdBuffer.set(result.transactionId, 32 * accepted);
  blockBytes += bytes.length;
  accepted++;
}
// Through the ingest pool (bench/ledger-pipeline.mjs), committing each slot once full.
const acceptParallel = (blocks) =>
  acceptPipelined(ledger, blocks, (bytes) => {
    record(ledger.acceptBlock(bytes, { slot: slotOf(accepted) }), bytes);
    commitFullSlots();
  });

/**
 * CPU time of this process's main thread (the writer), in µs, where Linux tells it (/proc; clock ticks of 10 ms,
 * fine over a round of a second or more); undefined elsewhere.
 */
function writerCpu() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Verifications per second of `threads` threads verifying at once (each over the same varied signatures), on
 * workers started once (`verifiers`) and kept for the whole run.
 */
const verifiers = [];
async function verifyRate(threads, signatures, seconds = 2) {
  while (verifiers.length < threads)
    verifiers.push(new Worker(resolve(here, 'verify-worker.mjs'), { workerData: { signatures } }));
  const runs = await Promise.all(
    verifiers.slice(0, threads).map((w) => {
      const done = new Promise((resolve) => w.once('message', resolve));
      w.postMessage({ seconds });
      return done;
    }),
  );
  return runs.reduce((s, r) => s + r.count / r.seconds, 0);
}

// 1. The signature limit and the rates on pre-generated blocks: serial, then rounds of limit and pool.
const sample = await generate(0, RATE_SAMPLE);
const sampleSignatures = sample.slice(0, 1000).flatMap((bytes) => {
  const { essence, unlocks } = tc.decodeBlock(bytes).payload;
  const message = tc.transactionSigningHash(essence);
  return unlocks.filter((u) => u.type === 0).map((u) => ({ ...u.signature, message }));
});
const signaturesPerTx = sampleSignatures.length / 1000;
const cores = os.availableParallelism();
// This machine's speed drifts (±30% over minutes, other tenants): the limit and the rates are measured in rounds,
// each round verifying on one thread, then on every core at once, then ingesting a share of the sample through the
// pool, so that each round's ratio compares figures taken moments apart. The serial rate is measured first.
const ROUNDS = 5;
// A node's ingest pool lives as long as the node: start its threads and warm them up (on copies, whose prechecks
// nothing uses) before any rate is measured.
await ledger.precheck(sample.slice(0, 4 * CHUNK).map((bytes) => bytes.slice()));
// The sample in units of 1/33: two serial, one warm-up through the pool (unmeasured), six for each round (30,000
// blocks, about 3.5 s: after any pause, verification or idle, the first second through the pool measured slower).
const UNITS = 3 + 6 * ROUNDS;
const unit = Math.floor(RATE_SAMPLE / UNITS / PER_SLOT) * PER_SLOT;
if (unit === 0) throw new Error(`--transactions ${N}: too few for the rate rounds (at least ${UNITS * PER_SLOT})`);
const serialCount = 2 * unit;
// The serial phase's CPU on the writer's thread, per block: on a shared machine the rate drifts with the other
// tenants' load (±20 %), while the CPU a block costs barely moves, so A/B runs compare this figure first.
const serialWriter0 = writerCpu();
t0 = performance.now();
for (let i = 0; i < serialCount; i++) {
  record(
    ledger.acceptBlock(sample[i], { slot: slotOf(accepted), issuerId: i % 10 === 0 ? fx.accountId : undefined }),
    sample[i],
  );
  commitFullSlots();
}
const serialRate = serialCount / ((performance.now() - t0) / 1000);
const serialWriter1 = writerCpu();
const serialWriterPerBlock =
  serialWriter0 === undefined || serialWriter1 === undefined
    ? undefined
    : (serialWriter1 - serialWriter0) / serialCount;
// The first blocks through the pipeline after a pause (the serial phase, a verification measurement, or 4 s idle)
// measured slower on this machine: R about 80-100 µs in rounds of 10,000 blocks against 60-65 in rounds run back to
// back; not from recompilation (--trace-opt shows the same count in every round) nor from the verification workers
// (kept for the whole run). A node ingests for days: its steady state is what the rounds measure, after one unit
// unmeasured, in rounds long enough that the first second weighs less, and the median of 5 rides out more of this
// machine's drift than that of 3.
await acceptParallel(sample.slice(serialCount, serialCount + unit));
const rounds = [];
const share = 6 * unit;
for (let r = 0; r < ROUNDS; r++) {
  const oneThread = await verifyRate(1, sampleSignatures);
  const allThreads = await verifyRate(cores, sampleSignatures);
  const from = serialCount + unit + r * share;
  const cpu0 = process.cpuUsage();
  const writer0 = writerCpu();
  t0 = performance.now();
  await acceptParallel(sample.slice(from, from + share));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const writer1 = writerCpu();
  const writerPerBlock = writer0 === undefined || writer1 === undefined ? undefined : (writer1 - writer0) / share;
  const pool = share / wall;
  // Where the time goes: CPU per block over every thread of the process (writer, pool, GC helpers), the share of it
  // that verifying the block's signatures takes at one thread's rate, and what the cores gave (utilisation).
  const cpuPerBlock = (cpu.user + cpu.system) / share;
  const signaturesPerBlock = (signaturesPerTx * 1e6) / oneThread;
  const utilisation = (cpu.user + cpu.system) / 1e6 / (wall * cores);
  // The limit as the issue writes it (cores × one thread's rate ÷ signatures per transaction), and as measured: what
  // verification alone achieves with every core verifying at once (lower where cores share a physical core).
  const formula = (cores * oneThread) / signaturesPerTx;
  const measured = allThreads / signaturesPerTx;
  rounds.push({
    oneThread,
    allThreads,
    pool,
    formula,
    measured,
    cpuPerBlock,
    signaturesPerBlock,
    utilisation,
    writerPerBlock,
  });
  console.log(
    `round ${r + 1}: verify ${Math.round(oneThread)}/s on one thread, ${Math.round(allThreads)}/s on ${cores}; ` +
      `pool ${Math.round(pool)} blocks/s = ${(pool / formula).toFixed(3)} of ${Math.round(formula)}, ` +
      `${(pool / measured).toFixed(3)} of ${Math.round(measured)}; CPU ${cpuPerBlock.toFixed(0)} µs/block ` +
      `(signatures ${signaturesPerBlock.toFixed(0)}, the rest ${(cpuPerBlock - signaturesPerBlock).toFixed(0)}` +
      `${writerPerBlock === undefined ? '' : `; the writer thread ${writerPerBlock.toFixed(0)}`}), ` +
      `cores ${(utilisation * 100).toFixed(0)}% busy`,
  );
}
await Promise.all(verifiers.map((w) => w.terminate()));
const byRatio = [...rounds].sort((a, b) => a.pool / a.measured - b.pool / b.measured);
const median = byRatio[ROUNDS >> 1];
const parallelRate = median.pool;
console.log(
  `accept+commit: serial ${Math.round(serialRate)}/s` +
    `${serialWriterPerBlock === undefined ? '' : ` (the writer thread ${serialWriterPerBlock.toFixed(0)} µs/block)`}; ` +
    `pool (median round) ${Math.round(parallelRate)}/s`,
);

// 2. Fill to N, generating the next chunk while accepting this one.
const STEP = 50_000;
let next = RATE_SAMPLE < N ? generate(RATE_SAMPLE, Math.min(N, RATE_SAMPLE + STEP)) : undefined;
t0 = performance.now();
for (let from = RATE_SAMPLE; from < N; from += STEP) {
  const blocks = await next;
  const to = Math.min(N, from + STEP);
  next = to < N ? generate(to, Math.min(N, to + STEP)) : undefined;
  await acceptParallel(blocks);
  process.stdout.write(
    `\rindexed ${to}/${N} transactions (${Math.round((to - RATE_SAMPLE) / ((performance.now() - t0) / 1000))}/s)   `,
  );
}
commitFullSlots(true);
console.log();
await closeGenerators();
const heapAfter = heap();
const rssAfter = process.memoryUsage().rss;
const latestSlot = ledger.latestCommitment().slot;

// 3. Query latency.
function latency(name, fn, count = 20_000) {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    fn(i);
    samples[i] = Number(process.hrtime.bigint() - t) / 1e6;
  }
  samples.sort();
  return { name, p50: samples[Math.floor(count * 0.5)], p99: samples[Math.floor(count * 0.99)] };
}
let seed = 7;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
const queries = [
  latency('includedBlock (random transaction)', () => ledger.includedBlock(txId(rand(accepted)))),
  latency(`utxoChanges (random slot, ${PER_SLOT} transactions each)`, () => ledger.utxoChanges(1 + rand(latestSlot))),
  latency('congestion (account, latest commitment)', () => ledger.congestion(fx.accountId)),
];
const disk = diskBytes();
ledger.close();
rmSync(dir, { recursive: true, force: true });

const perTxDisk = (disk - diskAfterGenesis - blockBytes) / N;
const fmt = (x) => x.toFixed(3);
if (global.gc === undefined) console.warn('run with --expose-gc (npm run bench:ledger does) for the memory figures');
const md = `## Ledger index (issue 4)

Produced by \`npm run bench:ledger\` (= \`npm run build && node bench/ledger.mjs --transactions ${N} --per-slot ${PER_SLOT}\`) on
${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. LMDB store, testnet parameters (no PoW), the
typical signed transaction block of \`bench/ledger-fixture.mjs\` (2 inputs, 2 Ed25519 signatures, 3 outputs with sender
features, tagged data with a 64-byte tag; ${Math.round(blockBytes / N)} bytes), committed every ${PER_SLOT} blocks.

| measure | value | target |
|---|---:|---|
| accept + commit, \`acceptBlock\` (one thread) | ${Math.round(serialRate).toLocaleString('en-US')} blocks/s${serialWriterPerBlock === undefined ? '' : ` (the writer's thread: ${serialWriterPerBlock.toFixed(0)} µs of CPU a block)`} | |
| accept + commit through the ingest pool (\`precheck\` on ${cores} worker threads, \`acceptBlock\` + \`commitSlot\` in order), the round with the median ratio | ${Math.round(parallelRate).toLocaleString('en-US')} blocks/s | |
| signature limit measured: all ${cores} cores verifying at once (${Math.round(median.allThreads).toLocaleString('en-US')}/s) ÷ ${signaturesPerTx} signatures per transaction | ${Math.round(median.measured).toLocaleString('en-US')} blocks/s; pool = **${(parallelRate / median.measured).toFixed(3)}** (rounds: ${rounds.map((x) => (x.pool / x.measured).toFixed(3)).join(', ')}) | ≥ 0.7 ${parallelRate / median.measured >= 0.7 ? '✔' : '✘'} |
| signature limit by the formula: ${cores} × ${Math.round(median.oneThread).toLocaleString('en-US')} verifications/s on one thread ÷ ${signaturesPerTx} | ${Math.round(median.formula).toLocaleString('en-US')} blocks/s; pool = **${(parallelRate / median.formula).toFixed(3)}** (rounds: ${rounds.map((x) => (x.pool / x.formula).toFixed(3)).join(', ')}) | ≥ 0.7 ${parallelRate / median.formula >= 0.7 ? '✔' : '✘'} |
| where the pool's time goes (the median round): CPU per block over all threads; of it, verifying ${signaturesPerTx} signatures at one thread's rate; the rest (decoding, syntax, IDs, semantics, LMDB, commitment, GC) | ${median.cpuPerBlock.toFixed(0)} µs = ${median.signaturesPerBlock.toFixed(0)} µs + **${(median.cpuPerBlock - median.signaturesPerBlock).toFixed(0)} µs**${median.writerPerBlock === undefined ? '' : ` (the writer's thread: ${median.writerPerBlock.toFixed(0)} µs; the pool's threads and V8's collector threads: the rest)`}; cores ${(median.utilisation * 100).toFixed(0)}% busy | rest ≤ ${((median.signaturesPerBlock * 0.3) / 0.7).toFixed(0)} µs for 0.7 at full use |
${queries.map((q) => `| ${q.name}, on ${N.toLocaleString('en-US')} transactions | p50 ${fmt(q.p50)} ms, p99 ${fmt(q.p99)} ms | p99 < 1 ms ${q.p99 < 1 ? '✔' : '✘'} |`).join('\n')}
| disk per transaction beyond its block bytes | ${Math.round(perTxDisk)} B | < 1 KiB ${perTxDisk < 1024 ? '✔' : '✘'} |
| memory the ledger keeps per transaction (JS heap + external growth after GC; nothing per transaction lives in memory) | ${Math.round((heapAfter - heapBefore) / N)} B | |
| resident memory at the end ÷ transactions (RSS, mostly LMDB's mapped pages and this script's buffers) | ${Math.round(rssAfter / N)} B | |

Genesis (${(2 * N).toLocaleString('en-US')} outputs in one atomic write) took ${genesisSeconds.toFixed(1)} s, the indexer's entries of them built after it ${indexBuildSeconds.toFixed(1)} s. Rates are measured on the first
${RATE_SAMPLE.toLocaleString('en-US')} blocks, generated before the clock starts: ${serialCount.toLocaleString('en-US')} serial, ${unit.toLocaleString('en-US')} through the pool unmeasured (warm-up), then ${ROUNDS} rounds of
${share.toLocaleString('en-US')} through the pool, each after measuring the signature limit (verification alone, on one thread, then on all ${cores} at
once) in the same round; the table gives the median round.

Against the formula the pool's ratio is, by construction, (share of the cores used) × S / (S + R), where S is the CPU time
of one block's signatures and R that of everything else the block costs on any thread: a ratio of 0.7 needs R ≤ 0.43 S
even with every core fully used. The faster verification is (OpenSSL here), the smaller that budget: the row above
gives S and R as measured in the median round.
`;
console.log(md);
if (!args.includes('--no-write')) {
  writeSection('ledger', md);
  console.log('wrote bench/RESULTS.md (ledger section)');
}
process.exit(0);
