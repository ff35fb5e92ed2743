// The indexer's entries built after a snapshot's import (issue 58): imports a snapshot file (as bench/snapshot.mjs
// writes one: `node bench/snapshot.mjs --phase write --outputs N FILE`), then opens the store's first writer and takes
// the build's steps one after another, as the writer's background does between requests: the import's time, the
// build's, and a step's (the longest a commit or a request can wait behind one).
//
// `--postgres`: the same for a PostgreSQL database (a private server, scripts/postgres-cluster.mjs): the ledger loaded
// without the entries (import-snapshot --store), then its writer's build (PostgresPublisher), each step one SQL
// transaction (the slots' commits wait for it: it holds the status row).
//
//   node bench/index-build.mjs FILE [--batch 500] [--postgres]   (the default step: 500, or 200 with --postgres)
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';
import { startPostgres } from '../scripts/postgres-cluster.mjs';

const file = process.argv[2];
const i = process.argv.indexOf('--batch');
const postgres = process.argv.includes('--postgres');
const batch = i < 0 ? (postgres ? 200 : 500) : Number(process.argv[i + 1]); // the defaults
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-index-build-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
await tc.ready();
const path = join(dir, 'store');
let t = performance.now();
const r = await tc.importSnapshot({ path, full: createReadStream(file, { highWaterMark: 1 << 20 }) });
const imported = (performance.now() - t) / 1000;
const params = tc.importedParams(tc.inspectStore(path).imported);
const steps = [];
let built;
if (postgres) {
  const cluster = startPostgres();
  if ('unavailable' in cluster) throw new Error(`no PostgreSQL: ${cluster.unavailable}`);
  try {
    cluster.primary.sql('create database bench');
    const url = `postgresql://postgres@/bench?host=${encodeURIComponent(cluster.primary.host)}&port=${cluster.primary.port}`;
    const ledger = tc.openLedger({ path, params, readOnly: true });
    const loader = await tc.PostgresPublisher.open(url, ledger, { bulk: true, indexBuild: { background: false } });
    await loader.published();
    await loader.close();
    // Each step begins with its read of the build's state (index-build.ts): the times between two are the steps'.
    const { default: pg } = await import('pg');
    const query = pg.Client.prototype.query;
    const starts = [];
    pg.Client.prototype.query = function (text, ...rest) {
      if (typeof text === 'string' && text.startsWith('select index_build_cursor')) starts.push(performance.now());
      return query.call(this, text, ...rest);
    };
    t = performance.now();
    const writer = await tc.PostgresPublisher.open(url, ledger, { indexBuild: { batch } });
    if (!(await writer.indexBuilt())) throw new Error("the indexer's build stopped");
    const end = performance.now();
    built = (end - t) / 1000;
    await writer.close();
    ledger.close();
    for (let s = 0; s < starts.length; s++) steps.push((starts[s + 1] ?? end) - starts[s]);
  } finally {
    cluster.stop();
  }
} else {
  const ledger = tc.openLedger({ path, params, indexBuild: { batch, background: false } });
  t = performance.now();
  for (let done = false; !done; ) {
    const s = performance.now();
    done = ledger.indexBuilder.step();
    steps.push(performance.now() - s);
  }
  built = (performance.now() - t) / 1000;
  ledger.close();
}
steps.sort((a, b) => a - b);
const p = (q) => steps[Math.min(steps.length - 1, Math.floor(q * steps.length))].toFixed(0);
console.log(
  `${r.unspentOutputs} outputs: import ${imported.toFixed(1)} s, then the build ${built.toFixed(1)} s in ` +
    `${steps.length} steps of ${batch} (a step p50 ${p(0.5)} ms, p99 ${p(0.99)} ms); load average ` +
    `${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}`,
);
