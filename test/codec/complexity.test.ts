// Anti-DoS: a decode's work grows linearly with the input (Kit #1877 was quadratic from slice() in a loop).
import { describe, expect, it } from 'vitest';
import { decodeEssence, encodeEssence, type Output, type TransactionEssence } from '../../src/index.js';

function essenceWith(outputs: number): Uint8Array {
  const out: Output = {
    type: 3,
    amount: 1_000_000n,
    nativeTokens: Array.from({ length: 64 }, (_, i) => ({
      id: new Uint8Array(38).fill(i),
      amount: BigInt(i + 1) << 100n,
    })),
    unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: new Uint8Array(32) } }],
    features: [{ type: 2, data: new Uint8Array(64) }],
  };
  const essence: TransactionEssence = {
    type: 1,
    networkId: 1n,
    inputs: Array.from({ length: outputs }, (_, i) => ({
      type: 0,
      transactionId: new Uint8Array(32).fill(i),
      transactionOutputIndex: 0,
    })),
    inputsCommitment: new Uint8Array(32),
    outputs: Array.from({ length: outputs }, () => out),
  };
  return encodeEssence(essence);
}

/**
 * What decoding `bytes` does that could grow faster than the input: the views it takes (`subarray`) and the bytes
 * it copies (`slice`), counted over one synchronous decode (the prototype is restored before anything else runs).
 * Counted, not timed: the suite runs on a busy machine, and a count is the same on every run.
 */
function workOf(bytes: Uint8Array): { views: number; copied: number } {
  const { slice, subarray } = Uint8Array.prototype;
  let views = 0;
  let copied = 0;
  Uint8Array.prototype.slice = function (this: Uint8Array, ...a: [number?, number?]) {
    const r = slice.apply(this, a);
    copied += r.length;
    return r;
  } as typeof slice;
  Uint8Array.prototype.subarray = function (this: Uint8Array, ...a: [number?, number?]) {
    views++;
    return subarray.apply(this, a);
  } as typeof subarray;
  try {
    decodeEssence(bytes);
  } finally {
    Uint8Array.prototype.slice = slice;
    Uint8Array.prototype.subarray = subarray;
  }
  return { views, copied };
}

describe('complexity', () => {
  it('the work of a decode per byte stays flat from 8 to 128 outputs (64 native tokens each)', () => {
    const small = essenceWith(8);
    const large = essenceWith(128);
    expect(large.length / small.length).toBeGreaterThan(15);
    const [a, b] = [workOf(small), workOf(large)];
    // Linear: the same per byte. Kit #1877's slice() in a loop copied the rest of the input each step: quadratic,
    // ~16 times the small one's per byte here.
    expect(a.views).toBeGreaterThan(0);
    expect(b.views / large.length / (a.views / small.length)).toBeLessThan(1.2);
    expect(b.copied / large.length).toBeLessThanOrEqual(Math.max(1, (a.copied / small.length) * 1.2));
  });
});
