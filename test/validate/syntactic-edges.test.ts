// The edges of each syntactic rule (SPEC A §9): the last value a rule allows is accepted and the first it forbids is
// refused, with the rule's code and path. Each test here was written for a rule whose boundary no other test pinned
// (npm run mutate showed a changed comparison surviving).
import { describe, expect, it } from 'vitest';
import {
  buildTransaction,
  decodeBlock,
  minStorageDeposit,
  minStorageDepositReturn,
  type Output,
  outputId,
  PROTOCOL_PARAMETERS,
  powScore,
  signTransaction,
  type TransactionPayload,
  type Unlock,
  validateBlock,
  validateOutput,
  validateTransactionPayload,
  validateUnlocks,
} from '../../src/index.js';
import { violation } from '../helpers/failure.js';
import { hex, loadVectors } from '../helpers/vectors.js';
import { basic, owner, secret } from '../helpers/wallet.js';

const shimmer = PROTOCOL_PARAMETERS.shimmer;

/** A signed transaction spending outputs of owner 1 (or of the given keys) into `outputs`. */
function tx(
  outputs: Output[],
  inputs: { index: number; key?: number; amount?: bigint }[] = [{ index: 0 }],
): TransactionPayload {
  const spent = inputs.map((i) => ({
    outputId: outputId(new Uint8Array(32).fill(0x30 + (i.key ?? 1)), i.index),
    output: basic(owner(i.key ?? 1), i.amount ?? 1_000_000n),
  }));
  return signTransaction(
    buildTransaction({ inputs: spent, outputs, params: shimmer }),
    inputs.map((i) => secret(i.key ?? 1)),
  );
}

const withAmount = (o: Output, amount: bigint): Output => ({ ...o, amount });

describe('proof of work', () => {
  const v = loadVectors('stardust/blocks.json').vectors.find(
    (x: any) => x.name === 'chronicle-shimmer-6-86adfc27dff0e2ec',
  );
  it('a score equal to minPowScore is enough; the smallest step above it is not', () => {
    const bytes = hex(v.bytes);
    const score = powScore(bytes);
    expect(score).toBeGreaterThan(1500); // a real block of the network
    validateBlock(decodeBlock(bytes), { ...shimmer, minPowScore: score });
    expect(
      violation(() => validateBlock(decodeBlock(bytes), { ...shimmer, minPowScore: score * (1 + 1e-12) })),
    ).toEqual(['POW_SCORE_TOO_LOW', 'nonce']);
  });
});

describe('transaction payload', () => {
  it('validateTransactionPayload checks the network id, with its own path', () => {
    const t = tx([basic(owner(2), 1_000_000n)]);
    validateTransactionPayload(t, shimmer);
    expect(violation(() => validateTransactionPayload(t, PROTOCOL_PARAMETERS.iota))).toEqual([
      'NETWORK_ID_MISMATCH',
      'essence.networkId',
    ]);
  });
  it('input index 127 is allowed, 128 is not', () => {
    const t = tx([basic(owner(2), 1_000_000n)], [{ index: 127 }]);
    validateTransactionPayload(t, shimmer);
    t.essence.inputs[0]!.transactionOutputIndex = 128; // the wire allows a u16; the rule allows 0..127
    expect(violation(() => validateTransactionPayload(t, shimmer))).toEqual([
      'INPUT_INDEX_OUT_OF_RANGE',
      'essence.inputs[0].transactionOutputIndex',
    ]);
  });
  it('inputs that differ only in their index, or only in their transaction, are different inputs; the same one twice is not', () => {
    validateTransactionPayload(
      tx([basic(owner(2), 3_000_000n)], [{ index: 0 }, { index: 1 }, { index: 0, key: 2 }]),
      shimmer,
    );
    expect(
      violation(() =>
        validateTransactionPayload(tx([basic(owner(2), 2_000_000n)], [{ index: 5 }, { index: 5 }]), shimmer),
      ),
    ).toEqual(['INPUTS_NOT_UNIQUE', 'essence.inputs[1]']);
  });
  it('outputs may sum to exactly the token supply, not one more', () => {
    const half = shimmer.tokenSupply / 2n;
    validateTransactionPayload(tx([basic(owner(2), half), basic(owner(3), shimmer.tokenSupply - half)]), shimmer);
    expect(
      violation(() =>
        validateTransactionPayload(
          tx([basic(owner(2), half), basic(owner(3), shimmer.tokenSupply - half + 1n)]),
          shimmer,
        ),
      ),
    ).toEqual(['TOTAL_AMOUNT_EXCEEDS_SUPPLY', 'essence.outputs[1].amount']);
  });
  it('64 distinct native tokens across the outputs are allowed, 65 are not', () => {
    const tokens = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: Uint8Array.of(8, ...new Uint8Array(32).fill(from + i), 0, 0, 0, 0, 0),
        amount: 1n,
      }));
    const holding = (from: number, n: number): Output => {
      const o = { ...basic(owner(2), 1n), nativeTokens: tokens(from, n) };
      return withAmount(o, minStorageDeposit(o, shimmer.rentStructure));
    };
    validateTransactionPayload(tx([holding(0, 32), holding(100, 32)]), shimmer);
    expect(violation(() => validateTransactionPayload(tx([holding(0, 32), holding(100, 33)]), shimmer))).toEqual([
      'NATIVE_TOKEN_COUNT_EXCEEDED',
      'essence.outputs[1].nativeTokens',
    ]);
  });
});

