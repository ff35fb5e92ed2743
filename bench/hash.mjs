// BLAKE2b-256, the hash of every id, as tangle-core computes it (its own WebAssembly module, src/crypto/blake2b-wasm.ts)
// beside hash-wasm 4.13 (the library it replaced: C compiled to WebAssembly, used through its public API) and
// @noble/hashes (pure JavaScript, tangle-core's fallback where WebAssembly is not available), on the lengths ids hash:
// an id, a Merkle node, TIP-46's outer input, a validation block, a typical transaction block, the largest block.
// And TIP-46's block identifier, H(H(header) ‖ H(body) ‖ signature), as one call here against three hash-wasm calls.
// Writes the "hash" section of bench/RESULTS.md.
//   npm run bench:hash  (= npm run build && node bench/hash.mjs [--rounds 25] [--no-write])
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { blake2b } from '@noble/hashes/blake2.js';
import { createBLAKE2b } from 'hash-wasm';
import * as tc from '../dist/index.js';
import { writeSection } from './results-file.mjs';
import { ratioOf, rounds } from './rounds.mjs';

await tc.ready();
const hasher = await createBLAKE2b(256);
const hashWasm = (b) => hasher.init().update(b).digest('binary');
const noble = (b) => blake2b(b, { dkLen: 32 });

const compare = (ours, theirs) => ratioOf(ours, theirs);
/** 64 inputs of `n` bytes, each different, so no side hashes one cached input. */
let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};
const inputs = (n) => Array.from({ length: 64 }, () => Uint8Array.from({ length: n }, () => random() & 0xff));
const cycling = (xs, fn) => {
  let i = 0;
  return () => fn(xs[i++ & 63]);
};
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

const LENGTHS = [
  [32, 'an id'],
  [65, 'a Merkle node'],
  [161, "TIP-46's outer input"],
  [439, 'a validation block'],
  [1116, 'a typical transaction block'],
  [32768, 'the largest block'],
];
const rows = [];
const fmt = (n) => Math.round(n).toLocaleString('en-US');
for (const [n, what] of LENGTHS) {
  const xs = inputs(n);
  for (const x of xs) if (!same(tc.blake2b256(x), hashWasm(x)) || !same(tc.blake2b256(x), noble(x))) throw new Error(n);
  for (const [peer, fn] of [
    ['hash-wasm 4.13', hashWasm],
    ['@noble/hashes', noble],
  ]) {
    rows.push({ input: `${n} bytes (${what})`, peer, ...compare(cycling(xs, tc.blake2b256), cycling(xs, fn)) });
  }
}
// TIP-46's block id from bytes: tangle-core's whole `nova.blockId` (one call into its module, and the slot), against
// hash-wasm hashing the three inputs alone (header 89 bytes, body, signature 97). Random bytes: the id reads no field
// but the issuing time.
const vectors = process.env.TANGLE_VECTORS ?? new URL('../vectors/', import.meta.url).pathname;
const params = tc.nova.protocolParameters.fromJson(
  JSON.parse(readFileSync(`${vectors}/nova/protocol_parameters.json`, 'utf8')).params,
);
for (const n of [439, 1105]) {
  const xs = inputs(n);
  const three = new Uint8Array(161);
  const viaHashWasm = (b) => {
    three.set(hashWasm(b.subarray(0, 89)), 0);
    three.set(hashWasm(b.subarray(89, n - 97)), 32);
    three.set(b.subarray(n - 97), 64);
    return hashWasm(three);
  };
  for (const x of xs) if (!same(tc.nova.blockId(params, x).subarray(0, 32), viaHashWasm(x))) throw new Error('TIP-46');
  rows.push({
    input: `Nova block id of a ${n}-byte block`,
    peer: 'hash-wasm 4.13, its three hashes alone',
    ...compare(
      cycling(xs, (b) => tc.nova.blockId(params, b)),
      cycling(xs, viaHashWasm),
    ),
  });
}

const table = [
  '| input | tangle-core ops/s | compared with | its ops/s | ratio |',
  '|---|---:|---|---:|---:|',
  ...rows.map((r) => `| ${r.input} | ${fmt(r.ours)} | ${r.peer} | ${fmt(r.theirs)} | **${r.ratio.toFixed(2)}×** |`),
].join('\n');
console.log(table);
if (!process.argv.includes('--no-write')) {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  writeSection(
    'hash',
    `## BLAKE2b-256

Produced by \`npm run bench:hash\` (= \`npm run build && node bench/hash.mjs\`) on ${os.cpus().length} × ${cpu},
Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. For each ratio, ${rounds} rounds in which tangle-core
and the other side each run 100 ms back to back, after 300 ms of warm-up each; the median of the per-round ratios,
and the median rates. Each side cycles through 64 random inputs of the length; before timing, all three give the
same digest of every input.

tangle-core hashes with its own WebAssembly module (\`src/crypto/blake2b-wasm.ts\`, written out from RFC 7693 at
load time): the whole input in one call, the last block padded in place, the digest copied out once. hash-wasm's
BLAKE2b compresses a block as fast; what it adds is a cost per call (its wrapper's views, and its module's byte-wise
padding and copies), which ids pay on every short input, and TIP-46's block id three times.

${table}
`,
  );
}
