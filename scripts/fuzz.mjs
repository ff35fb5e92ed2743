#!/usr/bin/env node
// npm run fuzz [-- --seconds 60 --seed N]: fuzzes every decoder and fromJson (see scripts/fuzzer.mjs). On a failure
// the offending input is written to fuzz-failure.json and the exit status is 1.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tc from '../dist/index.js';
import { fuzz, seedsFrom } from './fuzzer.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const vectorsDir = process.env.TANGLE_VECTORS ?? resolve(root, 'vectors');
const load = (f) => JSON.parse(readFileSync(resolve(vectorsDir, f), 'utf8'));
const seconds = arg('--seconds', 60);
const seed = arg('--seed', Date.now() >>> 0);
await tc.ready();
console.log(`fuzzing for ${seconds} s with seed ${seed}`);
try {
  const stats = fuzz(tc, {
    vectors: seedsFrom(
      load('stardust/blocks.json'),
      load('stardust/chronicle-shimmer-block-corpus.json'),
      Object.fromEntries(
        readdirSync(resolve(vectorsDir, 'nova'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => [f, load(`nova/${f}`)]),
      ),
    ),
    seconds,
    seed,
    log: (s) => console.log(JSON.stringify(s)),
  });
  console.log(
    `done: ${stats.runs} inputs, ${stats.accepted} accepted, ${stats.refused} refused with typed errors, ` +
      `${stats.outcomes} distinct outcomes`,
  );
} catch (e) {
  writeFileSync(
    resolve(root, 'fuzz-failure.json'),
    JSON.stringify(
      { seed, error: String(e), input: e.input instanceof Uint8Array ? tc.toHex(e.input) : e.input },
      null,
      2,
    ),
  );
  console.error(`FAILED (seed ${seed}): ${e.message} — input in fuzz-failure.json`);
  process.exit(1);
}
