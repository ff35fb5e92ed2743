// node bench/follow-hostile.mjs [--cli PATH] [--phase-seconds 60] [--dag-width 1000] [--dag-depth 114]
//   [--attacks oversized,...] [--trace]
// `serve --follow` against the full-size attacks of issue 57 (bench/hostile-source.mjs), with the follower's default
// bounds: per attack, the refusals it reported and the follower's RSS (sampled each 200 ms, and VmHWM, its peak so
// far), then how long it takes, once the source is honest again, to apply the next milestone. --cli runs another
// build (071cacc's, for the before). Each attack runs until it was refused 3 times or for --phase-seconds.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileSource } from './hostile-source.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(arg('--cli', join(here, '../dist/cli.js')));
const tc = await import(join(dirname(cli), 'index.js'));
const phaseSeconds = Number(arg('--phase-seconds', 60));
/** --attacks oversized,trickle: only these (by the source's mode; `honest`: the lower confirmed milestone). */
const only = arg('--attacks', undefined)?.split(',');
const dagShape = { width: Number(arg('--dag-width', 1000)), depth: Number(arg('--dag-depth', 114)) };
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-follow-hostile-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
await tc.ready();

// The honest node: a test network of 8 milestones, two tagged-data blocks each.
const testnet = tc.PROTOCOL_PARAMETERS.testnet;
const T0 = 1_700_000_000;
const SEP = new Uint8Array(32).fill(0xe1);
const address = tc.ed25519AddressOf(tc.ed25519PublicKey(new Uint8Array(32).fill(1)));
const output = {
  type: 3,
  amount: 1_000_000n,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address }],
  features: [],
};
const genesis = {
  outputs: [{ outputId: tc.outputId(new Uint8Array(32).fill(0xa1), 0), output }],
  timestamp: T0,
  solidEntryPoints: [SEP],
};
const file = await tc.genesisSnapshot(testnet, genesis);
await tc.importSnapshot({ path: join(dir, 'source'), full: file });
const source = tc.openLedger({
  path: join(dir, 'source'),
  params: tc.importedParams(tc.inspectStore(join(dir, 'source')).imported),
});
let previous = { id: SEP };
for (let k = 1; k <= 8; k++) {
  const tagged = (parents, i) =>
    tc.encodeBlock(
      tc.buildBlock({ parents, payload: { type: 5, tag: Uint8Array.of(k), data: Uint8Array.of(i) }, params: testnet }),
    );
  const a = tagged([previous.id], 0);
  const b = tagged([tc.blockId(a)], 1);
  const issued = tc.issueMilestone(source, {
    parents: [tc.blockId(b), ...(previous.bytes === undefined ? [] : [previous.id])],
    blocks: [...(previous.bytes === undefined ? [] : [previous.bytes]), a, b],
    timestamp: T0 + 5 * k,
    secretKeys: [tc.TESTNET_COORDINATOR_SECRET],
  });
  const payload = issued.milestone;
  const bytes = tc.encodeBlock(tc.buildBlock({ parents: payload.parents, payload, params: testnet }));
  previous = { id: tc.blockId(bytes), bytes };
}
const server = tc.createServer({ ledger: source });
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const hostile = await hostileSource(tc, `http://127.0.0.1:${server.address().port}`);
const { state } = hostile;

writeFileSync(join(dir, 'genesis.snapshot'), file);
const db = join(dir, 'follower');
const imported = spawnSync(process.execPath, [cli, 'import-snapshot', join(dir, 'genesis.snapshot'), '--db', db]);
if (imported.status !== 0) throw new Error(String(imported.stderr));
const flags = ['--port', '0', '--workers', '1', '--no-mqtt'];
const follower = spawn(process.execPath, [cli, 'serve', '--db', db, '--follow', hostile.url, ...flags], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
let listening;
const waiters = new Set();
const started = performance.now();
const heard = (d) => {
  out += d.toString();
  // --trace: the follower's lines as they come, with the seconds since it started.
  if (args.includes('--trace')) console.error(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${d}`.trim());
  for (const w of waiters) w();
};
follower.stdout.on('data', heard);
follower.stderr.on('data', heard);
follower.on('exit', (code) => {
  if (code !== null && code !== 0) console.error(`follower exited ${code}:\n${out}`);
});
/** Resolves true once `holds()`, false after `seconds`. */
const within = (holds, seconds) =>
  new Promise((done) => {
    const check = () => {
      if (!holds()) return;
      finish(true);
    };
    const timer = setTimeout(() => finish(false), seconds * 1000);
    const finish = (ok) => {
      clearTimeout(timer);
      waiters.delete(check);
      done(ok);
    };
    waiters.add(check);
    check();
  });
await within(() => {
  listening = /listening on (http:\S+)/.exec(out)?.[1];
  return listening !== undefined;
}, 120);

const status = () => readFileSync(`/proc/${follower.pid}/status`, 'utf8');
const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())[1]);
const mib = (k) => Math.round(k / 1024);
const lines = (pattern) => out.split('\n').filter((l) => pattern.test(l)).length;

const rows = [];
let applied = 0;
/** One attack until 3 refusals or the phase's time, sampling RSS; then honest, until the next milestone applies. */
async function attack(name, mode, claim, refusal, extra = {}) {
  if (only !== undefined && !only.includes(mode)) return;
  const before = lines(refusal);
  let maxRss = 0;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, kb('VmRSS'));
  }, 200);
  Object.assign(state, { mode, claim, ...extra });
  const t0 = performance.now();
  await within(() => lines(refusal) - before >= 3, phaseSeconds);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const refused = lines(refusal) - before;
  let health;
  if (mode === 'honest') health = (await fetch(`${listening}/health`)).status;
  applied++;
  Object.assign(state, { mode: 'honest', claim: applied });
  const t1 = performance.now();
  const resumed = await within(() => new RegExp(`^milestone ${applied} applied`, 'm').test(out), phaseSeconds);
  const resume = resumed ? ((performance.now() - t1) / 1000).toFixed(1) : `not in ${phaseSeconds}`;
  const row = {
    name,
    refused,
    seconds: seconds.toFixed(1),
    maxRss: mib(maxRss),
    peak: mib(kb('VmHWM')),
    resume,
    health,
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}

state.claim = 1;
state.mode = 'honest';
await within(() => /^milestone 1 applied/m.test(out), 120);
applied = 1;
console.log(`cli ${cli}; follower at milestone 1, RSS ${mib(kb('VmRSS'))} MiB`);
await attack('forged signatures over a junk DAG', 'forged', 8, /MILESTONE_SIGNATURE_INVALID/, { dag: dagShape });
await attack('a 64 MiB cone for every milestone of the window', 'oversized', 30, /^follow: milestone \d+: /);
await attack('a fresh junk DAG for each attempt, signed (testnet key)', 'junk-dag', 30, /^follow: milestone \d+: /, {
  dag: dagShape,
});
await attack('answers trickling a byte each 2 s', 'trickle', 30, /^follow: milestone \d+: /, { trickleMs: 2000 });
// A node behind the follower: /health must not say healthy.
await attack('a lower confirmed milestone', 'honest', 1, /behind the store/);

console.log(
  '\n| attack | refusals | for (s) | RSS max (MiB) | VmHWM so far (MiB) | honest again: next milestone in (s) |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const h = r.health === undefined ? '' : ` (/health ${r.health})`;
  console.log(`| ${r.name}${h} | ${r.refused} | ${r.seconds} | ${r.maxRss} | ${r.peak} | ${r.resume} |`);
}
follower.kill('SIGTERM');
await hostile.close();
server.close();
source.close();
process.exit(0);
