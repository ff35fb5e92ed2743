// The CI slice of `npm run fuzz`: a fixed number of inputs from a fixed seed (on the source; the script runs the build),
// so every machine fuzzes the same inputs and reaches the same outcomes, however fast it is.

import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
// @ts-expect-error plain ESM helpers shared with the fuzz script
import { fuzz, seedsFrom } from '../../scripts/fuzzer.mjs';
import * as tc from '../../src/index.js';
import { loadVectors, VECTORS_DIR } from '../helpers/vectors.js';

it('fuzzes every decoder and fromJson, Stardust and Nova, with 40,000 inputs (seed 20261121): only typed errors, exact re-encoding', async () => {
  await tc.ready();
  const nova = Object.fromEntries(
    readdirSync(resolve(VECTORS_DIR, 'nova'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, loadVectors(`nova/${f}`)]),
  );
  const vectors = seedsFrom(
    loadVectors('stardust/blocks.json'),
    loadVectors('stardust/chronicle-shimmer-block-corpus.json'),
    nova,
  );
  expect(vectors.nova.blocks.length).toBe(3); // the Nova decoders have real seeds too
  expect(vectors.nova.outputs.length).toBe(6);
  expect(vectors.milestones.length).toBeGreaterThanOrEqual(7); // the milestone decoder has real seeds
  const stats = fuzz(tc, {
    vectors,
    runs: 40_000,
    // A hang shows as the test's own timeout; a per-call time limit would depend on how busy the machine is.
    hangMs: Number.POSITIVE_INFINITY,
    seed: 20261121,
  });
  expect(stats.runs).toBe(40_000);
  expect(stats.accepted).toBeGreaterThan(100);
  expect(stats.outcomes).toBeGreaterThan(80); // many distinct refusals reached: the corpus grows, not just random noise
}, 120_000);
