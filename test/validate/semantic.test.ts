// Semantic validation: real Shimmer transactions validate; one mutation per rule is refused with that rule's code;
// random build → sign → validate passes and any change to a signed byte fails.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Address,
  type BasicFeature,
  type BasicOutput,
  type BasicUnlockCondition,
  buildBlock,
  buildTransaction,
  CodecError,
  decodeBlock,
  decodeEssence,
  ed25519AddressOf,
  ed25519PublicKey,
  encodeEssence,
  minStorageDeposit,
  type NativeToken,
  type Output,
  outputFromJson,
  outputId,
  PROTOCOL_PARAMETERS,
  signTransaction,
  type TransactionPayload,
  transactionSigningHash,
  unlockAddress,
  ValidationError,
  validateBlock,
  validateTransaction,
} from '../../src/index.js';
import { checkSemantics } from '../../src/validate/semantic.js';
import { workingSet } from '../../src/validate/working-set.js';
import { violation } from '../helpers/failure.js';
import { hex, loadVectors } from '../helpers/vectors.js';

const shimmer = PROTOCOL_PARAMETERS.shimmer;
const blocks = loadVectors('stardust/blocks.json').vectors;

/** Milestone index → timestamp, from the milestone payloads in blocks.json (essence: u32 index, u32 timestamp). */
const milestoneTime = new Map<number, number>();
for (const v of blocks) {
  if (!v.milestone) continue;
  const e = hex(v.milestone.essenceBytes);
  const view = new DataView(e.buffer, e.byteOffset);
  milestoneTime.set(view.getUint32(0, true), view.getUint32(4, true));
}
/** The confirming milestone's timestamp, or the nearest earlier milestone in the vectors. */
function timeOf(index: number): number {
  const known = [...milestoneTime.keys()].filter((i) => i <= index).sort((a, b) => b - a);
  return milestoneTime.get(known[0] ?? Math.min(...milestoneTime.keys()))!;
}

const refusal = violation;

describe('real Shimmer transactions with their consumed outputs', () => {
  const real = blocks.filter((v: any) => v.transaction?.consumedOutputs && !v.outOfScope);
  it('there are at least 10 of them', () => expect(real.length).toBeGreaterThanOrEqual(10));
  for (const v of real) {
    it(`${v.name} validates at its milestone's time`, () => {
      const block = decodeBlock(hex(v.bytes));
      const tx = block.payload as TransactionPayload;
      const consumedOutputs = v.transaction.consumedOutputs.map((c: any) => outputFromJson(c.output));
      validateTransaction(tx, {
        consumedOutputs,
        params: shimmer,
        time: timeOf(v.nodeMetadata.referencedByMilestoneIndex),
      });
      validateBlock(block, shimmer);
    });
  }
  it('the flipped-signature vector (one bit of a real signature) is refused as SIGNATURE_INVALID', () => {
    const v = real[0];
    const bytes = hex(v.bytes).slice();
    const tx0 = decodeBlock(bytes).payload as TransactionPayload;
    const u = tx0.unlocks[0]!;
    if (u.type !== 0) throw new Error('expected a signature unlock first');
    u.signature.signature[10]! ^= 0x04;
    const consumedOutputs = v.transaction.consumedOutputs.map((c: any) => outputFromJson(c.output));
    expect(
      refusal(() =>
        validateTransaction(tx0, {
          consumedOutputs,
          params: shimmer,
          time: timeOf(v.nodeMetadata.referencedByMilestoneIndex),
        }),
      ),
    ).toEqual(['SIGNATURE_INVALID', 'unlocks[0].signature.signature']);
  });
});

// ---- a small wallet to build transactions whose every other rule holds ----------------------------------------
const key = (n: number) => new Uint8Array(32).fill(n);
const addr = (n: number): Address => ed25519AddressOf(ed25519PublicKey(key(n)));
const TIME = 1_700_000_000;

function out(
  address: Address,
  amount: bigint,
  extra: { ucs?: BasicUnlockCondition[]; features?: BasicFeature[]; tokens?: NativeToken[] } = {},
): BasicOutput {
  return {
    type: 3,
    amount,
    nativeTokens: extra.tokens ?? [],
    unlockConditions: [{ type: 0, address }, ...(extra.ucs ?? [])],
    features: extra.features ?? [],
  };
}
const txId = (n: number) => new Uint8Array(32).fill(0x80 + n);

