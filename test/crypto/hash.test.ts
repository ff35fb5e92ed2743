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

it('inputs of up to 64 bytes (hashed through a copy) give the reference digest, in and out of V8 heap, in a row', () => {
  // Arrays of up to 64 bytes live inside V8's heap; views into a larger buffer do not, and may start anywhere.
  const big = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff);
  for (let n = 0; n <= 130; n++) {
    const own = big.slice(3, 3 + n);
    const view = big.subarray(n % 17, (n % 17) + n);
    const expected = blake2b256Reference(own);
    expect(blake2b256(own)).toEqual(expected);
    expect(blake2b256(view)).toEqual(blake2b256Reference(view));
    expect(blake2b256(own)).toEqual(expected); // the copy of the previous input does not leak into this one
  }
  // A shorter input right after a longer one: nothing of the longer one is hashed.
  blake2b256(new Uint8Array(64).fill(0xff));
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
});
