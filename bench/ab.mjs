// A/B of two builds of tangle-core in one process: the codec's hot paths, interleaved in many short rounds, medians
// compared. For refactors that must not change speed, on a machine too noisy for one long run each (seen here: ±40 %
// between two runs of the same code, ±5 % with this).
//   node bench/ab.mjs DIST_A DIST_B [--rounds 15]     e.g. a worktree of the previous commit, built with tsup
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { largeTaggedDataBlock, typicalBlock } from './fixtures.mjs';

const [dirA, dirB] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) throw new Error('usage: node bench/ab.mjs DIST_A DIST_B [--rounds N]');
const at = process.argv.indexOf('--rounds');
const rounds = at === -1 ? 15 : Number(process.argv[at + 1]);
const load = (dir) => import(pathToFileURL(resolve(dir, 'index.js')).href);
const [a, b] = await Promise.all([load(dirA), load(dirB)]);
await Promise.all([a.ready(), b.ready()]);

/** Calls per second of `fn` over `ms` milliseconds. */
function rate(fn, ms = 150) {
  let n = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
  }
  return (n / ms) * 1000;
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

console.log(`| block | operation | A ops/s | B ops/s | B ÷ A |\n|---|---|---:|---:|---:|`);
for (const [name, block] of [
  ['typical transaction', typicalBlock(a)],
  ['32 KiB tagged data', largeTaggedDataBlock(a)],
]) {
  const bytes = a.encodeBlock(block);
  const json = a.blockToJson(block);
  const ops = {
    'decode (bytes → model)': (t) => () => t.decodeBlock(bytes),
    'encode (model → bytes)': (t) => () => t.encodeBlock(block),
    'bytes → JSON': (t) => () => t.blockToJson(t.decodeBlock(bytes)),
    'JSON → bytes': (t) => () => t.encodeBlock(t.blockFromJson(json)),
    'JSON → model': (t) => () => t.blockFromJson(json),
    'block id (from JSON)': (t) => () => t.blockId(t.blockFromJson(json)),
  };
  for (const [op, make] of Object.entries(ops)) {
    const fa = make(a);
    const fb = make(b);
    const ra = [];
    const rb = [];
    for (let i = 0; i < rounds; i++) {
      ra.push(rate(fa));
      rb.push(rate(fb));
    }
    const [ma, mb] = [median(ra), median(rb)];
    console.log(
      `| ${name} | ${op} | ${Math.round(ma).toLocaleString('en-US')} | ${Math.round(mb).toLocaleString('en-US')} | ${(mb / ma).toFixed(2)} |`,
    );
  }
}
