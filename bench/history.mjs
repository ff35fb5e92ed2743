// npm run bench:history — applying a network's milestones (issue 45), against the ledger's own ingest of the same
// blocks:   node bench/history.mjs [--milestones 1000] [--peak-milestones 100] [--no-write]
// A synthetic history of a test network, issued by its coordinator (issueMilestone): shaped like Shimmer's (about 40
// blocks a milestone, 5 of them transactions, cones as wide and deep as real ones) and like its spam peaks (about 400
// blocks a milestone, 20 transactions), a double spend in every tenth milestone (conflicting). Per shape, in one run:
//   1. the ledger's own ingest of the same blocks (prechecked on the ingest pool, acceptBlock into the milestone's
//      slot, then commitSlot), LMDB;
//   2. applyMilestone over the same parsed milestones and blocks, the next one's prechecked meanwhile, LMDB;
//   1b. the ledger's own ingest end to end: `tangle-core import FILE` of the same blocks (a history file), a process;
//   3. `tangle-core import-milestones FILE` end to end (reading NDJSON, hex, JSON), a process of its own;
//   4. `tangle-core serve --follow` from a local `tangle-core serve` over HTTP, until the last milestone is applied.
// Ratios: 2 ÷ 1 and 3 ÷ 1b (target ≥ 0.8: what order, roots and signatures cost, in process and end to end), 3 ÷ 1
// (the file's reading too, shown), 4 ÷ 3 (target ≥ 0.5).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { genesisSnapshot, importedLedger as importedStore, issueHistory, T0 } from './history-generate.mjs';
import { acceptPipelined } from './ledger-pipeline.mjs';
import { writeSection } from './results-file.mjs';
import * as sim from './sim-entry.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-history-bench-'));
// --keep: the histories and stores stay (to profile a phase on its own).
if (!args.includes('--keep')) process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
else console.log(`keeping ${dir}`);
await tc.ready();

const testnet = tc.PROTOCOL_PARAMETERS.testnet;

async function importedLedger(name, file) {
  const path = join(dir, name);
  return { path, ledger: await importedStore(path, file) };
}

/** The history of one shape (bench/history-generate.mjs), kept in memory and written as NDJSON for the CLI. */
async function history(shape, m, perMilestone, txs) {
  const { outputs, file } = await genesisSnapshot(m * txs);
  const { ledger } = await importedLedger(`${shape}-coordinator`, file);
  const milestones = [];
  const ndjson = join(dir, `${shape}.ndjson`);
  const out = createWriteStream(ndjson);
  issueHistory(ledger, outputs, m, perMilestone, txs, (x) => {
    milestones.push(x);
    out.write(
      `${JSON.stringify({ milestone: tc.milestonePayloadToJson(x.milestone), blocks: x.blocks.map(tc.toHex) })}\n`,
    );
  });
  await new Promise((done) => out.end(done));
  ledger.close();
  const conflicting = milestones.reduce((s, x) => s + x.conflicting, 0);
  return {
    file,
    outputs,
    milestones,
    ndjson,
    conflicting,
    blocks: milestones.reduce((s, x) => s + x.blocks.length, 0),
  };
}

/**
 * 1. The ledger's own ingest, as a node feeds it (bench/ledger-pipeline.mjs): the blocks prechecked on the ingest
 * pool's threads while this one accepts each into its milestone's slot (a conflict refused), each slot committed once
 * its blocks are in.
 */
