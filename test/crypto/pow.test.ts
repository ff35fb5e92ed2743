import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { b1t6, curlP81, curlP81x32, powTrailingZeros, tritsToTrytes } from '../../src/crypto/pow.js';
import { blake2b256, findNonce, powScore } from '../../src/index.js';
import { toHexString as h, hex, loadVectors } from '../helpers/vectors.js';

describe('pow.json', () => {
  const { vectors } = loadVectors('stardust/pow.json');

  it('TIP-12 example: digest, Curl input and hash trytes, trailing zeros, score', () => {
    const v = vectors.find((x: any) => x.name === 'tip12-example');
    const msg = hex(v.message);
    const body = msg.subarray(0, msg.length - 8);
    expect(h(blake2b256(body))).toBe(v.powDigest);
    const input = new Int8Array(243);
    b1t6(blake2b256(body), input, 0);
    b1t6(msg.subarray(msg.length - 8), input, 192);
    expect(tritsToTrytes(input)).toBe(v.curlInputTrytes);
    expect(tritsToTrytes(curlP81(input))).toBe(v.powHashTrytes);
    expect(powTrailingZeros(msg)).toBe(v.trailingZeros);
    expect(powScore(msg)).toBeCloseTo(v.score, 9);
    expect(BigInt.asUintN(64, new DataView(msg.buffer, msg.length - 8).getBigUint64(0, true))).toBe(BigInt(v.nonce));
  });

  it('TIP-5 b1t6 examples', () => {
    for (const c of vectors.find((x: any) => x.type === 'b1t6').cases)
      expect(tritsToTrytes(b1t6(hex(c.bytes)))).toBe(c.trytes);
  });

  const blocks = vectors.filter((x: any) => x.blockBytes);
  it(`${blocks.length} block scores`, () => {
    for (const v of blocks) {
      const bytes = hex(v.blockBytes);
      expect(powTrailingZeros(bytes), v.name).toBe(v.trailingZeros);
      expect(powScore(bytes), v.name).toBeCloseTo(v.score, 5);
    }
  });
});

describe('bit-sliced Curl', () => {
  it('equals the scalar Curl-P-81 in every lane', () => {
    const trits = fc
      .array(fc.integer({ min: -1, max: 1 }), { minLength: 243, maxLength: 243 })
      .map((a) => Int8Array.from(a));
    fc.assert(
      fc.property(fc.array(trits, { minLength: 32, maxLength: 32 }), (inputs) => {
        const sliced = curlP81x32(inputs);
        inputs.forEach((input, lane) => expect(sliced[lane]).toEqual(curlP81(input)));
      }),
      { seed: 12, numRuns: 5 },
    );
  });
});

describe('findNonce', () => {
  it('finds a nonce reaching the target, and the scalar score confirms it', () => {
    const body = new TextEncoder().encode('tangle-core proof of work test block body');
    for (const target of [0.5, 5, 50]) {
      const nonce = findNonce(body, target, { maxAttempts: 200_000 });
      expect(nonce, `target ${target}`).toBeDefined();
      const block = new Uint8Array(body.length + 8);
      block.set(body);
      new DataView(block.buffer).setBigUint64(body.length, nonce!, true);
      expect(powScore(block)).toBeGreaterThanOrEqual(target);
    }
  });
  it('gives up after maxAttempts for an unreachable target', () => {
    expect(findNonce(new Uint8Array(40), 1e30, { maxAttempts: 64 })).toBeUndefined();
  });
});
