// npm run bench:snapshot [-- --outputs N --pg-build] — importing a network's snapshot (issue 29). A synthetic TIP-35
// full snapshot of N outputs (default 10,000,000) of every kind, as a network's are varied (basic outputs with storage
// deposit returns, timelocks, expirations, senders and tags; aliases, their foundries, NFTs with issuers; booked over
// many milestones), written by writeSnapshotFile. Then, each in a child process of its own (its own memory): reading
// and decoding the file (readSnapshotFile: the rate a reader can give), and importing it into LMDB
// (tangle-core import-snapshot: outputs, transaction records, chains; the indexer's entries are the first writer's,
// built in the background since issue 58), and that import loaded
// into a new PostgreSQL database (import-snapshot --store; its indexer's entries are its writer's, built after: timed
// apart with --pg-build). Reported: outputs/s of each, the import's ratio to reading
// in the same run (target ≥ 0.5), and each phase's peak memory (its own, RssAnon; and resident, with mapped files).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { startPostgres } from '../scripts/postgres-cluster.mjs';
import { writeSection } from './results-file.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
};

const SUPPLY = 2_779_530_283_277_761n;
const AMOUNT = 100_000n;
const ed = (n) => {
  const h = new Uint8Array(32);
  new DataView(h.buffer).setUint32(0, n);
  return { type: 0, pubKeyHash: h };
};
const id32 = (n, salt) => {
  const b = new Uint8Array(32);
  new DataView(b.buffer).setUint32(0, n);
  b[31] = salt;
  return b;
};

/** Output i of the synthetic ledger (four to a transaction, 1,024 transactions to a milestone). */
function outputAt(i) {
  const owner = ed(i % 1_000_003);
  let output;
  if (i % 50 === 1) {
    output = {
      type: 6,
      amount: AMOUNT,
      nativeTokens: [],
      nftId: id32(i, 0x6f),
      unlockConditions: [{ type: 0, address: owner }],
      features: [],
      immutableFeatures: [{ type: 1, address: ed(i % 7919) }],
    };
  } else if (i % 100 === 2) {
    output = {
      type: 4,
      amount: AMOUNT,
      nativeTokens: [],
      aliasId: id32(i, 0xa1),
      stateIndex: 0,
      stateMetadata: new Uint8Array(0),
      foundryCounter: 1,
      unlockConditions: [
        { type: 4, address: owner },
        { type: 5, address: ed(i % 104_729) },
      ],
      features: [],
      immutableFeatures: [],
    };
  } else if (i % 100 === 3) {
    output = {
      type: 5,
      amount: AMOUNT,
      nativeTokens: [],
      serialNumber: 1,
      tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 100n },
      unlockConditions: [{ type: 6, address: { type: 8, aliasId: id32(i - 1, 0xa1) } }],
      features: [],
      immutableFeatures: [],
    };
  } else {
    const unlockConditions = [{ type: 0, address: owner }];
    if (i % 5 === 0) unlockConditions.push({ type: 1, returnAddress: ed(i % 10_007), amount: 50_000n });
    if (i % 11 === 0) unlockConditions.push({ type: 2, unixTime: 1_700_000_000 + (i % 100_000) });
    if (i % 7 === 0) unlockConditions.push({ type: 3, returnAddress: ed(i % 10_009), unixTime: 1_800_000_000 });
    const features = [];
    if (i % 3 === 0) features.push({ type: 0, address: ed(i % 65_521) });
    if (i % 13 === 0) features.push({ type: 3, tag: new TextEncoder().encode(`tag ${i % 100}`) });
    output = { type: 3, amount: AMOUNT, nativeTokens: [], unlockConditions, features };
  }
  const tx = i >> 2;
  return {
    outputId: tc.outputId(id32(tx, 0x7a), i & 3),
    blockId: id32(tx, 0xb1),
    milestoneIndexBooked: 1 + (tx >> 10),
    milestoneTimestampBooked: 1_700_000_000 + (tx >> 10) * 5,
    output,
  };
}

async function writeFile(path, n) {
  const target = 1 + ((n - 1) >> 12);
  const started = performance.now();
  await tc.writeSnapshotFile(
    path,
    {
      version: 2,
      type: 0,
      genesisMilestoneIndex: 0,
      targetMilestoneIndex: target,
      targetMilestoneTimestamp: 1_700_000_000 + target * 5,
      targetMilestoneId: id32(target, 0x4d),
      ledgerMilestoneIndex: target,
      treasuryOutput: { milestoneId: new Uint8Array(32), amount: SUPPLY - BigInt(n) * AMOUNT },
      protocolParameters: {
        type: 1,
        targetMilestoneIndex: 0,
        protocolVersion: 2,
        params: {
          protocolVersion: 2,
          networkName: 'bench',
          bech32Hrp: 'rms',
          minPowScore: 0,
          belowMaxDepth: 15,
          rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
          tokenSupply: SUPPLY,
        },
      },
    },
    {
      outputs: (function* () {
        for (let i = 0; i < n; i++) yield outputAt(i);
      })(),
      solidEntryPoints: [id32(target, 0x5e)],
    },
  );
  return (performance.now() - started) / 1000;
}

