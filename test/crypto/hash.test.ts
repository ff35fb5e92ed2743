import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { blake2b256, blake2b256Reference, ready } from '../../src/crypto/hash.js';
import { toHexString as h } from '../helpers/vectors.js';

beforeAll(() => ready());

it('BLAKE2b-256 of the empty input is the known digest', () => {
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
});

it('hash-wasm (fast path) and @noble/hashes (fallback) agree on random inputs up to 40 KiB', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40_000 }), (b) => {
      expect(blake2b256(b)).toEqual(blake2b256Reference(b));
    }),
    { seed: 1, numRuns: 200 },
  );
});