function transact(
  consumed: Output[],
  keys: number[],
  outputs: Output[],
): { tx: TransactionPayload; consumed: Output[] } {
  const essence = buildTransaction({
    inputs: consumed.map((output, i) => ({ outputId: outputId(txId(i), i), output })),
    outputs,
    params: shimmer,
  });
  return { tx: signTransaction(essence, keys.map(key)), consumed };
}
const check = ({ tx, consumed }: { tx: TransactionPayload; consumed: Output[] }, time = TIME) =>
  validateTransaction(tx, { consumedOutputs: consumed, params: shimmer, time });

describe('one mutation per semantic rule', () => {
  const A = addr(1);
  const B = addr(2);

  it('a well-formed two-key transaction with a reference unlock validates', () => {
    const t = transact([out(A, 100_000n), out(B, 50_000n), out(A, 60_000n)], [1, 2, 1], [out(B, 210_000n)]);
    expect(t.tx.unlocks.map((u) => u.type)).toEqual([0, 0, 1]);
    check(t);
  });
  it('CONSUMED_OUTPUTS_MISMATCH', () => {
    const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n)]);
    expect(refusal(() => check({ ...t, consumed: [] }))).toEqual(['CONSUMED_OUTPUTS_MISMATCH', 'essence.inputs']);
  });
  it('INPUTS_COMMITMENT_MISMATCH', () => {
    const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n)]);
    expect(refusal(() => check({ ...t, consumed: [out(A, 100_001n)] }))).toEqual([
      'INPUTS_COMMITMENT_MISMATCH',
      'essence.inputsCommitment',
    ]);
  });
  it('SIGNATURE_ADDRESS_MISMATCH: signed by a key that does not own the input', () => {
    expect(refusal(() => check(transact([out(A, 100_000n)], [2], [out(B, 100_000n)])))).toEqual([
      'SIGNATURE_ADDRESS_MISMATCH',
      'unlocks[0].signature.publicKey',
    ]);
  });
  it('SIGNATURE_INVALID: a signature of another message', () => {
    const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n)]);
    const other = transact([out(A, 100_000n)], [1], [out(A, 100_000n)]);
    t.tx.unlocks[0] = other.tx.unlocks[0]!;
    expect(refusal(() => check(t))).toEqual(['SIGNATURE_INVALID', 'unlocks[0].signature.signature']);
  });
  it('UNLOCK_INVALID: a reference to the signature of another address', () => {
    const t = transact([out(A, 100_000n), out(B, 50_000n), out(B, 60_000n)], [1, 2, 2], [out(B, 210_000n)]);
    t.tx.unlocks[2] = { type: 1, reference: 0 };
    expect(refusal(() => check(t))).toEqual(['UNLOCK_INVALID', 'unlocks[2].reference']);
  });
  it('UNLOCK_INVALID: an input owned by an Alias address', () => {
    const alias: Address = { type: 8, aliasId: new Uint8Array(32).fill(3) };
    expect(refusal(() => check(transact([out(alias, 100_000n)], [1], [out(B, 100_000n)])))).toEqual([
      'UNLOCK_INVALID',
      'unlocks[0]',
    ]);
  });
  it('TIMELOCK_NOT_EXPIRED: locked until one second after `time`; fine at that second', () => {
    const t = transact([out(A, 100_000n, { ucs: [{ type: 2, unixTime: TIME + 1 }] })], [1], [out(B, 100_000n)]);
    expect(refusal(() => check(t))).toEqual(['TIMELOCK_NOT_EXPIRED', 'essence.inputs[0]']);
    check(t, TIME + 1);
  });
  it('expiration: before it the owner unlocks; from it on only the return address does', () => {
    const expiring = out(A, 100_000n, { ucs: [{ type: 3, returnAddress: B, unixTime: TIME }] });
    expect(refusal(() => check(transact([expiring], [1], [out(A, 100_000n)]), TIME))).toEqual([
      'SIGNATURE_ADDRESS_MISMATCH',
      'unlocks[0].signature.publicKey',
    ]);
    check(transact([expiring], [1], [out(A, 100_000n)]), TIME - 1);
    check(transact([expiring], [2], [out(B, 100_000n)]), TIME);
  });
  it('SENDER_NOT_UNLOCKED', () => {
    const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n, { features: [{ type: 0, address: B }] })]);
    expect(refusal(() => check(t))).toEqual(['SENDER_NOT_UNLOCKED', 'essence.outputs[0].features[0].address']);
    check(transact([out(A, 100_000n)], [1], [out(B, 100_000n, { features: [{ type: 0, address: A }] })]));
  });
  it('STORAGE_DEPOSIT_RETURN_UNFULFILLED; fulfilled by a simple output; not owed once expired', () => {
    const sdr = (amount: bigint): BasicUnlockCondition[] => [
      { type: 1, returnAddress: B, amount },
      { type: 3, returnAddress: B, unixTime: TIME + 100 },
    ];
    const input = out(A, 150_000n, { ucs: sdr(42_600n) });
    expect(refusal(() => check(transact([input], [1], [out(A, 150_000n)])))).toEqual([
      'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
      'essence.outputs',
    ]);
    // A return output with a feature is not a simple deposit.
    expect(
      refusal(() =>
        check(
          transact(
            [input],
            [1],
            [out(A, 100_000n), out(B, 50_000n, { features: [{ type: 3, tag: Uint8Array.of(1) }] })],
          ),
        ),
      ),
    ).toEqual(['STORAGE_DEPOSIT_RETURN_UNFULFILLED', 'essence.outputs']);
    check(transact([input], [1], [out(A, 100_000n), out(B, 50_000n)]));
    check(transact([input], [2], [out(B, 150_000n)]), TIME + 100); // expired: the return address takes it all
  });
  it('BASE_TOKEN_BALANCE_MISMATCH', () => {
    expect(refusal(() => check(transact([out(A, 100_000n)], [1], [out(B, 99_999n)])))).toEqual([
      'BASE_TOKEN_BALANCE_MISMATCH',
      'essence.outputs',
    ]);
  });
  const token = (n: number, amount: bigint): NativeToken => ({
    id: Uint8Array.of(8, ...new Uint8Array(32).fill(n), 1, 0, 0, 0, 0),
    amount,
  });
  it('NATIVE_TOKEN_BALANCE_MISMATCH: minting without a foundry; burning is allowed', () => {
    const withTokens = out(A, 100_000n, { tokens: [token(1, 10n)] });
    expect(refusal(() => check(transact([withTokens], [1], [out(B, 100_000n, { tokens: [token(1, 11n)] })])))).toEqual([
      'NATIVE_TOKEN_BALANCE_MISMATCH',
      'essence.outputs',
    ]);
    check(transact([withTokens], [1], [out(B, 100_000n, { tokens: [token(1, 9n)] })]));
  });
  it('NATIVE_TOKEN_COUNT_EXCEEDED: 66 distinct tokens across the inputs', () => {
    const many = (from: number) => Array.from({ length: 33 }, (_, i) => token(from + i, 1n));
    const rich = (a: Address, from: number) => {
      const o = out(a, 0n, { tokens: many(from) });
      o.amount = minStorageDeposit(o, shimmer.rentStructure);
      return o;
    };
    const inputs = [rich(A, 0), rich(A, 33)];
    const total = inputs.reduce((s, o) => s + o.amount, 0n);
    expect(refusal(() => check(transact(inputs, [1, 1], [out(B, total)])))).toEqual([
      'NATIVE_TOKEN_COUNT_EXCEEDED',
      'essence.outputs',
    ]);
  });
});

