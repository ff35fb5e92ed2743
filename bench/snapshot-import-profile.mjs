// Where an imported ledger's load into PostgreSQL spends its time (issue 58): each statement the load sends, timed
// from the client (pg's `query` wrapped: a statement's time is until the next one is sent; those over 0.3 s are
// printed), then each table's size. The LMDB store is imported once (`import`), then loaded into a new database of a
// private server (`load`, scripts/postgres-cluster.mjs) as `import-snapshot --store` loads it; `--build` then times
// the database writer's build of the indexer's entries the load left to it.
//
//   node bench/snapshot-import-profile.mjs import FILE DIR   (FILE: node bench/snapshot.mjs --phase write …)
//   node bench/snapshot-import-profile.mjs load DIR [--build]
import { createReadStream } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import * as tc from '../dist/index.js';
import { startPostgres } from '../scripts/postgres-cluster.mjs';

const [, , mode, a, b] = process.argv;
const load = () => os.loadavg().map((x) => x.toFixed(1));
if (mode === 'import') {
  const t = performance.now();
  const r = await tc.importSnapshot({ path: b, full: createReadStream(a, { highWaterMark: 1 << 20 }) });
  console.log(`imported ${r.unspentOutputs} outputs in ${((performance.now() - t) / 1000).toFixed(1)} s`, load());
} else {
  const query = pg.Client.prototype.query;
  let last = performance.now();
  let lastText = 'start';
  const shown = () => {
    const now = performance.now();
    if (now - last > 300) console.log(`${((now - last) / 1000).toFixed(2)} s  ${lastText}`);
    last = now;
  };
  pg.Client.prototype.query = function (q, ...rest) {
    shown();
    lastText = (typeof q === 'string' ? q : (q?.text ?? q?.constructor?.name ?? '?')).replace(/\s+/g, ' ').slice(0, 90);
    return query.call(this, q, ...rest);
  };
  const cluster = startPostgres();
  if ('unavailable' in cluster) throw new Error(`no PostgreSQL: ${cluster.unavailable}`);
  try {
    cluster.primary.sql('create database bench');
    const url = `postgresql://postgres@/bench?host=${encodeURIComponent(cluster.primary.host)}&port=${cluster.primary.port}`;
    const ledger = tc.openLedger({ path: a, params: tc.importedParams(tc.inspectStore(a).imported), readOnly: true });
    const started = performance.now();
    const loader = await tc.PostgresPublisher.open(url, ledger, { bulk: true, indexBuild: { background: false } });
    await loader.published();
    await loader.close();
    shown();
    console.log(`loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`, load());
    if (process.argv.includes('--build')) {
      const t = performance.now();
      const writer = await tc.PostgresPublisher.open(url, ledger);
      await writer.indexBuilt();
      await writer.close();
      console.log(`the writer's build in ${((performance.now() - t) / 1000).toFixed(1)} s`, load());
    }
    ledger.close();
    console.log(
      cluster.primary.sql(
        'select relname, pg_size_pretty(pg_total_relation_size(oid)) from pg_class ' +
          "where relkind = 'r' and relnamespace = 'public'::regnamespace order by pg_total_relation_size(oid) desc",
        'bench',
      ),
    );
  } finally {
    cluster.stop();
  }
}
