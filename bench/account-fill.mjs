// npx vite-node bench/account-fill.mjs -- [--milestones 300]
// The fill of a PostgreSQL database mirrored before the account history (issue 61, ledger/postgres/account-fill.ts)
// beside what mirroring the same history costs: a demo's history (seed 1, as `serve --demo`) is mirrored into a new
// database (PostgresMirror catchUp: every slot's rows, the accounts' among them); its account tables and status
// columns are dropped (the schema before them) and filled again from what it holds (fillAccounts, a hundred
// milestones a transaction), then checked to be the same bytes. The ratio: the fill's time over the mirror's. Run from
// the sources (vite-node); a private cluster (postgres-cluster.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../scripts/postgres-cluster.mjs';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../src/index.ts';
import { fillAccounts } from '../src/ledger/postgres/account-fill.ts';
import { openPool } from '../src/ledger/postgres/client.ts';
import { PostgresMirror } from '../src/ledger/postgres/index.ts';
import { SCHEMA } from '../src/ledger/postgres/schema.ts';
import { demoGenesis, demoTips, openDemoLedger, runDemo } from '../src/node/demo.ts';
import { Simulation } from '../src/sim/simulator.ts';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const MILESTONES = Number(arg('--milestones', 300));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(', ');

const dir = mkdtempSync(join(tmpdir(), 'tangle-bench-fill-'));
const pg = startPostgres();
if ('unavailable' in pg) throw new Error(pg.unavailable);
try {
  const loadBefore = load();
  const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
    genesisUnixTime: Math.floor(Date.now() / 1000) - MILESTONES * 10 - 1,
  });
  let ledger;
  const sim = new Simulation({ params, seed: 1, parents: () => demoTips(ledger) });
  ledger = await openDemoLedger(join(dir, 'ledger'), params, demoGenesis(sim), (at) => openLedger(at));
  runDemo(ledger, sim, MILESTONES).stop();
  pg.primary.sql('create database bench');
  const url = `postgresql://postgres@/bench?host=${encodeURIComponent(pg.primary.host)}&port=${pg.primary.port}`;
  let t0 = performance.now();
  const mirror = await PostgresMirror.open(url, ledger);
  await mirror.catchUp(ledger);
  const mirrored = performance.now() - t0;
  await mirror.close();
  ledger.close();
  const rows = () =>
    [
      'select count(*), md5(string_agg(address || int4send(milestone) || raw, $$$$ order by address, milestone)) ' +
        'from account_states',
      'select count(*), md5(string_agg(int4send(milestone) || raw, $$$$ order by milestone)) from account_milestones',
    ].map((q) => pg.primary.sql(q, 'bench'));
  const before = rows();
  pg.primary.sql(
    'drop table account_states, account_milestones; alter table status drop column accounts_built, ' +
      'drop column accounts_filled',
    'bench',
  );
  const pool = openPool(url, 1);
  for (const s of SCHEMA) await pool.query(s);
  t0 = performance.now();
  const done = await fillAccounts(pool);
  const filled = performance.now() - t0;
  await pool.end();
  const after = rows();
  if (JSON.stringify(after) !== JSON.stringify(before) || !done.built)
    throw new Error(`the fill differs: ${JSON.stringify({ before, after, done })}`);
  const [states] = before[0].split('|');
  console.log(
    `${MILESTONES} milestones of the demo's history, ${states} account states; load average ${loadBefore} → ${load()}`,
  );
  console.log('| mirror (catchUp, every row) | fill of the accounts | fill ÷ mirror | fill per milestone |');
  console.log('|---:|---:|---:|---:|');
  console.log(
    `| ${(mirrored / 1000).toFixed(2)} s | ${(filled / 1000).toFixed(2)} s | **${(filled / mirrored).toFixed(2)}** | ` +
      `${(filled / MILESTONES).toFixed(2)} ms |`,
  );
} finally {
  pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