describe("iota.go rc.3's conditions, which hornet confirmed the real ledger with", () => {
  const A = addr(1);
  const B = addr(2);
  const C = addr(3);

  it('a storage deposit return to the address that unlocked that very input is owed nothing (UnlockedBy)', () => {
    // transaction.go:634-638: `if UnlockedBy(inputIndex, returnIdent) { continue }`.
    const input = out(A, 150_000n, { ucs: [{ type: 1, returnAddress: A, amount: 50_000n }] });
    check(transact([input], [1], [out(C, 150_000n)]));
  });
  it('an expiration waives only a return to its own return address', () => {
    // Expired, C (the expiration's return address) unlocks: a return owed to B is still owed (nothing else in
    // TxSemanticDeposit looks at expirations); one owed to C is not.
    const toB = out(A, 150_000n, {
      ucs: [
        { type: 1, returnAddress: B, amount: 50_000n },
        { type: 3, returnAddress: C, unixTime: TIME },
      ],
    });
    expect(refusal(() => check(transact([toB], [3], [out(C, 150_000n)])))).toEqual([
      'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
      'essence.outputs',
    ]);
    check(transact([toB], [3], [out(C, 100_000n), out(B, 50_000n)]));
    const toC = out(A, 150_000n, {
      ucs: [
        { type: 1, returnAddress: C, amount: 50_000n },
        { type: 3, returnAddress: C, unixTime: TIME },
      ],
    });
    check(transact([toC], [3], [out(B, 150_000n)]));
  });
  it('two outputs of one chain are refused before any semantic rule (iota.go: a syntactic rule)', () => {
    const nft = {
      type: 6 as const,
      amount: 100_000n,
      nativeTokens: [],
      nftId: new Uint8Array(32).fill(7),
      unlockConditions: [{ type: 0 as const, address: B }],
      features: [],
      immutableFeatures: [],
    };
    const locked = out(A, 200_000n, { ucs: [{ type: 2, unixTime: TIME + 1 }] });
    expect(refusal(() => check(transact([locked], [1], [nft, nft])))).toEqual([
      'CHAIN_OUTPUT_DUPLICATED',
      'essence.outputs[1].nftId',
    ]);
    // One of them: the timelock comes first, before the chain rules (CHAIN_INPUT_MISSING).
    expect(refusal(() => check(transact([locked], [1], [{ ...nft, amount: 200_000n }])))).toEqual([
      'TIMELOCK_NOT_EXPIRED',
      'essence.inputs[0]',
    ]);
  });
  it('a timelock on a later input is found before an earlier input’s bad signature', () => {
    const locked = out(A, 100_000n, { ucs: [{ type: 2, unixTime: TIME + 1 }] });
    expect(refusal(() => check(transact([out(B, 100_000n), locked], [3, 1], [out(C, 200_000n)])))).toEqual([
      'TIMELOCK_NOT_EXPIRED',
      'essence.inputs[1]',
    ]);
  });
});

