// node bench/accounts.mjs --db DIR [--requests 1000] — an address's balance at the oldest and at the newest milestone
// of a history (issue 61: its cost must not grow with how far back the milestone lies), over HTTP
// (`GET /api/explorer/v2/balance/{bech32}?ledgerIndex=N`, one request at a time) and in process (the accounts' one
// seek), p50 and p99 of each. DIR: a store that applied a history, e.g. bench/history.mjs --keep's `shimmer-apply`
// (its four owners move in every milestone: each has an account record for each).
import os from 'node:os';
import * as tc from '../dist/index.js';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const db = arg('--db');
if (db === undefined) throw new Error('bench/accounts.mjs needs --db DIR');
const requests = Number(arg('--requests', 1000));
await tc.ready();
const ledger = tc.openLedger({ path: db, params: tc.importedParams(tc.inspectStore(db).imported), readOnly: true });
const accounts = ledger.explorer().accounts();
const first = accounts.accountsFrom();
const latest = ledger.milestone(ledger.latestCommitment().slot).index;
const secret = (k) => new Uint8Array(32).fill(k);
const owners = [1, 2, 3, 4].map((k) => tc.ed25519AddressOf(tc.ed25519PublicKey(secret(k))));
const hrp = ledger.params.bech32Hrp;
const server = tc.createServer({ ledger });
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${server.address().port}`;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => `${x.toFixed(3)} ms`;
const rows = [];
for (const at of [first, latest]) {
  const http = [];
  const seek = [];
  for (let i = 0; i < requests; i++) {
    const owner = owners[i % 4];
    const path = `/api/explorer/v2/balance/${tc.addressToBech32(owner, hrp)}?ledgerIndex=${at}`;
    let t0 = performance.now();
    const res = await fetch(origin + path);
    await res.text();
    http.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    const bytes = Uint8Array.of(0, ...owner.pubKeyHash);
    t0 = performance.now();
    accounts.stateAt(bytes, at);
    seek.push(performance.now() - t0);
  }
  const records = accounts.statesBetween(Uint8Array.of(0, ...owners[0].pubKeyHash), first, latest, 1e9).length;
  rows.push({ at, http, seek, records });
}
server.close();
ledger.close();
const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(', ');
console.log(`${latest - first + 1} milestones (${first}..${latest}); load average ${load}; ${requests} requests each`);
console.log('| milestone | account records of the address | HTTP p50 | HTTP p99 | one seek p50 | one seek p99 |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.at === first ? 'oldest' : 'newest'} (${r.at}) | ${r.records} | ${ms(pct(r.http, 50))} | ${ms(pct(r.http, 99))} | ` +
      `${ms(pct(r.seek, 50))} | ${ms(pct(r.seek, 99))} |`,
  );
