// fast-check arbitraries for every wire type. Sizes lean towards the limits (0, 1, max) so that boundary
// encodings are exercised, not only small random ones. They produce well-formed (decodable) models; protocol
// validity (ordering, deposits) is not required by the codec and not generated here except in `validBlock`.
import fc from 'fast-check';
import type {
  Address,
  BasicFeature,
  BasicOutput,
  BasicUnlockCondition,
  Block,
  Input,
  MilestoneOption,
  MilestonePayload,
  NativeToken,
  Output,
  TaggedDataPayload,
  TransactionEssence,
  TransactionPayload,
  Unlock,
} from '../../src/index.js';
import { MAX_TAGGED_DATA_LENGTH } from '../../src/stardust/limits.js';

const MAX_U64 = (1n << 64n) - 1n;
const MAX_U256 = (1n << 256n) - 1n;

export const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });

/** Lengths in min..max, with the bounds themselves drawn often. */
export const lengthIn = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 40) }) },
    fc.constantFrom(min, max),
    fc.integer({ min, max }),
  );

export const varBytes = (min: number, max: number) => lengthIn(min, max).chain((n) => bytes(n));

export const u8 = fc.integer({ min: 0, max: 0xff });
export const u16 = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 127, 128, 0xffff));
export const u32 = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 0xffffffff));
export const u64 = fc.oneof(fc.bigInt({ min: 0n, max: MAX_U64 }), fc.constantFrom(0n, 1n, MAX_U64, 1n << 63n));
export const u256 = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_U256 }),
  fc.bigInt({ min: 0n, max: MAX_U64 }),
  fc.constantFrom(0n, 1n, MAX_U256, 1n << 64n),
);

/** Arrays of min..max elements, with the bounds drawn often. */
export const listOf = <T>(arb: fc.Arbitrary<T>, min: number, max: number) =>
  lengthIn(min, max).chain((n) => fc.array(arb, { minLength: n, maxLength: n }));

export const address: fc.Arbitrary<Address> = fc.oneof(
  bytes(32).map((pubKeyHash) => ({ type: 0 as const, pubKeyHash })),
  bytes(32).map((aliasId) => ({ type: 8 as const, aliasId })),
  bytes(32).map((nftId) => ({ type: 16 as const, nftId })),
);

export const nativeToken: fc.Arbitrary<NativeToken> = fc.record({ id: bytes(38), amount: u256 });

export const unlockCondition: fc.Arbitrary<BasicUnlockCondition> = fc.oneof(
  address.map((a) => ({ type: 0 as const, address: a })),
  fc.record({ type: fc.constant(1 as const), returnAddress: address, amount: u64 }),
  fc.record({ type: fc.constant(2 as const), unixTime: u32 }),
  fc.record({ type: fc.constant(3 as const), returnAddress: address, unixTime: u32 }),
);

export const feature: fc.Arbitrary<BasicFeature> = fc.oneof(
  address.map((a) => ({ type: 0 as const, address: a })),
  varBytes(1, 8192).map((data) => ({ type: 2 as const, data })),
  varBytes(1, 64).map((tag) => ({ type: 3 as const, tag })),
);

export const output: fc.Arbitrary<BasicOutput> = fc.record({
  type: fc.constant(3 as const),
  amount: u64,
  nativeTokens: listOf(nativeToken, 0, 64),
  unlockConditions: listOf(unlockCondition, 1, 4),
  features: listOf(feature, 0, 3),
});

/** Outputs small enough that a block holding a few of them stays under 32 KiB. */
export const smallOutput: fc.Arbitrary<BasicOutput> = fc.record({
  type: fc.constant(3 as const),
  amount: u64,
  nativeTokens: fc.array(nativeToken, { maxLength: 3 }),
  unlockConditions: fc.array(unlockCondition, { minLength: 1, maxLength: 4 }),
  features: fc.array(
    fc.oneof(
      address.map((a) => ({ type: 0 as const, address: a })),
      varBytes(1, 200).map((data) => ({ type: 2 as const, data })),
      varBytes(1, 64).map((tag) => ({ type: 3 as const, tag })),
    ),
    { maxLength: 3 },
  ),
});

export const input: fc.Arbitrary<Input> = fc.record({
  type: fc.constant(0 as const),
  transactionId: bytes(32),
  transactionOutputIndex: u16,
});

export const unlock: fc.Arbitrary<Unlock> = fc.oneof(
  fc
    .record({ publicKey: bytes(32), signature: bytes(64) })
    .map((s) => ({ type: 0 as const, signature: { type: 0 as const, ...s } })),
  u16.map((reference) => ({ type: 1 as const, reference })),
);

export const taggedData = (maxData = MAX_TAGGED_DATA_LENGTH): fc.Arbitrary<TaggedDataPayload> =>
  fc.record({ type: fc.constant(5 as const), tag: varBytes(0, 64), data: varBytes(0, maxData) });

