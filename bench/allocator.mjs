// node bench/allocator.mjs — why the codec's results and LMDB's values are copied into shared slabs
// (src/codec/pooled.ts): a small copy in a fresh ArrayBuffer against a view of a slab, for the sizes the ledger copies
// most (an output ID, a typical output, a typical transaction block), each over varied bytes.
//   node bench/allocator.mjs [--no-write]

import os from 'node:os';
import { buildSync } from 'esbuild';
import { Bench } from 'tinybench';
import { writeSection } from './results-file.mjs';

// The real function, bundled from its source (it is not part of the package's API).
const { outputFiles } = buildSync({ entryPoints: ['src/codec/pooled.ts'], bundle: true, format: 'esm', write: false });
const { pooledCopy } = await import(`data:text/javascript,${encodeURIComponent(outputFiles[0].text)}`);

const rows = [];
for (const [what, size] of [
  ['an output ID', 34],
  ['a typical output', 120],
  ['a typical transaction block', 708],
]) {
  // 1,024 different sources, visited in turn: no single cached array.
  const sources = Array.from({ length: 1024 }, (_, i) =>
    Uint8Array.from({ length: size }, (_, k) => (i * 31 + k) & 0xff),
  );
  let n = 0;
  const next = () => sources[n++ & 1023];
  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench
    .add('slice()', () => next().slice())
    .add('new Uint8Array(n) + set', () => {
      const s = next();
      const out = new Uint8Array(s.length);
      out.set(s);
      return out;
    })
    .add('pooledCopy (a view of a shared slab)', () => pooledCopy(next()));
  await bench.run();
  const ns = Object.fromEntries(bench.tasks.map((t) => [t.name, (t.result.mean ?? t.result.latency.mean) * 1e6]));
  rows.push({ what, size, ns });
  console.log(what, ns);
}

const md = `## What does a small copy cost, and why are they pooled?

Produced by \`node bench/allocator.mjs\` on ${os.cpus().length} × ${os.cpus()[0].model.split(' ').slice(0, 2).join(' ')}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}: one copy of each size, mean ns over 1,024 varied sources.

| copy of | bytes | \`slice()\` | \`new Uint8Array(n)\` + \`set\` | \`pooledCopy\` | pooled is faster than slice by |
|---|---:|---:|---:|---:|---:|
${rows
  .map(
    (r) =>
      `| ${r.what} | ${r.size} | ${r.ns['slice()'].toFixed(0)} | ${r.ns['new Uint8Array(n) + set'].toFixed(0)} | ${r.ns['pooledCopy (a view of a shared slab)'].toFixed(0)} | ${(r.ns['slice()'] / r.ns['pooledCopy (a view of a shared slab)']).toFixed(1)}× |`,
  )
  .join('\n')}

The codec's \`encode\` and the LMDB store's reads both copy through \`pooledCopy\` (src/codec/pooled.ts), one allocator.`;
if (!process.argv.includes('--no-write')) writeSection('allocator', md);
