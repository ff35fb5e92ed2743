// Does the rate hold as the history grows? (issue 58)   node bench/history-growth.mjs [--milestones 20000]
//   [--dir DIR] [--label NAME] [--profile] [--pair [--rounds 2]] [--report] [--no-write]
// A history of Shimmer's everyday shape (bench/history-generate.mjs: 40 blocks a milestone, 5 transactions, a
// conflict in every tenth) is generated once into DIR (kept: a later run with the same --milestones reuses it, so
// that before/after runs apply the same milestones), then applied milestone by milestone in process, as
// import-milestones applies them (the archive and analytics in each commit, the next milestone's blocks prechecked
// on the ingest pool meanwhile), into a new store. Per tenth: the rate, the CPU time a milestone (process.cpuUsage:
// this thread and the precheck's), the main thread's time in applyMilestone alone, the heap, the RSS and the store's
// size. Generating is timed apart (the generator's own ledger slows as it grows: not what is measured here).
// --store-only: generate only, into the generator's own store, kept (resumable: kill it, or `touch DIR/STOP`, and
// run again to go on; DIR/generation.ndjson has the figures every 1,000 milestones) — the million-milestone history.
// --profile: a CPU profile of the first and of the last tenth (DIR/first.cpuprofile, DIR/last.cpuprofile).
// --pair (after a run by tenths, which keeps the store the ninth tenth left): the first tenth and the last applied at
// the same time by two processes, so that both see the same load. Each run's figures are kept in DIR under its
// --label (default DIR: the system's temporary directory); the section shows them all, --report rewrites it alone.
import { execFile } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  createReadStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as tc from '../dist/index.js';
import { genesisOutput, importedLedger, issueHistory } from './history-generate.mjs';
import { writeSection } from './results-file.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const m = Number(arg('--milestones', 20_000));
const dir = arg('--dir', join(os.tmpdir(), `tangle-history-growth-${m}`));
const TXS = 5;
// --store-only: the history is the generator's own store (DIR/coordinator, kept: a node serves it with `serve --db`),
// and no file of it is written (at a million milestones that file would be some 24 GB beside a 30 GB store).
const storeOnly = args.includes('--store-only');
await tc.ready();

// What the runs of 2026-11-29 showed (20,000 milestones; profiles with --profile, page writes with strace): prose, kept
// with the tables it explains.
const FINDINGS = `Where the time goes (\`--profile\`: CPU profiles of the first and the last tenth, sampled on the
thread that applies): the LMDB commit (lmdb-js \`finishTxn\`: the transaction's dirty pages written, then fdatasync)
took 57 % of the first tenth's applying and 68 % of the last's, 13.6 → 24.5 ms a milestone of wall time on the shared
machine; white flag, signatures, Merkle roots, the analytics and the archive kept their shares, and their CPU stays
flat (tenths 2 to 10 above: the first tenth also holds the first milestone's archive built from all 100,000 unspent
outputs, and the indexer's background build after the snapshot import). What grows is the count of pages a commit
writes, \`strace -f -c -e trace=pwrite64,fdatasync -p PID\` for 5 to 8 s of a run: 40 page writes (4 KiB) a commit
a few hundred milestones in, 160 near milestone 5,000, 178 near 9,000, 181 near 18,500 (an fdatasync 0.4 → 1.9 ms).
The tables keyed by a hash (the block index: an entry for every block without a transaction, put in its milestone's
commit; the indexer's output entries; a spent output's record, marked in place) take a commit's keys into pages they
share while they have few pages, and into a page each (with its branch pages) once they have many more pages than a
commit has keys: from there a commit writes about as many pages as its cone has hashed keys, and the count levels off,
as it did here (the other tables append to their last page). The system part of the CPU (the page writes) grew with
it, 2.5 → 3.9 ms a milestone; the rest did not. The heap stays bounded (it is where the collector left it at each
tenth's end); the RSS grows with the store only by the file's pages LMDB maps, and its anonymous part stays flat.

Left open, with what the figures say: batching the block index's entries as the transaction index batches its records
(32 slots merged in key order: transaction-index.ts) saves pages only while the table has few pages, so not at a
million milestones; a hashed key's price in a B-tree is a page write. At 1,000,000 milestones the store would be about
30 GB (30.8 kB a milestone here), more than this machine's 23 GB of memory: the hashed tables (the block index about
2.7 GB then) must stay in the page cache, the appended ones need not. The one lever left is the commit's fdatasync (a
commit is on disk when \`write\` returns: store/lmdb.ts), which an import could relax (LMDB's MDB_NOMETASYNC keeps
every commit atomic and consistent and can lose only the last on a power loss): a decision on the store's promise, not
taken here.

So the fall issue 58 measured (\`bench/history.mjs\` at 10,000 milestones against 1,000: 375 → 177 milestones a
second in process) is this levelling off seen from its low end, and more: that script's genesis has 5 outputs for
each milestone asked for, so its 10,000-milestone run also paid for a snapshot ten times as large (the first
milestone's archive of 50,000 outputs, the indexer's background build) within its one whole-run rate.
`;