async function ingest(h, name) {
  const path = join(dir, name);
  const params = tc.protocolParameters(testnet, { genesisUnixTime: T0 - 10 });
  const ledger = tc.openLedger({
    path,
    params,
    genesis: { outputs: h.outputs.map(({ outputId, output }) => ({ outputId, output })) },
  });
  const slotOf = new Map();
  for (const [k, x] of h.milestones.entries()) for (const b of x.blocks) slotOf.set(b, k + 1);
  const blocks = [...slotOf.keys()];
  let refused = 0;
  const refusedBlocks = new Set();
  let committed = 0;
  const t0 = performance.now();
  await acceptPipelined(ledger, blocks, (bytes) => {
    const slot = slotOf.get(bytes);
    while (committed < slot - 1) ledger.commitSlot(++committed);
    try {
      ledger.acceptBlock(bytes, { slot });
    } catch {
      refused++;
      refusedBlocks.add(bytes);
    }
  });
  while (committed < h.milestones.length) ledger.commitSlot(++committed);
  const seconds = (performance.now() - t0) / 1000;
  ledger.close();
  return { seconds, refused, refusedBlocks };
}

/** 2. applyMilestone over the same parsed milestones and blocks, the next milestone's blocks prechecked meanwhile. */
async function apply(h, name) {
  const { ledger } = await importedLedger(name, h.file);
  const t0 = performance.now();
  let ahead = ledger.precheck(h.milestones[0].blocks);
  for (const [k, x] of h.milestones.entries()) {
    await ahead;
    ahead = k + 1 < h.milestones.length ? ledger.precheck(h.milestones[k + 1].blocks) : undefined;
    tc.applyMilestone(ledger, { milestone: x.milestone, blocks: x.blocks });
  }
  const seconds = (performance.now() - t0) / 1000;
  const analytics = analyticsSeconds(ledger, h);
  ledger.close();
  return { seconds, analytics };
}

const VERDICTS = ['noTransaction', 'included', 'conflicting'];
/**
 * 2b. What measuring the analytics costs within applying (issue 46: they are measured and written in each milestone's
 * commit): measureMilestone over each applied milestone again, its cone and consumed outputs read from the store
 * beforehand, so that only the measuring is timed.
 */
function analyticsSeconds(ledger, h) {
  const cones = h.milestones.map((x) => {
    const index = x.milestone.index;
    const blocks = ledger
      .blockIdsOfSlot(index, 100_000)
      .map((id) => ledger.block(id))
      .sort((a, b) => a.whiteFlag.index - b.whiteFlag.index)
      .map((b) => ({ bytes: b.bytes, inclusion: VERDICTS[b.whiteFlag.inclusion] }));
    const consumed = new Map();
    return {
      ctx: { index, timestamp: x.milestone.timestamp, rent: ledger.params.rentStructure },
      blocks,
      consumed: (id) => {
        const key = tc.toHex(id);
        if (!consumed.has(key)) {
          const o = ledger.outputWithMetadata(id);
          consumed.set(key, { bytes: o.output, booked: o.createdSlot });
        }
        return consumed.get(key);
      },
    };
  });
  for (const c of cones) tc.measureMilestone(c); // the consumed outputs read, outside the timing
  const t0 = performance.now();
  for (const c of cones) tc.measureMilestone(c);
  return (performance.now() - t0) / 1000;
}

/** A store of the test network at its genesis, made by the CLI. */
function cliStore(name, h) {
  const snapshot = join(dir, `${name}.snapshot`);
  writeFileSync(snapshot, h.file);
  const db = join(dir, name);
  const r = spawnSync(process.execPath, [cli, 'import-snapshot', snapshot, '--db', db], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return db;
}

/** 3. `import-milestones` end to end, a process of its own. */
function importCli(h, name) {
  const db = cliStore(name, h);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'import-milestones', h.ndjson, '--db', db], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  return { seconds, db };
}

/**
 * 1b. The ledger's own ingest end to end: `tangle-core import` of the same blocks as a history file (JSON lines, hex,
 * a process of its own), without those ingest refused (import stops at a refusal): what import-milestones is compared
 * with, end to end against end to end.
 */