describe('unlocks', () => {
  const t = tx([basic(owner(3), 2_000_000n)], [{ index: 0 }, { index: 1, key: 2 }]);
  const [a, b] = t.unlocks as [Unlock, Unlock];
  it('two different signature unlocks are fine; the same one twice is not', () => {
    validateUnlocks([a, b], 2);
    expect(violation(() => validateUnlocks([a, a], 2))).toEqual(['SIGNATURE_UNLOCK_DUPLICATE', 'unlocks[1]']);
  });
  it('a reference points to an earlier signature unlock: not to itself, not to a later one, not to a reference', () => {
    validateUnlocks([a, { type: 1, reference: 0 }, b, { type: 1, reference: 2 }], 4);
    expect(violation(() => validateUnlocks([a, { type: 1, reference: 1 }], 2))).toEqual([
      'REFERENCE_UNLOCK_INVALID',
      'unlocks[1].reference',
    ]);
    expect(violation(() => validateUnlocks([a, { type: 1, reference: 2 }, b], 3))).toEqual([
      'REFERENCE_UNLOCK_INVALID',
      'unlocks[1].reference',
    ]);
    expect(violation(() => validateUnlocks([a, { type: 1, reference: 0 }, { type: 1, reference: 1 }], 3))).toEqual([
      'REFERENCE_UNLOCK_INVALID',
      'unlocks[2].reference',
    ]);
  });
  it('bad arguments: TypeError and RangeError; an input count of 0 is a count (one unlock is one too many)', () => {
    expect(() => validateUnlocks('no' as never, 1)).toThrow(TypeError);
    for (const n of [-1, 1.5, Number.NaN]) expect(() => validateUnlocks([a], n), String(n)).toThrow(RangeError);
    expect(violation(() => validateUnlocks([a], 0))).toEqual(['UNLOCK_COUNT_MISMATCH', 'unlocks']);
  });
  it('bad protocol parameters are a TypeError', () => {
    for (const p of [null, {}, { networkId: 1 }])
      expect(() => validateTransactionPayload(t, p as never)).toThrow(TypeError);
  });
});

describe('basic output', () => {
  const base = basic(owner(1), 1_000_000n);
  it('validateOutput applies the rules, with paths from the output itself', () => {
    validateOutput(base, shimmer);
    expect(violation(() => validateOutput(withAmount(base, 1n), shimmer))).toEqual([
      'STORAGE_DEPOSIT_INSUFFICIENT',
      'amount',
    ]);
  });
  it('an amount of exactly the token supply is allowed, one more is not', () => {
    validateOutput(withAmount(base, shimmer.tokenSupply), shimmer);
    expect(violation(() => validateOutput(withAmount(base, shimmer.tokenSupply + 1n), shimmer))).toEqual([
      'AMOUNT_OUT_OF_RANGE',
      'amount',
    ]);
  });
  it('the same unlock condition type twice is refused as unsorted', () => {
    const twice: Output = {
      ...base,
      unlockConditions: [...base.unlockConditions, { type: 2, unixTime: 5 }, { type: 2, unixTime: 6 }],
    };
    expect(violation(() => validateOutput(twice, shimmer))).toEqual([
      'UNLOCK_CONDITIONS_NOT_SORTED',
      'unlockConditions[2]',
    ]);
  });
  it('the same feature type twice is refused as unsorted; distinct sorted features are fine', () => {
    const metadata = { type: 2 as const, data: Uint8Array.of(1) };
    validateOutput({ ...base, features: [{ type: 0, address: owner(1) }, metadata] }, shimmer);
    expect(violation(() => validateOutput({ ...base, features: [metadata, metadata] }, shimmer))).toEqual([
      'FEATURES_NOT_SORTED',
      'features[1]',
    ]);
  });
  it('a storage deposit return of exactly its minimum is allowed, one less is not', () => {
    const min = minStorageDepositReturn(owner(2), shimmer.rentStructure);
    const sdr = (amount: bigint): Output => ({
      ...base,
      unlockConditions: [...base.unlockConditions, { type: 1, returnAddress: owner(2), amount }],
    });
    validateOutput(sdr(min), shimmer);
    expect(violation(() => validateOutput(sdr(min - 1n), shimmer))).toEqual([
      'STORAGE_DEPOSIT_RETURN_INVALID',
      'unlockConditions[1].amount',
    ]);
  });
});
