// Syntactic rules that negative.json does not reach, each by one mutation of a real Shimmer transaction block.
import { describe, expect, it } from 'vitest';
import {
  type BasicOutput,
  type Block,
  CodecError,
  decodeBlock,
  encodeBlock,
  minStorageDeposit,
  OutputType,
  PROTOCOL_PARAMETERS,
  type TransactionPayload,
  ValidationError,
  validateBlock,
} from '../../src/index.js';
import { MAX_BLOCK_LENGTH } from '../../src/stardust/limits.js';
import { hex, loadVectors } from '../helpers/vectors.js';

const shimmer = PROTOCOL_PARAMETERS.shimmer;
const real = loadVectors('stardust/blocks.json').vectors.find(
  (v: any) => v.name === 'chronicle-shimmer-6-86adfc27dff0e2ec',
);

/** A fresh, deep copy of the real block (decode returns views; mutating a copy keeps tests independent). */
function realBlock(): Block & { payload: TransactionPayload } {
  return decodeBlock(hex(real.bytes).slice()) as Block & { payload: TransactionPayload };
}

/** Output i of a real block, which is a Basic Output in this block (checked). */
function basicAt(b: Block & { payload: TransactionPayload }, i: number): BasicOutput {
  const o = b.payload.essence.outputs[i]!;
  if (o.type !== OutputType.Basic) throw new Error(`output ${i} is not a basic output`);
  return o;
}

function violation(block: Block): [string, string] {
  try {
    validateBlock(block, shimmer, { skipPow: true });
  } catch (e) {
    if (e instanceof ValidationError) return [e.code, e.path];
    throw e;
  }
  throw new Error('accepted');
}

describe('validateBlock on a real Shimmer transaction', () => {
  it('accepts it as it is, proof of work included', () => {
    expect(() => validateBlock(realBlock(), shimmer)).not.toThrow();
  });

  it('POW_SCORE_TOO_LOW: another nonce; skipPow and minPowScore 0 skip the check', () => {
    const b = realBlock();
    b.nonce += 1n;
    expect(() => validateBlock(b, shimmer)).toThrow(
      expect.objectContaining({ code: 'POW_SCORE_TOO_LOW', path: 'nonce' }),
    );
    expect(() => validateBlock(b, shimmer, { skipPow: true })).not.toThrow();
    expect(() =>
      validateBlock(
        { ...b, payload: { type: 5, tag: new Uint8Array(0), data: new Uint8Array(0) } },
        PROTOCOL_PARAMETERS.testnet,
      ),
    ).not.toThrow();
  });

  it('TOTAL_AMOUNT_EXCEEDS_SUPPLY: outputs each within supply but summing above it', () => {
    const b = realBlock();
    b.payload.essence.outputs[0]!.amount = shimmer.tokenSupply - 1n; // output 1 keeps its real amount (> 1)
    expect(violation(b)).toEqual(['TOTAL_AMOUNT_EXCEEDS_SUPPLY', 'payload.essence.outputs[1].amount']);
  });

  it('NATIVE_TOKEN_COUNT_EXCEEDED: 65 distinct token ids across outputs', () => {
    const b = realBlock();
    const outs = b.payload.essence.outputs;
    const tokens = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: new Uint8Array(38).fill(0).map((_, j) => (j === 0 ? from + i : 0)),
        amount: 1n,
      }));
    outs[0]!.nativeTokens = tokens(0, 40);
    outs[1]!.nativeTokens = tokens(40, 25);
    for (const o of outs) o.amount = minStorageDeposit(o, shimmer.rentStructure);
    expect(violation(b)).toEqual(['NATIVE_TOKEN_COUNT_EXCEEDED', 'payload.essence.outputs[1].nativeTokens']);
  });

  it('UNLOCK_COUNT_MISMATCH: one unlock fewer than inputs', () => {
    const b = realBlock();
    b.payload.unlocks.pop();
    expect(violation(b)).toEqual(['UNLOCK_COUNT_MISMATCH', 'payload.unlocks']);
  });

  it('STORAGE_DEPOSIT_RETURN_INVALID: return amount below the minimum deposit of the return address', () => {
    const b = realBlock();
    basicAt(b, 0).unlockConditions.push({
      type: 1,
      returnAddress: { type: 0, pubKeyHash: new Uint8Array(32) },
      amount: 42_599n,
    });
    basicAt(b, 0).unlockConditions.sort((x, y) => x.type - y.type);
    const o = basicAt(b, 0);
    o.amount = minStorageDeposit(o, shimmer.rentStructure);
    expect(violation(b)).toEqual([
      'STORAGE_DEPOSIT_RETURN_INVALID',
      'payload.essence.outputs[0].unlockConditions[1].amount',
    ]);
  });

  it('UNIX_TIME_ZERO: a timelock at 0', () => {
    const b = realBlock();
    const o = basicAt(b, 0);
    o.unlockConditions.push({ type: 2, unixTime: 0 });
    o.amount = minStorageDeposit(o, shimmer.rentStructure);
    expect(violation(b)).toEqual(['UNIX_TIME_ZERO', 'payload.essence.outputs[0].unlockConditions[1].unixTime']);
  });

  it('AMOUNT_OUT_OF_RANGE: amount 0', () => {
    const b = realBlock();
    b.payload.essence.outputs[1]!.amount = 0n;
    expect(violation(b)).toEqual(['AMOUNT_OUT_OF_RANGE', 'payload.essence.outputs[1].amount']);
  });
});

describe('block length limit (TIP-24: 32768)', () => {
  function taggedBlock(dataLength: number): Block {
    const parents = [1, 2, 3, 4].map((i) => new Uint8Array(32).fill(i));
    return {
      protocolVersion: 2,
      parents,
      payload: { type: 5, tag: Uint8Array.of(0x41), data: new Uint8Array(dataLength) },
      nonce: 0n,
    };
  }
  it('a block of exactly 32768 bytes encodes, decodes and validates; one byte more is refused everywhere', () => {
    const max = taggedBlock(32616); // the largest of negative.json's derived-block-too-long-32769
    const bytes = encodeBlock(max);
    expect(bytes.length).toBe(MAX_BLOCK_LENGTH);
    expect(() => validateBlock(decodeBlock(bytes), shimmer, { skipPow: true })).not.toThrow();

    const over = taggedBlock(32617);
    expect(() => encodeBlock(over)).toThrow(CodecError);
    expect(violation(over)).toEqual(['BLOCK_TOO_LONG', '']);
    const overBytes = new Uint8Array(MAX_BLOCK_LENGTH + 1);
    expect(() => decodeBlock(overBytes)).toThrow(/LENGTH_OUT_OF_RANGE at \(root\)/);
  });
});
