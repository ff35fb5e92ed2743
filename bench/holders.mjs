// npx vite-node bench/holders.mjs -- (--db DIR | --demo N) [--requests 400] — the holder routes and the richest at
// the oldest and at the newest milestone of a history (issue 61: their cost must not grow with how far back the
// milestone lies), over HTTP one request at a time, p50 and p99 of each, with the load average; and the richest at the
// oldest in process, from its checkpoint and by undoing every update since (the way before checkpoints). DIR: a store
// that applied a history with this build (holdings and checkpoints are written as milestones are applied), e.g.
// `tangle-core import-snapshot` and `import-milestones` of bench/history.mjs --keep's; `--demo N`: the demo's first N
// milestones (seed 1, as `npm start` runs it: native tokens, aliases, foundries, NFTs), built first in a new store.
// Each kind's busiest subject (the most records) is found by one scan of the holdings' table before timing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';

const src = resolve(import.meta.dirname, '../src');
const tc = await import(join(src, 'index.ts'));
const { demoGenesis, demoTips, openDemoLedger, runDemo } = await import(join(src, 'node/demo.ts'));
const { Simulation } = await import(join(src, 'sim/simulator.ts'));

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const requests = Number(arg('--requests', 400));
await tc.ready();
let ledger;
let cleanup = () => {};
if (arg('--demo') !== undefined) {
  const n = Number(arg('--demo'));
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-holders-bench-'));
  cleanup = () => rmSync(dir, { recursive: true, force: true });
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, {
    genesisUnixTime: Math.floor(Date.now() / 1000) - n * 10 - 1,
  });
  const sim = new Simulation({ params, seed: 1, parents: () => demoTips(ledger) });
  const t0 = performance.now();
  ledger = await openDemoLedger(dir, params, demoGenesis(sim), (at) => tc.openLedger(at));
  runDemo(ledger, sim, n).stop();
  console.log(`demo of ${n} milestones built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} else {
  const db = arg('--db');
  if (db === undefined) throw new Error('bench/holders.mjs needs --db DIR or --demo N');
  ledger = tc.openLedger({ path: db, params: tc.importedParams(tc.inspectStore(db).imported), readOnly: true });
}
const first = ledger.explorer().holdings().holdingsFrom();
const latest = ledger.milestone(ledger.latestCommitment().slot).index;
const hrp = ledger.params.bech32Hrp;
const hex = (b) => `0x${Buffer.from(b).toString('hex')}`;
const bech32 = (b) => {
  const id = Uint8Array.from(b.subarray(1));
  const a = b[0] === 0 ? { type: 0, pubKeyHash: id } : b[0] === 8 ? { type: 8, aliasId: id } : { type: 16, nftId: id };
  return tc.addressToBech32(a, hrp);
};

// Each kind's subject with the most members (keys.holding: table, kind, subject length, subject, member, milestone).
const members = new Map();
for (const [k] of ledger.committedReads().store.entries(Uint8Array.of(0x6b))) {
  const subject = hex(k.subarray(1, 3 + k[2]));
  members.set(subject, (members.get(subject) ?? 0) + 1);
}
const busiest = (kind) =>
  [...members].filter(([s]) => Number.parseInt(s.slice(2, 4), 16) === kind).sort((a, b) => b[1] - a[1])[0];
const routes = [];
const token = busiest(1);
if (token)
  routes.push([`token holders (${token[1]} records)`, `/api/tangle-core/v1/tokens/0x${token[0].slice(6)}/holders`]);
const issuer = busiest(2);
if (issuer)
  routes.push([
    `issuer's NFTs (${issuer[1]} records)`,
    `/api/tangle-core/v1/issuers/${bech32(Buffer.from(issuer[0].slice(6), 'hex'))}/nfts`,
  ]);
const controller = busiest(3);
if (controller)
  routes.push([
    `aliases and foundries (${controller[1]} records)`,
    `/api/tangle-core/v1/addresses/${bech32(Buffer.from(controller[0].slice(6), 'hex'))}/aliases`,
  ]);
routes.push(['richest (top 100)', '/api/explorer/v2/ledger/richest-addresses?top=100']);
routes.push(['token distribution', '/api/explorer/v2/ledger/token-distribution']);

const server = tc.createServer({ ledger });
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(2)} ms`;
const rows = [];
for (const [name, path] of routes)
  for (const at of [first, latest]) {
    const url = `${origin}${path}${path.includes('?') ? '&' : '?'}ledgerIndex=${at}`;
    const times = [];
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.text();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    }
    rows.push(
      `| ${name} | ${at === first ? 'oldest' : 'newest'} (${at}) | ${ms(pct(times, 50))} | ${ms(pct(times, 99))} |`,
    );
  }
server.close();
// In process: the richest (top 100) at the oldest from its checkpoint, and by undoing every update since (as before).
const explorer = ledger.explorer();
const inProcess = (f) => {
  const times = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return `p50 ${ms(pct(times, 50))}, p99 ${ms(pct(times, 99))}`;
};
const viaCheckpoint = inProcess(() => explorer.richest(100, first, latest));
// `latest` just past the checkpoint's reach: the reader undoes every update since (it reads them to the table's end).
const undone = inProcess(() => explorer.richest(100, first, first + 1));
ledger.close();
cleanup();
const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(', ');
console.log(`${latest - first + 1} milestones (${first}..${latest}); load average ${load}; ${requests} requests each`);
console.log('| route | milestone | HTTP p50 | HTTP p99 |');
console.log('|---|---|---:|---:|');
for (const r of rows) console.log(r);
console.log(
  `in process, the richest (top 100) at ${first}: from the checkpoint ${viaCheckpoint}; undoing since ${undone}`,
);