/**
 * The history in DIR: generated unless a run with the same --milestones left it there. Resumable (a million
 * milestones take hours): `touch DIR/STOP` stops it at the next hundredth milestone (with --store-only it may be
 * killed at any time: each milestone is one commit), and a later run goes on from there — the coordinator's ledger
 * (DIR/coordinator) holds every milestone issued, the last one's payload is where the next one's cone starts. Every 1,000 milestones a line of DIR/generation.ndjson keeps the
 * generator's own figures (its ledger applies each milestone it issues, so they show that ledger's growth too).
 */
async function generated() {
  const meta = join(dir, 'history.json');
  if (existsSync(meta) && JSON.parse(readFileSync(meta, 'utf8')).milestones === m) {
    console.log(`reusing the history in ${dir}`);
    return JSON.parse(readFileSync(meta, 'utf8'));
  }
  const progressFile = join(dir, 'progress.json');
  const resumed = existsSync(progressFile) ? JSON.parse(readFileSync(progressFile, 'utf8')) : undefined;
  let progress = resumed?.milestones === m ? resumed : undefined;
  let ledger;
  // Made when asked: a million milestones' genesis outputs held as objects ran a 6 GB heap out (2026-11-29).
  const outputs = genesisOutput;
  let from;
  if (progress === undefined) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await genesisFile(m * TXS, join(dir, 'genesis.snapshot'));
    ledger = await importedLedger(join(dir, 'coordinator'), readFileSync(join(dir, 'genesis.snapshot')));
    progress = { milestones: m, done: 0, blocks: 0, seconds: 0, user: 0, system: 0 };
  } else {
    ledger = tc.openLedger({
      path: join(dir, 'coordinator'),
      params: tc.importedParams(tc.inspectStore(join(dir, 'coordinator')).imported),
    });
    from = lastIssued(ledger, progress);
    progress.done = from.done;
    console.log(`resuming the history in ${dir} after milestone ${progress.done}`);
  }
  const out = storeOnly ? undefined : openSync(join(dir, 'history.ndjson'), 'a');
  // issueHistory never yields, so no signal handler could run: a run is stopped by a file, or killed (--store-only).
  const stopFile = join(dir, 'STOP');
  rmSync(stopFile, { force: true });
  const stopping = () => progress.done % 100 === 0 && existsSync(stopFile);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const figures = () => {
    const cpu = process.cpuUsage(cpu0);
    return {
      ...progress,
      seconds: progress.seconds + (performance.now() - t0) / 1000,
      user: progress.user + cpu.user / 1e6,
      system: progress.system + cpu.system / 1e6,
    };
  };
  // Written as it is issued (issueHistory never yields: a stream would hold the whole file until the end).
  issueHistory(
    ledger,
    outputs,
    m,
    40,
    TXS,
    (x) => {
      // One double spend in every tenth milestone, none elsewhere: anything else is a generator (or a resume) that
      // lost its place among the genesis outputs.
      const conflicts = (progress.done + 1) % 10 === 0 ? 1 : 0;
      if (x.conflicting !== conflicts)
        throw new Error(`milestone ${progress.done + 1} holds ${x.conflicting} conflicting, not ${conflicts}`);
      progress.blocks += x.blocks.length;
      if (out !== undefined)
        writeSync(
          out,
          `${JSON.stringify({ milestone: tc.milestonePayloadToJson(x.milestone), blocks: x.blocks.map(tc.toHex) })}\n`,
        );
      if (++progress.done % 1000 === 0) {
        const f = figures();
        const line = {
          ...f,
          heap: process.memoryUsage().heapUsed,
          ...rss(),
          store: storeBytes(join(dir, 'coordinator')),
        };
        writeFileSync(join(dir, 'generation.ndjson'), `${JSON.stringify(line)}\n`, { flag: 'a' });
        const fileBytes = out === undefined ? 0 : fstatSync(out).size;
        writeFileSync(progressFile, JSON.stringify({ ...f, fileBytes }));
        console.log(
          `generated ${f.done} milestones, ${f.seconds.toFixed(0)} s, CPU ${(f.user + f.system).toFixed(0)} s`,
        );
      }
    },
    from,
    stopping,
  );
  if (out !== undefined) closeSync(out);
  ledger.close();
  if (progress.done < m) {
    const fileBytes = storeOnly ? 0 : statSync(join(dir, 'history.ndjson')).size;
    writeFileSync(progressFile, JSON.stringify({ ...figures(), fileBytes }));
    console.log(`stopped after milestone ${progress.done} of ${m}: run again with the same --milestones to go on`);
    process.exit(0);
  }
  if (!storeOnly) rmSync(join(dir, 'coordinator'), { recursive: true, force: true });
  const f = figures();
  const h = { milestones: m, blocks: f.blocks, generatedSeconds: f.seconds, generatedCpu: f.user + f.system };
  writeFileSync(meta, JSON.stringify(h));
  rmSync(progressFile, { force: true });
  return h;
}