describe('the edges of each semantic rule (each test fails when its rule is changed: npm run mutate)', () => {
  const A = addr(1);
  const B = addr(2);
  const C = addr(3);
  const token = (n: number, amount: bigint): NativeToken => ({
    id: Uint8Array.of(8, ...new Uint8Array(32).fill(n), 1, 0, 0, 0, 0),
    amount,
  });

  it('expiration at its exact second: from then on the return address unlocks and no storage deposit return is owed', () => {
    const input = out(A, 150_000n, {
      ucs: [
        { type: 1, returnAddress: B, amount: 50_000n },
        { type: 3, returnAddress: B, unixTime: TIME },
      ],
    });
    // One second before: the owner unlocks and must return 50 000 to B; sending it all to C is refused.
    expect(refusal(() => check(transact([input], [1], [out(C, 150_000n)]), TIME - 1))).toEqual([
      'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
      'essence.outputs',
    ]);
    // At the second itself: B unlocks, owes nobody, and may send it all to C.
    check(transact([input], [2], [out(C, 150_000n)]), TIME);
    expect(refusal(() => check(transact([input], [1], [out(C, 150_000n)]), TIME))).toEqual([
      'SIGNATURE_ADDRESS_MISMATCH',
      'unlocks[0].signature.publicKey',
    ]);
  });

  it('a timelock that has passed is not an expiration: the storage deposit return is still owed', () => {
    const input = out(A, 150_000n, {
      ucs: [
        { type: 1, returnAddress: B, amount: 50_000n },
        { type: 2, unixTime: TIME - 10 },
      ],
    });
    expect(refusal(() => check(transact([input], [1], [out(C, 150_000n)])))).toEqual([
      'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
      'essence.outputs',
    ]);
    check(transact([input], [1], [out(C, 100_000n), out(B, 50_000n)]));
  });

  it('unlockAddress (public): the owner, the return address from the expiration on, and a typed error without an owner', () => {
    const expiring = out(A, 100_000n, { ucs: [{ type: 3, returnAddress: B, unixTime: TIME }] });
    expect(unlockAddress(expiring, TIME - 1)).toEqual(A);
    expect(unlockAddress(expiring, TIME)).toEqual(B);
    const ownerless = { ...expiring, unlockConditions: [{ type: 3, returnAddress: B, unixTime: TIME }] } as Output;
    expect(refusal(() => unlockAddress(ownerless, TIME - 1))).toEqual([
      'ADDRESS_UNLOCK_CONDITION_MISSING',
      'unlockConditions',
    ]);
    expect(unlockAddress(ownerless, TIME)).toEqual(B);
  });

  it('a ValidationError says its code, its path ("(root)" when empty) and what is wrong', () => {
    expect(new ValidationError('BLOCK_TOO_LONG', 'too long').message).toBe('BLOCK_TOO_LONG at (root): too long');
    expect(new ValidationError('AMOUNT_OUT_OF_RANGE', 'zero', { path: 'outputs[1].amount' }).message).toBe(
      'AMOUNT_OUT_OF_RANGE at outputs[1].amount: zero',
    );
  });

  it('a storage deposit return is met by exactly its amount, and not by one less', () => {
    const input = out(A, 150_000n, { ucs: [{ type: 1, returnAddress: B, amount: 50_000n }] });
    check(transact([input], [1], [out(A, 100_000n), out(B, 50_000n)]));
    expect(refusal(() => check(transact([input], [1], [out(A, 100_001n), out(B, 49_999n)])))).toEqual([
      'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
      'essence.outputs',
    ]);
    // Two simple outputs to B add up.
    check(transact([input], [1], [out(A, 50_000n), out(B, 50_000n), out(B, 50_000n)]));
  });

  it('only a simple output (one Address condition, no native tokens, no features) meets a return', () => {
    const input = out(A, 150_000n, { ucs: [{ type: 1, returnAddress: B, amount: 50_000n }], tokens: [token(1, 5n)] });
    const notSimple: [string, Output][] = [
      ['a native token', out(B, 60_000n, { tokens: [token(1, 5n)] })],
      ['a second unlock condition', out(B, 60_000n, { ucs: [{ type: 2, unixTime: 1 }] })],
      ['a feature', out(B, 60_000n, { features: [{ type: 2, data: Uint8Array.of(1) }] })],
    ];
    for (const [what, toB] of notSimple) {
      const rest = out(A, 90_000n, what === 'a native token' ? {} : { tokens: [token(1, 5n)] });
      expect(
        refusal(() => check(transact([input], [1], [rest, toB]))),
        what,
      ).toEqual(['STORAGE_DEPOSIT_RETURN_UNFULFILLED', 'essence.outputs']);
    }
    check(transact([input], [1], [out(A, 90_000n, { tokens: [token(1, 5n)] }), out(B, 60_000n)]));
  });

  it('64 distinct native tokens across inputs and outputs are allowed; 65 are not', () => {
    const rich = (from: number, count: number) => {
      const o = out(A, 0n, { tokens: Array.from({ length: count }, (_, i) => token(from + i, 1n)) });
      o.amount = minStorageDeposit(o, shimmer.rentStructure);
      return o;
    };
    for (const [counts, ok] of [
      [[32, 32], true],
      [[32, 33], false],
    ] as const) {
      const inputs = [rich(0, counts[0]), rich(100, counts[1])];
      const total = inputs.reduce((s, o) => s + o.amount, 0n);
      const t = transact(inputs, [1, 1], [out(B, total)]); // every token burnt: allowed
      if (ok) check(t);
      else expect(refusal(() => check(t))).toEqual(['NATIVE_TOKEN_COUNT_EXCEEDED', 'essence.outputs']);
    }
  });

  it('a Sender feature naming an Alias or NFT address is not unlocked by Ed25519 signatures', () => {
    for (const sender of [
      { type: 8, aliasId: new Uint8Array(32).fill(1) },
      { type: 16, nftId: new Uint8Array(32).fill(1) },
    ] as Address[]) {
      const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n, { features: [{ type: 0, address: sender }] })]);
      expect(refusal(() => check(t))).toEqual(['SENDER_NOT_UNLOCKED', 'essence.outputs[0].features[0].address']);
    }
  });

  it('one address, two signature unlocks: refused even where the syntactic rule (identical unlocks) does not reach', () => {
    // Syntax refuses two identical signature unlocks, and Ed25519 signatures by one key of one message are identical;
    // the semantic rule is the second line of defence. checkSemantics is what the ledger runs after the syntax.
    const t = transact([out(A, 100_000n), out(A, 100_000n)], [1, 1], [out(B, 200_000n)]);
    t.tx.unlocks[1] = t.tx.unlocks[0]!;
    const hash = transactionSigningHash(t.tx.essence);
    expect(
      refusal(() =>
        checkSemantics(workingSet(t.tx, { consumedOutputs: t.consumed, params: shimmer, time: TIME }, hash)),
      ),
    ).toEqual(['UNLOCK_INVALID', 'unlocks[1]']);
  });

  it('bad arguments are TypeErrors; time 0 is a time', () => {
    const t = transact([out(A, 100_000n)], [1], [out(B, 100_000n)]);
    const cases: [string, unknown][] = [
      ['null', null],
      ['a string', 'x'],
      ['outputs not an array', { consumedOutputs: 'no', params: shimmer, time: TIME }],
      ['a negative time', { consumedOutputs: t.consumed, params: shimmer, time: -1 }],
      ['a fractional time', { consumedOutputs: t.consumed, params: shimmer, time: 1.5 }],
    ];
    for (const [what, context] of cases)
      expect(() => validateTransaction(t.tx, context as never), what).toThrow(TypeError);
    check(t, 0);
  });
});

