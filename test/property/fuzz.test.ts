// The CI slice of `npm run fuzz`: a few seconds with a fixed seed (on the source; the script runs the build).
import { expect, it } from 'vitest';
// @ts-expect-error plain ESM helpers shared with the fuzz script
import { fuzz, seedsFrom } from '../../scripts/fuzzer.mjs';
import * as tc from '../../src/index.js';
import { loadVectors } from '../helpers/vectors.js';

it('fuzzes every decoder and fromJson for 4 s (seed 20261121): only typed errors, exact re-encoding, no hang', async () => {
  await tc.ready();
  const vectors = seedsFrom(
    loadVectors('stardust/blocks.json'),
    loadVectors('stardust/chronicle-shimmer-block-corpus.json'),
  );
  expect(vectors.milestones.length).toBeGreaterThanOrEqual(7); // the milestone decoder has real seeds
  const stats = fuzz(tc, {
    vectors,
    seconds: 4,
    seed: 20261121,
  });
  expect(stats.runs).toBeGreaterThan(5000);
  expect(stats.accepted).toBeGreaterThan(100);
  expect(stats.outcomes).toBeGreaterThan(80); // many distinct refusals reached: the corpus grows, not just random noise
}, 30_000);