export const essence = (
  out: fc.Arbitrary<BasicOutput> = output,
  maxIo = 128,
  maxData = MAX_TAGGED_DATA_LENGTH,
): fc.Arbitrary<TransactionEssence> =>
  fc.record({
    type: fc.constant(1 as const),
    networkId: u64,
    inputs: listOf(input, 1, maxIo),
    inputsCommitment: bytes(32),
    outputs: listOf(out, 1, maxIo),
    payload: fc.option(taggedData(maxData), { nil: undefined }),
  });

export const transactionPayload = (ess = essence()): fc.Arbitrary<TransactionPayload> =>
  fc.record({ type: fc.constant(6 as const), essence: ess, unlocks: fc.array(unlock, { minLength: 1, maxLength: 8 }) });

/** Blocks that fit in 32768 bytes: small transactions, or tagged data up to the block limit. */
export const block: fc.Arbitrary<Block> = fc.record({
  protocolVersion: u8,
  parents: listOf(bytes(32), 1, 8),
  payload: fc.option(fc.oneof(taggedData(32_000), transactionPayload(essence(smallOutput, 6, 1000))), {
    nil: undefined,
  }),
  nonce: u64,
});

// The full type set (SPEC A §13): chain outputs, their unlocks, token schemes, milestone payloads with options.
const aliasAddr = bytes(32).map((aliasId) => ({ type: 8 as const, aliasId }));
const metadata = varBytes(1, 8192).map((data) => ({ type: 2 as const, data }));
const immutable = fc.oneof(
  address.map((a) => ({ type: 1 as const, address: a })),
  metadata,
);

export const aliasOutput = fc.record({
  type: fc.constant(4 as const),
  amount: u64,
  nativeTokens: listOf(nativeToken, 0, 64),
  aliasId: bytes(32),
  stateIndex: u32,
  stateMetadata: varBytes(0, 8192),
  foundryCounter: u32,
  unlockConditions: fc.tuple(address, address).map(([s, g]) => [
    { type: 4 as const, address: s },
    { type: 5 as const, address: g },
  ]),
  features: listOf(
    fc.oneof(
      address.map((a) => ({ type: 0 as const, address: a })),
      metadata,
    ),
    0,
    2,
  ),
  immutableFeatures: listOf(immutable, 0, 2),
});

export const foundryOutput = fc.record({
  type: fc.constant(5 as const),
  amount: u64,
  nativeTokens: listOf(nativeToken, 0, 64),
  serialNumber: u32,
  tokenScheme: fc.record({
    type: fc.constant(0 as const),
    mintedTokens: u256,
    meltedTokens: u256,
    maximumSupply: u256,
  }),
  unlockConditions: aliasAddr.map((a) => [{ type: 6 as const, address: a }]),
  features: listOf(metadata, 0, 1),
  immutableFeatures: listOf(metadata, 0, 1),
});

export const nftOutput = fc.record({
  type: fc.constant(6 as const),
  amount: u64,
  nativeTokens: listOf(nativeToken, 0, 64),
  nftId: bytes(32),
  unlockConditions: listOf(unlockCondition, 1, 4),
  features: listOf(feature, 0, 3),
  immutableFeatures: listOf(immutable, 0, 2),
});

export const anyOutput: fc.Arbitrary<Output> = fc.oneof(output, aliasOutput, foundryOutput, nftOutput);

export const chainUnlock: fc.Arbitrary<Unlock> = fc.oneof(
  u16.map((reference) => ({ type: 2 as const, reference })),
  u16.map((reference) => ({ type: 3 as const, reference })),
);

const receipt = fc.record({
  type: fc.constant(0 as const),
  migratedAt: u32,
  final: fc.boolean(),
  funds: listOf(fc.record({ tailTransactionHash: bytes(49), address, deposit: u64 }), 1, 127),
  transaction: fc.record({
    type: fc.constant(4 as const),
    input: fc.record({ type: fc.constant(1 as const), milestoneId: bytes(32) }),
    output: fc.record({ type: fc.constant(2 as const), amount: u64 }),
  }),
});
const protocolParams = fc.record({
  type: fc.constant(1 as const),
  targetMilestoneIndex: u32,
  protocolVersion: u8,
  params: varBytes(0, 8192),
});

export const milestonePayload: fc.Arbitrary<MilestonePayload> = fc.record({
  type: fc.constant(7 as const),
  index: u32,
  timestamp: u32,
  protocolVersion: u8,
  previousMilestoneId: bytes(32),
  parents: listOf(bytes(32), 1, 8),
  inclusionMerkleRoot: bytes(32),
  appliedMerkleRoot: bytes(32),
  metadata: varBytes(0, 8192),
  options: fc.oneof(
    fc.constant(null).map((): MilestoneOption[] => []),
    receipt.map((r) => [r]),
    protocolParams.map((p) => [p]),
    fc.tuple(receipt, protocolParams).map(([r, p]) => [r, p]),
  ),
  signatures: listOf(fc.record({ type: fc.constant(0 as const), publicKey: bytes(32), signature: bytes(64) }), 1, 255),
});
