import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { createBLAKE2b } from 'hash-wasm';
import { beforeAll, expect, it } from 'vitest';
import { blake2b256, blake2b256OfParts, blake2b256Reference, ready } from '../../src/crypto/hash.js';
import { toHexString as h } from '../helpers/vectors.js';

// Our BLAKE2b-256 is a WebAssembly module written out in src/crypto/blake2b-wasm.ts. Two independent implementations
// check it: @noble/hashes (JavaScript) and hash-wasm (C compiled to WebAssembly), and two published digests.
let hashWasm: (b: Uint8Array) => Uint8Array;
beforeAll(async () => {
  await ready();
  const hasher = await createBLAKE2b(256);
  hashWasm = (b) => hasher.init().update(b).digest('binary');
});

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 151 + seed) & 0xff);

it('BLAKE2b-256 of the empty input and of "abc" are the published digests', () => {
  // The empty digest is the one the BLAKE2 team's b2sum prints; "abc" is RFC 7693 Appendix A's input at 32 bytes.
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  expect(h(blake2b256(new TextEncoder().encode('abc')))).toBe(
    '0xbddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
  );
});

it('agrees with @noble/hashes and hash-wasm on every length from 0 to 1100 bytes (every block boundary)', () => {
  for (let n = 0; n <= 1100; n++) {
    const b = bytes(n, n);
    const expected = blake2b256Reference(b);
    expect(blake2b256(b)).toEqual(expected);
    expect(hashWasm(b)).toEqual(expected);
  }
});

it('agrees around the 64 KiB input area, where inputs are hashed in chunks, and far past it', () => {
  for (const n of [65535, 65536, 65537, 65536 + 127, 65536 + 128, 65536 + 129, 131072, 131073, 200_000, 1 << 20]) {
    const b = bytes(n, n & 0xff);
    expect(blake2b256(b), `${n} bytes`).toEqual(blake2b(b, { dkLen: 32 }));
  }
});

it('agrees with @noble/hashes on random inputs up to 140 KiB, views into larger buffers included', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 140_000 }), fc.nat(300), (b, skip) => {
      const padded = new Uint8Array(b.length + skip + 5).fill(0xa5);
      padded.set(b, skip);
      const view = padded.subarray(skip, skip + b.length);
      expect(blake2b256(b)).toEqual(blake2b256Reference(b));
      expect(blake2b256(view)).toEqual(blake2b256Reference(b));
    }),
    { seed: 1, numRuns: 200 },
  );
});

it('a shorter input right after a longer one: nothing of the longer one is hashed', () => {
  blake2b256(new Uint8Array(300).fill(0xff));
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  blake2b256(new Uint8Array(300).fill(0xff));
  expect(blake2b256(new Uint8Array(5))).toEqual(blake2b256Reference(new Uint8Array(5)));
});

it('blake2b256OfParts is H(H(first) ‖ H(second) ‖ rest), on every cut of inputs up to 400 bytes and past the area', () => {
  const ofParts = (b: Uint8Array, a: number, c: number) => {
    const input = new Uint8Array(64 + b.length - c);
    input.set(blake2b256Reference(b.subarray(0, a)), 0);
    input.set(blake2b256Reference(b.subarray(a, c)), 32);
    input.set(b.subarray(c), 64);
    return blake2b256Reference(input);
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(), fc.nat(), (b, x, y) => {
      const [a, c] = [x % (b.length + 1), y % (b.length + 1)].sort((p, q) => p - q) as [number, number];
      expect(blake2b256OfParts(b, a, c)).toEqual(ofParts(b, a, c));
    }),
    { seed: 2, numRuns: 500 },
  );
  // A tail longer than the module's scratch area, and an input longer than its input area, take the plain path.
  const long = bytes(70_000);
  expect(blake2b256OfParts(long, 89, 69_000)).toEqual(ofParts(long, 89, 69_000));
  expect(blake2b256OfParts(long, 89, 69_900)).toEqual(ofParts(long, 89, 69_900));
  const shortLongTail = bytes(2000);
  expect(blake2b256OfParts(shortLongTail, 10, 1000)).toEqual(ofParts(shortLongTail, 10, 1000));
  expect(blake2b256OfParts(shortLongTail, 10, 1296)).toEqual(ofParts(shortLongTail, 10, 1296));
});