describe('property: build → sign → validate', () => {
  interface Plan {
    inputs: { owner: number; amount: bigint }[];
    splits: number;
    to: number;
    tag: Uint8Array | undefined;
  }
  const plan: fc.Arbitrary<Plan> = fc.record({
    inputs: fc.array(
      fc.record({ owner: fc.integer({ min: 1, max: 3 }), amount: fc.bigInt({ min: 50_000n, max: 10n ** 12n }) }),
      { minLength: 1, maxLength: 6 },
    ),
    splits: fc.integer({ min: 1, max: 4 }),
    to: fc.integer({ min: 1, max: 5 }),
    tag: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
  });
  const build = (p: Plan) => {
    const consumed = p.inputs.map((i) => out(addr(i.owner), i.amount));
    const total = consumed.reduce((s, o) => s + o.amount, 0n);
    const splits = Math.max(1, Math.min(p.splits, Number(total / 50_000n))); // every output keeps its deposit
    const part = total / BigInt(splits);
    const outputs = Array.from({ length: splits }, (_, k) =>
      out(addr(p.to), k === 0 ? total - part * BigInt(splits - 1) : part),
    );
    const essence = buildTransaction({
      inputs: consumed.map((output, i) => ({ outputId: outputId(txId(i), i), output })),
      outputs,
      params: shimmer,
      ...(p.tag ? { taggedData: { tag: p.tag, data: Uint8Array.of(1, 2, 3) } } : {}),
    });
    return {
      tx: signTransaction(
        essence,
        p.inputs.map((i) => key(i.owner)),
      ),
      consumed,
    };
  };

  it('random transactions validate', () => {
    fc.assert(
      fc.property(plan, (p) => void check(build(p))),
      { seed: 20, numRuns: 40 },
    );
  });

  it('changing any one byte of the signed essence makes validation fail', () => {
    fc.assert(
      fc.property(plan, fc.nat(), fc.integer({ min: 1, max: 255 }), (p, at, xor) => {
        const t = build(p);
        const bytes = encodeEssence(t.tx.essence).slice();
        bytes[at % bytes.length]! ^= xor;
        let mutated: ReturnType<typeof decodeEssence>;
        try {
          mutated = decodeEssence(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(CodecError); // no longer an essence at all: refused at decode
          return;
        }
        expect(() => check({ tx: { ...t.tx, essence: mutated }, consumed: t.consumed })).toThrow(ValidationError);
      }),
      { seed: 21, numRuns: 150 },
    );
  });

  it('buildBlock sorts parents and meets the network PoW', () => {
    const t = build({ inputs: [{ owner: 1, amount: 100_000n }], splits: 1, to: 2, tag: undefined });
    const parents = [key(9), key(3), key(9)];
    const lowPow = { ...shimmer, minPowScore: 20 };
    const block = buildBlock({ parents, payload: t.tx, params: lowPow });
    expect(block.parents).toEqual([key(3), key(9)]);
    validateBlock(block, lowPow);
  });
});