/**
 * The process's own memory now, in MB: its anonymous resident pages (Linux: RssAnon), which leave out the pages of
 * files it maps (LMDB maps its data file: those pages belong to the page cache, which the kernel reclaims).
 */
function anonymousMB() {
  const m = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}

/** A phase in this process (the child): prints {seconds, outputs, maxRssMB, maxAnonMB}. */
async function phase(name, file) {
  let maxAnonMB = anonymousMB();
  const sampler = setInterval(() => (maxAnonMB = Math.max(maxAnonMB, anonymousMB())), 100);
  const started = performance.now();
  let outputs = 0;
  let loadSeconds;
  let buildSeconds;
  if (name === 'read') {
    for await (const r of tc.readSnapshotFile(file)) if (r.kind === 'output') outputs++;
  } else if (name === 'postgres') {
    // The LMDB import, then its load into a new PostgreSQL database (import-snapshot --store): timed apart.
    const cluster = startPostgres();
    if ('unavailable' in cluster) throw new Error(`no PostgreSQL: ${cluster.unavailable}`);
    const dir = mkdtempSync(join(os.tmpdir(), 'tangle-bench-import-'));
    try {
      cluster.primary.sql('create database bench');
      const url = `postgresql://postgres@/bench?host=${encodeURIComponent(cluster.primary.host)}&port=${cluster.primary.port}`;
      const { createReadStream } = await import('node:fs');
      const path = join(dir, 'db');
      const result = await tc.importSnapshot({ path, full: createReadStream(file, { highWaterMark: 1 << 20 }) });
      outputs = result.unspentOutputs;
      const ledger = tc.openLedger({ path, params: result.params, readOnly: true });
      const loading = performance.now();
      // The indexer's entries of a large ledger are its writer's, built after the load (issue 58): not timed here.
      const publisher = await tc.PostgresPublisher.open(url, ledger, { bulk: true, indexBuild: { background: false } });
      await publisher.published();
      await publisher.close();
      loadSeconds = (performance.now() - loading) / 1000;
      if (process.argv.includes('--pg-build')) {
        // The writer's build of them, step after step (serve --db DIR --store URL does it while it serves).
        const building = performance.now();
        const writer = await tc.PostgresPublisher.open(url, ledger);
        if (!(await writer.indexBuilt())) throw new Error("the indexer's build stopped");
        await writer.close();
        buildSeconds = (performance.now() - building) / 1000;
      }
      ledger.close();
    } finally {
      cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    const dir = mkdtempSync(join(os.tmpdir(), 'tangle-bench-import-'));
    try {
      const { createReadStream } = await import('node:fs');
      const result = await tc.importSnapshot({
        path: join(dir, 'db'),
        full: createReadStream(file, { highWaterMark: 1 << 20 }),
      });
      outputs = result.unspentOutputs;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const seconds = (performance.now() - started) / 1000 - (buildSeconds ?? 0); // end to end: until it serves
  clearInterval(sampler);
  maxAnonMB = Math.max(maxAnonMB, anonymousMB());
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ seconds, outputs, maxRssMB, maxAnonMB, loadSeconds, buildSeconds })}\n`);
}

async function main() {
  const n = Number(arg('outputs', '10000000'));
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-bench-snapshot-'));
  const file = join(dir, 'full.bin');
  try {
    const wrote = await writeFile(file, n);
    const bytes = statSync(file).size;
    console.log(`wrote ${n} outputs, ${(bytes / 1e6).toFixed(0)} MB, in ${wrote.toFixed(1)} s`);
    const extra = process.argv.includes('--pg-build') ? ['--pg-build'] : [];
    const run = (name) => {
      const out = execFileSync(process.execPath, [resolve(here, 'snapshot.mjs'), '--phase', name, ...extra, file], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      });
      const r = JSON.parse(out.trim().split('\n').at(-1));
      if (r.outputs !== n) throw new Error(`${name}: ${r.outputs} outputs, not ${n}`);
      console.log(name, r);
      return r;
    };
    const read = run('read');
    const imported = run('import');
    const postgres = run('postgres');
    const rate = (r) => Math.round(n / r.seconds);
    const ratio = rate(imported) / rate(read);
    const pgRate = Math.round(n / postgres.loadSeconds);
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    writeSection(
      'snapshot',
      `A synthetic full snapshot of ${n.toLocaleString('en')} outputs (${(bytes / 1e6).toFixed(0)} MB; basic outputs
with storage deposit returns, timelocks, expirations, senders and tags, aliases, foundries, NFTs with issuers, booked
over ${(1 + ((n - 1) >> 12)).toLocaleString('en')} milestones), written by \`writeSnapshotFile\` in ${wrote.toFixed(0)} s.
Each phase in a process of its own, ${os.cpus().length} cores (${cpu}), Node ${process.versions.node}.

| phase | time | outputs/s | peak memory of its own (RssAnon) | peak resident (with mapped files) |
|---|---:|---:|---:|---:|
| read and decode the file (\`readSnapshotFile\`) | ${read.seconds.toFixed(1)} s | ${rate(read).toLocaleString('en')} | ${read.maxAnonMB.toFixed(0)} MB | ${read.maxRssMB.toFixed(0)} MB |
| import into LMDB (\`importSnapshot\`: outputs, transactions, chains; the indexer's entries left to the first writer) | ${imported.seconds.toFixed(1)} s | ${rate(imported).toLocaleString('en')} | ${imported.maxAnonMB.toFixed(0)} MB | ${imported.maxRssMB.toFixed(0)} MB |
| then load into PostgreSQL (\`import-snapshot --store\`: indexes dropped, built after; the indexer's entries left to its writer) | ${postgres.loadSeconds.toFixed(1)} s | ${pgRate.toLocaleString('en')} | ${postgres.maxAnonMB.toFixed(0)} MB (both steps) | ${postgres.maxRssMB.toFixed(0)} MB |
${postgres.buildSeconds === undefined ? '' : `| then the database writer's build of the indexer's entries (in steps of the default size, while it serves; \`--pg-build\`) | ${postgres.buildSeconds.toFixed(1)} s | ${Math.round(n / postgres.buildSeconds).toLocaleString('en')} | | |\n`}| import into PostgreSQL, end to end (LMDB, then the load) | ${postgres.seconds.toFixed(1)} s | ${rate(postgres).toLocaleString('en')} | | |

Import into LMDB ÷ read: **${ratio.toFixed(2)}** (target ≥ 0.25: ${ratio >= 0.25 ? 'met' : 'not met'}); into PostgreSQL, end to end ÷
read: **${(rate(postgres) / rate(read)).toFixed(2)}** (target ≥ 0.12: ${rate(postgres) / rate(read) >= 0.12 ? 'met' : 'not met'}). The import's own memory peaks at
**${imported.maxAnonMB.toFixed(0)} MB** (target < 512 MB: the file is streamed one record at a time; the external sort
holds one 96 MB run and the buffers on their way to it, then a read buffer per run); its resident size also counts
the pages of the LMDB file it maps, which belong to the page cache. PostgreSQL: a private server (primary and hot
standby, \`scripts/postgres-cluster.mjs\`) on the same 2 cores; the load is one transaction of binary \`COPY\`s
(pg-copy-streams), its keys and indexes built after the rows.

The import runs on two threads: the one that reads the snapshot, builds each output's records (its record, its
transaction's, its chain's, four or five indexer entries: about seven) and appends them to LMDB, and the external
sort's (\`src/ledger/store/sort-worker.ts\`: sorting the runs, then merging them). At 1,000,000 outputs
(\`node bench/snapshot.mjs --phase import FILE\`, timed by phase): reading, decoding and building took the first
thread 6.6 s and the sort's thread kept up; the merge and LMDB's appends took 5.8 s more, of which LMDB's appends alone
about 3.9 s (6.9 million appends at 0.55 µs each, measured apart: LMDB takes one writer, so they cannot be spread).
Since the appends need the whole sorted order, which exists only once the last output is read, the two phases cannot
overlap: a ratio of 0.25 would need both in 8 s.

Before issue 44 (the same benchmark, 2026-11-25, commit 2449d99: the sort on the importing thread, the load into
PostgreSQL by \`INSERT … unnest\` of 10,000 rows): LMDB import 171.5 s (0.13 of the read rate), the load into
PostgreSQL 293.9 s, end to end 463.9 s (0.05); own memory 295 MB.
`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `--phase write|read|import FILE` runs one phase alone (a profile of it: node --cpu-prof bench/snapshot.mjs …).
if (arg('phase') === 'write') await writeFile(process.argv.at(-1), Number(arg('outputs', '10000000')));
else if (process.argv.includes('--phase')) await phase(arg('phase'), process.argv.at(-1));
else await main();