/** The genesis snapshot of `outputs` outputs written to `path`, in a thread whose heap goes with it. */
function genesisFile(outputs, path) {
  const worker = new Worker(new URL('./history-genesis-worker.mjs', import.meta.url), {
    workerData: { outputs, path },
    resourceLimits: { maxOldGenerationSizeMb: 12288 },
  });
  return new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`genesis worker exited with ${code}`))));
  });
}

/**
 * The last milestone a stopped generation issued: the ledger's last, which the progress names. With --store-only the
 * ledger alone is the history, so a run killed hard goes on from the ledger's last milestone too; with the history
 * file, that file is cut back to where the progress left it (a kill after the last stop may have written more).
 */
function lastIssued(ledger, progress) {
  let done = progress.done;
  while (storeOnly && ledger.milestone(done + 1) !== undefined) done++;
  if (ledger.milestone(done) === undefined || ledger.milestone(done + 1) !== undefined)
    throw new Error(`the coordinator's ledger does not end at milestone ${done}: generate again (rm -r ${dir})`);
  if (!storeOnly) truncateSync(join(dir, 'history.ndjson'), progress.fileBytes);
  return { done, milestone: tc.decodeMilestonePayload(ledger.milestone(done).payload) };
}

/** The milestones of the history file, parsed, in order. */
async function* milestones(skip) {
  const lines = createInterface({ input: createReadStream(join(dir, 'history.ndjson'), { highWaterMark: 1 << 20 }) });
  let n = 0;
  for await (const line of lines) {
    if (n++ < skip) continue;
    const json = JSON.parse(line);
    yield { milestone: tc.milestonePayloadFromJson(json.milestone), blocks: json.blocks.map(tc.fromHex) };
  }
}

/** The resident set (kB → bytes): all of it, and its anonymous part (the file's pages LMDB maps are the rest). */
const rss = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon') };
};
/** The bytes the store's files take on disk (allocated blocks, not the map's reserved size). */
const storeBytes = (path) => {
  let sum = 0;
  for (const f of ['data.mdb', 'lock.mdb']) if (existsSync(join(path, f))) sum += statSync(join(path, f)).blocks * 512;
  return sum;
};

async function profiled(session, name, run) {
  if (session === undefined) return run();
  await session.post('Profiler.start');
  const r = await run();
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  return r;
}

