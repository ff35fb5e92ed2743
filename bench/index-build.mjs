// The indexer's entries built after a snapshot's import (issue 58): imports a snapshot file (as bench/snapshot.mjs
// writes one: `node bench/snapshot.mjs --phase write --outputs N FILE`), then opens the store's first writer and takes
// the build's steps one after another, as the writer's background does between requests: the import's time, the
// build's, and a step's (the longest a request can wait behind one).
//
//   node bench/index-build.mjs FILE [--batch 2000]
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';

const file = process.argv[2];
const i = process.argv.indexOf('--batch');
const batch = i < 0 ? 2000 : Number(process.argv[i + 1]);
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-index-build-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
await tc.ready();
const path = join(dir, 'store');
let t = performance.now();
const r = await tc.importSnapshot({ path, full: createReadStream(file, { highWaterMark: 1 << 20 }) });
const imported = (performance.now() - t) / 1000;
const ledger = tc.openLedger({
  path,
  params: tc.importedParams(tc.inspectStore(path).imported),
  indexBuild: { batch, background: false },
});
const steps = [];
t = performance.now();
for (let done = false; !done; ) {
  const s = performance.now();
  done = ledger.indexBuilder.step();
  steps.push(performance.now() - s);
}
const built = (performance.now() - t) / 1000;
ledger.close();
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
