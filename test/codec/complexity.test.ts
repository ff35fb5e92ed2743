// Anti-DoS: decoding time grows linearly with the input (Kit #1877 was quadratic from slice() in a loop).
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

function nsPerByte(bytes: Uint8Array): number {
  const reps = Math.max(3, Math.round(2_000_000 / bytes.length));
  const samples: number[] = [];
  for (let s = 0; s < 7; s++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) decodeEssence(bytes);
    samples.push(Number(process.hrtime.bigint() - t0) / reps / bytes.length);
  }
  return samples.sort((a, b) => a - b)[3]!; // median
}

describe('complexity', () => {
  it('decode time per byte stays flat from 8 to 128 outputs (64 native tokens each)', () => {
    const small = essenceWith(8);
    const large = essenceWith(128);
    expect(large.length / small.length).toBeGreaterThan(15);
    nsPerByte(large); // warm up the JIT on both shapes
    nsPerByte(small);
    const ratio = nsPerByte(large) / nsPerByte(small);
    // Linear: ~1. Quadratic growth would give ~16. The bound leaves room for a noisy shared machine.
    expect(ratio).toBeLessThan(4);
  });
});