/** Applies `count` milestones from `source` (each prechecked while the one before is applied): the figures. */
async function applyCount(ledger, source, count) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let applying = 0;
  let blocks = 0;
  let bytes = 0;
  let next = (await source.next()).value;
  let ahead = ledger.precheck(next.blocks);
  for (let k = 0; k < count; k++) {
    const x = next;
    await ahead;
    next = k + 1 < count ? (await source.next()).value : undefined;
    ahead = next === undefined ? undefined : ledger.precheck(next.blocks);
    const a0 = performance.now();
    tc.applyMilestone(ledger, x);
    applying += performance.now() - a0;
    blocks += x.blocks.length;
    for (const b of x.blocks) bytes += b.length;
  }
  const cpu = process.cpuUsage(cpu0);
  return { count, blocks, bytes, seconds: (performance.now() - t0) / 1000, applying: applying / 1000, cpu };
}

const tenth = Math.floor(m / 10);
const cpuMs = (r) => (r.cpu.user + r.cpu.system) / 1000 / r.count;
if (args.includes('--child')) {
  // One side of --pair: the milestones after the SKIP first onto the store at STORE, the figures on stdout.
  const [path, skip] = [arg('--child'), Number(arg('--skip'))];
  const ledger = tc.openLedger({ path, params: tc.importedParams(tc.inspectStore(path).imported) });
  const r = await applyCount(ledger, milestones(skip), Number(arg('--count')));
  ledger.close();
  console.log(JSON.stringify(r));
  process.exit(0);
}
if (storeOnly) {
  await generated();
  process.exit(0);
}
if (args.includes('--pair')) await pair();
else if (!args.includes('--report')) await tenths();
const runs = () =>
  readdirSync(dir)
    .filter((f) => /^(run|pair)-.*\.json$/.test(f))
    .map((f) => readJson(join(dir, f)));
console.log(markdown(runs()));
if (!args.includes('--no-write')) writeSection('history-growth', markdown(runs()));