async function ownImportCli(h, refusedBlocks, name) {
  const file = join(dir, `${name}.history`);
  const out = createWriteStream(file);
  const genesis = { outputs: h.outputs.map(({ outputId, output }) => ({ outputId, output })), accounts: [] };
  out.write(`${sim.genesisLine({ network: 'testnet', genesisUnixTime: T0 - 10, genesis })}\n`);
  for (const [k, x] of h.milestones.entries()) {
    for (const bytes of x.blocks)
      if (!refusedBlocks.has(bytes)) out.write(`${sim.eventLine({ type: 'block', slot: k + 1, bytes })}\n`);
    out.write(`${sim.eventLine({ type: 'commit', slot: k + 1 })}\n`);
  }
  await new Promise((done) => out.end(done));
  const db = join(dir, name);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'import', file, '--db', db], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  return { seconds };
}

/** Starts a CLI process; resolves once its output matches `until`. */
function startCli(argv, until) {
  const child = spawn(process.execPath, [cli, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((done, fail) => {
    const check = (d) => {
      out += d.toString();
      if (until.test(out)) done({ child, out: () => out });
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
  });
}

/**
 * Before the source, as hornet: tangle-core's own cone route answers 404, so the follower asks block by block.
 * (A proxy in this process: it costs a little CPU of its own, on the same two cores.)
 */
function hornetProxy(target) {
  const server = createServer((req, res) => {
    if (req.url.startsWith('/api/tangle-core/')) return res.writeHead(404).end();
    const up = httpRequest(`${target}${req.url}`, { headers: { accept: req.headers.accept ?? '' }, agent }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    up.end();
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

/**
 * 4. `serve --follow` from a local `serve` over HTTP: from the follower's start to its last milestone applied; with
 * `asHornet`, through hornetProxy (block by block).
 */
async function follow(h, sourceDb, name, asHornet) {
  const db = cliStore(name, h);
  const flags = ['--port', '0', '--workers', '1', '--no-mqtt'];
  const source = await startCli(['serve', '--db', sourceDb, '--synced', ...flags], /listening on (http:\S+)/);
  let origin = /listening on (http:\S+)/.exec(source.out())[1];
  const proxy = asHornet ? await hornetProxy(origin) : undefined;
  if (proxy !== undefined) origin = `http://127.0.0.1:${proxy.address().port}`;
  const t0 = performance.now();
  const last = h.milestones.length;
  const follower = await startCli(
    ['serve', '--db', db, '--follow', origin, ...flags],
    new RegExp(`milestone ${last} applied`),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const p of [follower.child, source.child]) {
    p.removeAllListeners('exit');
    p.kill('SIGTERM');
  }
  proxy?.close();
  return { seconds };
}

const SHAPES = [
  {
    shape: 'shimmer',
    m: arg('--milestones', 1000),
    perMilestone: 40,
    txs: 5,
    what: "Shimmer's everyday: 40 blocks a milestone, 5 transactions",
  },
  {
    shape: 'peak',
    m: arg('--peak-milestones', 100),
    perMilestone: 400,
    txs: 20,
    what: 'a spam peak: 400 blocks a milestone, 20 transactions',
  },
];
const rows = [];
for (const s of SHAPES) {
  const h = await history(s.shape, s.m, s.perMilestone, s.txs);
  const own = await ingest(h, `${s.shape}-ingest`);
  const applied = await apply(h, `${s.shape}-apply`);
  const ownCli = await ownImportCli(h, own.refusedBlocks, `${s.shape}-own-cli`);
  const imported = importCli(h, `${s.shape}-cli`);
  const followed = await follow(h, imported.db, `${s.shape}-follow`, false);
  const perBlock = await follow(h, imported.db, `${s.shape}-follow-blocks`, true);
  rows.push({ ...s, h, own, applied, ownCli, imported, followed, perBlock });
  const t = { own, applied, ownCli, imported, followed, perBlock };
  console.log(s.shape, Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.seconds])));
}

const perSecond = (n, seconds) => Math.round(n / seconds).toLocaleString('en');
const table = rows
  .map((r) => {
    const b = r.h.blocks;
    const m = r.h.milestones.length;
    const line = (what, t) =>
      `| ${r.what} | ${what} | ${t.seconds.toFixed(2)} s | ${perSecond(m, t.seconds)} | ${perSecond(b, t.seconds)} |`;
    return [
      line('the ledger’s own ingest (ingest pool, `acceptBlock`, `commitSlot`)', r.own),
      line('`applyMilestone`, in process', r.applied),
      line('the ledger’s own ingest end to end: `import FILE` of the same blocks', r.ownCli),
      line('`import-milestones FILE`, end to end', r.imported),
      line('`serve --follow` a local tangle-core, over HTTP (a cone an answer)', r.followed),
      line('`serve --follow` the same as hornet answers (a block an answer)', r.perBlock),
    ].join('\n');
  })
  .join('\n');
const ratios = rows
  .map((r) => {
    const apply = r.own.seconds / r.applied.seconds;
    const cli = r.own.seconds / r.imported.seconds;
    const cliCli = r.ownCli.seconds / r.imported.seconds;
    const fol = r.imported.seconds / r.followed.seconds;
    const hornet = r.imported.seconds / r.perBlock.seconds;
    const met = (x, t) => `**${x.toFixed(2)}** (target ≥ ${t}: ${x >= t ? 'met' : 'not met'})`;
    const share = r.applied.analytics / r.applied.seconds;
    const analytics = `**${share.toFixed(2)}** (target ≤ 0.15: ${share <= 0.15 ? 'met' : 'not met'})`;
    return `| ${r.what} | ${met(apply, 0.8)} | ${met(cliCli, 0.8)} | ${cli.toFixed(2)} | ${met(fol, 0.5)} | ${hornet.toFixed(2)} | ${analytics} | ${r.h.conflicting} |`;
  })
  .join('\n');
const cpu = os.cpus()[0]?.model ?? 'unknown';
const markdown = `A synthetic history of the testnet preset, issued by its coordinator (\`issueMilestone\`), from a genesis snapshot
imported into LMDB; every tenth milestone holds a double spend (conflicting). ${os.cpus().length} cores (${cpu}),
Node ${process.versions.node}. \`node bench/history.mjs --milestones ${SHAPES[0].m} --peak-milestones ${SHAPES[1].m}\`.

| history | how | time | milestones/s | blocks/s |
|---|---|---:|---:|---:|
${table}

| history | \`applyMilestone\` ÷ own ingest (in process) | \`import-milestones\` ÷ \`import\` (end to end) | \`import-milestones\` ÷ own ingest in process | \`serve --follow\` ÷ \`import-milestones\` | the same, block by block (as hornet) | analytics ÷ \`applyMilestone\` | conflicting |
|---|---:|---:|---:|---:|---:|---:|---:|
${ratios}

The ledger's own ingest is the same blocks, each accepted into its milestone's slot (decode, syntax, signatures,
semantics) and the slot committed: what applying adds is the white-flag walk, the milestone's signature, the two
Merkle roots and its records (both precheck blocks on the ingest pool's worker threads while this thread applies),
and the milestone's analytics, measured and written in its commit (issue 46; their share of applying is the
\`measureMilestone\` calls alone, timed again over the applied milestones).
\`import-milestones\` adds starting a process, reading the file, JSON and hex, which \`import\` of the same blocks (a
history file of JSON lines, hex) pays too: the end-to-end ratio compares the two commands, the work the target names
(order, roots, signatures) and nothing else; the in-process ratio beside it counts the file's reading against applying.
\`serve --follow\` asks the source for each milestone and, from a tangle-core, its cone in one answer (tangle-core's
own route); hornet has no such route, so the last row asks block by block, 16 requests at a time and 8 milestones
ahead, through a proxy that answers that route 404 (the proxy's own work shares the two cores).
`;
if (!args.includes('--no-write')) writeSection('history', markdown);
console.log(markdown);