/** The history applied by tenths into a new store; the store at the ninth's end kept (DIR/at-ninth) for --pair. */
async function tenths() {
  await generated();
  const store = join(dir, 'apply');
  rmSync(store, { recursive: true, force: true });
  const ledger = await importedLedger(store, readFileSync(join(dir, 'genesis.snapshot')));
  const session = args.includes('--profile') ? new Session() : undefined;
  if (session !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
  }
  const rows = [];
  const source = milestones(0);
  const startBytes = storeBytes(store);
  for (let t = 0; t < 10; t++) {
    const count = t === 9 ? m - 9 * tenth : tenth;
    // Between two commits the file is whole (each write is one synchronous transaction): a copy is a store.
    if (t === 9) copyStore(store, join(dir, 'at-ninth'));
    const name = t === 0 ? 'first' : t === 9 ? 'last' : undefined;
    const run = () => applyCount(ledger, source, count);
    const r = name === undefined ? await run() : await profiled(session, name, run);
    const row = { ...r, heap: process.memoryUsage().heapUsed, ...rss(), store: storeBytes(store) };
    rows.push(row);
    console.log(
      `tenth ${t + 1}: ${(count / row.seconds).toFixed(0)} milestones/s, ${cpuMs(row).toFixed(2)} ms CPU a milestone ` +
        `(system ${(row.cpu.system / 1000 / count).toFixed(2)}), ` +
        `${((row.applying * 1000) / count).toFixed(2)} ms in applyMilestone, ` +
        `heap ${(row.heap / 2 ** 20).toFixed(0)} MiB, ` +
        `RSS ${(row.rss / 2 ** 20).toFixed(0)} MiB (anonymous ${(row.anon / 2 ** 20).toFixed(0)}), ` +
        `store ${(row.store / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  ledger.close();
  session?.disconnect();
  // The run's figures, kept under its label beside the history: the section shows every labelled run on this
  // history (a build before a change and after it, run alternately on the same milestones).
  const label = arg('--label', 'this build');
  const blockBytes = rows.reduce((s, r) => s + r.bytes, 0);
  const run = { label, rows, startBytes, tables: tableStats(store), blockBytes, when: new Date().toISOString() };
  writeFileSync(join(dir, `run-${label.replace(/\W+/g, '-')}.json`), JSON.stringify(run));
}

function copyStore(from, to) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to);
  copyFileSync(join(from, 'data.mdb'), join(to, 'data.mdb'));
}

/**
 * The first tenth onto a new store and the last onto the store the ninth left (DIR/at-ninth), at the same time, as
 * two processes: both see the same machine, so what differs is the history behind them. --rounds times.
 */
async function pair() {
  const rounds = Number(arg('--rounds', 2));
  const results = [];
  for (let k = 0; k < rounds; k++) {
    const first = join(dir, 'pair-first');
    rmSync(first, { recursive: true, force: true });
    await tc.importSnapshot({ path: first, full: readFileSync(join(dir, 'genesis.snapshot')) });
    copyStore(join(dir, 'at-ninth'), join(dir, 'pair-last'));
    const side = (path, skip, count) =>
      new Promise((done, fail) =>
        execFile(
          process.execPath,
          [
            fileURLToPath(import.meta.url),
            '--milestones',
            String(m),
            '--dir',
            dir,
            '--child',
            path,
            '--skip',
            String(skip),
            '--count',
            String(count),
          ],
          { maxBuffer: 1 << 20 },
          (e, out) => (e ? fail(e) : done(JSON.parse(out.trim().split('\n').at(-1)))),
        ),
      );
    const [a, z] = await Promise.all([side(first, 0, tenth), side(join(dir, 'pair-last'), 9 * tenth, m - 9 * tenth)]);
    console.log(`round ${k + 1}: first tenth ${cpuMs(a).toFixed(2)} ms CPU a milestone, last ${cpuMs(z).toFixed(2)}`);
    results.push({ first: a, last: z });
  }
  const label = arg('--label', 'this build');
  writeFileSync(
    join(dir, `pair-${label.replace(/\W+/g, '-')}.json`),
    JSON.stringify({ label, pair: results, when: new Date().toISOString() }),
  );
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Each LMDB table's pages and entries (the store keeps a table per key prefix, store/lmdb.ts: `t` and the prefix),
 * named by src/ledger/common/store-keys.ts's TABLE.
 */
function tableStats(path) {
  const names = new Map();
  const source = readFileSync(resolve(import.meta.dirname, '../src/ledger/common/store-keys.ts'), 'utf8');
  for (const m of /const TABLE = \{([\s\S]*?)\}/.exec(source)[1].matchAll(/(\w+): 0x([0-9a-f]{2})/g))
    names.set(Number.parseInt(m[2], 16), m[1]);
  const lmdb = createRequire(import.meta.url)('lmdb');
  const root = lmdb.open({ path, readOnly: true, maxDbs: 64 });
  const out = [];
  for (const [id, name] of names) {
    const db = root.openDB({ name: `t${id}`, keyEncoding: 'binary', encoding: 'binary', create: false });
    if (db === undefined) continue;
    const s = db.getStats();
    const pages = s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages;
    out.push({ name, entries: s.entryCount, bytes: pages * s.pageSize, depth: s.treeDepth });
  }
  root.close();
  return out.sort((a, b) => b.bytes - a.bytes);
}

function markdown(all) {
  const runs = all.filter((r) => r.rows !== undefined);
  const pairs = all.filter((r) => r.pair !== undefined);
  const mib = (n) => (n / 2 ** 20).toFixed(0);
  const rate = (r) => r.count / r.seconds;
  const cpu = (r) => (r.cpu.user + r.cpu.system) / 1000 / r.count;
  const head = runs
    .map((r) => `${r.label}: milestones/s | CPU ms a milestone (of it system) | \`applyMilestone\` ms`)
    .join(' | ');
  const tenths = Array.from({ length: 10 }, (_, t) => {
    const cells = runs.map((r) => {
      const x = r.rows[t];
      const system = (x.cpu.system / 1000 / x.count).toFixed(2);
      return `${rate(x).toFixed(0)} | ${cpu(x).toFixed(2)} (${system}) | ${((x.applying * 1000) / x.count).toFixed(2)}`;
    });
    return `| ${t + 1} | ${cells.join(' | ')} |`;
  });
  const ratio = runs.map((r) => {
    const [a, z] = [r.rows[0], r.rows[9]];
    const w = rate(z) / rate(a);
    const applying = a.applying / a.count / (z.applying / z.count);
    return `${w.toFixed(2)} | ${(cpu(a) / cpu(z)).toFixed(2)} | ${applying.toFixed(2)}`;
  });
  const last = runs.sort((a, b) => a.when.localeCompare(b.when)).at(-1);
  const n = last.rows.reduce((s, r) => s + r.count, 0);
  const blocks = last.rows.reduce((s, r) => s + r.blocks, 0);
  const grown = last.rows.at(-1).store - last.startBytes;
  const memory = last.rows.map(
    (r, t) => `| ${t + 1} | ${mib(r.heap)} | ${mib(r.rss)} | ${mib(r.anon)} | ${mib(r.store)} |`,
  );
  const total = last.tables.reduce((s, t) => s + t.bytes, 0);
  const tables = last.tables
    .filter((t) => t.bytes > 0)
    .map(
      (t) => `| ${t.name} | ${t.entries} | ${mib(t.bytes)} | ${((100 * t.bytes) / total).toFixed(1)} % | ${t.depth} |`,
    );
  return `${n.toLocaleString('en')} milestones of Shimmer's everyday shape (bench/history-generate.mjs: 40 blocks a
milestone, 5 transactions, a conflict in every tenth; ${blocks.toLocaleString('en')} blocks), applied in process by
\`applyMilestone\` with the archive and analytics, the next milestone's blocks prechecked on the ingest pool
meanwhile, into a new LMDB store at the genesis snapshot (${(n * 5).toLocaleString('en')} outputs). ${os.cpus().length}
cores, Node ${process.versions.node}, a machine shared with other work: the CPU time a milestone (process.cpuUsage,
this thread and the precheck's) is the steadier measure. \`node bench/history-growth.mjs --milestones ${n} --label
NAME\`, each build in turn on the same history.

| tenth | ${head} |
|---:|${runs.map(() => '---:|---:|---:').join('|')}|
${tenths.join('\n')}
| last ÷ first (rate; CPU and apply time inverted: ≥ 0.8 holds) | ${ratio.join(' | ')} |

${pairs.length === 0 ? '' : pairTable(pairs)}${FINDINGS}
The last run (${last.label}): memory and the store by tenth.

| tenth | heap MiB | RSS MiB | of it anonymous | store MiB |
|---:|---:|---:|---:|---:|
${memory.join('\n')}

The store grew ${mib(grown)} MiB over the milestones: ${(grown / n).toFixed(0)} bytes a milestone,
${(grown / blocks).toFixed(0)} a block, ${(grown / last.blockBytes).toFixed(2)} × the blocks' own bytes.
Each table at the end (LMDB's pages, with the genesis snapshot's share):

| table | entries | MiB | share | B-tree depth |
|---|---:|---:|---:|---:|
${tables.join('\n')}
`;
}

function pairTable(pairs) {
  const cpu = (r) => (r.cpu.user + r.cpu.system) / 1000 / r.count;
  const rows = pairs.flatMap((p) =>
    p.pair.map(
      ({ first, last }, k) =>
        `| ${p.label} | ${k + 1} | ${cpu(first).toFixed(2)} | ${cpu(last).toFixed(2)} | ` +
        `${(first.count / first.seconds).toFixed(0)} | ${(last.count / last.seconds).toFixed(0)} | ` +
        `**${(cpu(first) / cpu(last)).toFixed(2)}** |`,
    ),
  );
  return `The first tenth and the last applied at the same time, each by a process of its own (the first onto a new
store at the genesis, the last onto a copy of the store the ninth tenth left): the same machine under the same load, so
what differs is the history behind them (and the first tenth's one-offs, below).
\`node bench/history-growth.mjs --milestones N --pair --label NAME\`.

| build | round | first tenth: CPU ms a milestone | last tenth | first: milestones/s | last | first ÷ last (CPU) |
|---|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

`;
}
