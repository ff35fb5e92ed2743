// fast-check arbitraries for the Nova types. They produce syntactically well-formed values (lists sorted by type and
// each type once, conditions that must occur present, keys and parents sorted and unique, multi addresses within
// their rules), so that iota-sdk 2.0 accepts them as the other side of a differential test; sizes lean to the limits.
import fc from 'fast-check';
import type { nova } from '../../src/index.js';
import { foundryId } from '../../src/nova/ids.js';
import { protocolParameters } from '../../src/nova/protocol-parameters.js';
import { minimumDeposit } from '../../src/nova/scores.js';
import { compareBytes } from '../../src/util/bytes.js';
import { bytes, lengthIn, u8, u16, u32, u64, u256, varBytes } from '../helpers/arbitraries.js';
import { loadVectors } from '../helpers/vectors.js';

/** The fixtures' protocol parameters (testnet): the network the generated blocks and transactions belong to. */
export const FIXTURE_PARAMETERS_JSON = loadVectors('nova/protocol_parameters.json').params;
export const FIXTURE_PARAMETERS = protocolParameters.fromJson(FIXTURE_PARAMETERS_JSON);

type N = typeof nova;
type Output = nova.Output;

/** The network id of the fixtures' protocol parameters (testnet), which iota-sdk checks a block against. */
export const TESTNET_ID = 8342982141227064571n;
/** Their hash, which iota-sdk checks a validation block against. */
const FIXTURE_PARAMETERS_HASH = Uint8Array.from(
  Buffer.from('21e0f6e8607b04fa34d54a8a776adfe7e0e5a8931005ce8a66c5990fa1c2f960', 'hex'),
);

const sortedUnique = (list: Uint8Array[]) =>
  [...list].sort(compareBytes).filter((b, i, a) => i === 0 || compareBytes(a[i - 1]!, b) !== 0);
export const sortedIds = (n: number, min: number, max: number) =>
  fc
    .array(bytes(n), { minLength: min, maxLength: max })
    .map(sortedUnique)
    .filter((l) => l.length >= min);

export const simpleAddress: fc.Arbitrary<nova.SimpleAddress> = fc.oneof(
  bytes(32).map((pubKeyHash) => ({ type: 0 as const, pubKeyHash })),
  bytes(32).map((accountId) => ({ type: 8 as const, accountId })),
  bytes(32).map((nftId) => ({ type: 16 as const, nftId })),
  bytes(32).map((anchorId) => ({ type: 24 as const, anchorId })),
);
const ID_KEY = { 0: 'pubKeyHash', 8: 'accountId', 16: 'nftId', 24: 'anchorId' } as const;
const simpleKey = (a: nova.SimpleAddress) => {
  const id = (a as unknown as Record<string, Uint8Array>)[ID_KEY[a.type]]!;
  return new Uint8Array([a.type, ...id]);
};

export const multiAddress: fc.Arbitrary<nova.MultiAddress> = fc
  .array(fc.record({ address: simpleAddress, weight: fc.integer({ min: 1, max: 255 }) }), {
    minLength: 2,
    maxLength: 10,
  })
  .map((l) =>
    [...l]
      .sort((a, b) => compareBytes(simpleKey(a.address), simpleKey(b.address)))
      .filter((w, i, a) => i === 0 || compareBytes(simpleKey(a[i - 1]!.address), simpleKey(w.address)) !== 0),
  )
  .filter((l) => l.length >= 2)
  .chain((addresses) =>
    fc.record({
      type: fc.constant(40 as const),
      addresses: fc.constant(addresses),
      threshold: fc.integer({ min: 1, max: addresses.reduce((s, a) => s + a.weight, 0) }),
    }),
  );

/** A capability bitmask with no trailing zero byte. */
/**
 * A capability bitmask of known bits (`masks`, one per byte) with no trailing zero byte: a restricted address has
 * nine (TIP-50), a transaction six (TIP-45).
 */
const capabilities = (masks: number[]) =>
  fc
    .tuple(...masks.map((m) => fc.integer({ min: 0, max: 255 }).map((b) => b & m)))
    .chain((all) => fc.integer({ min: 0, max: all.length }).map((n) => Uint8Array.from(all.slice(0, n))))
    .filter((b) => b.length === 0 || b[b.length - 1] !== 0);

export const restrictedAddress: fc.Arbitrary<nova.RestrictedAddress> = fc.record({
  type: fc.constant(48 as const),
  address: fc.oneof({ weight: 4, arbitrary: simpleAddress }, multiAddress),
  allowedCapabilities: capabilities([0xff, 0x01]),
});

export const address: fc.Arbitrary<nova.Address> = fc.oneof(
  { weight: 6, arbitrary: simpleAddress },
  bytes(32).map((pubKeyHash) => ({ type: 32 as const, pubKeyHash })),
  multiAddress,
  restrictedAddress,
);
/**
 * An owner: a restricted one may receive everything (all nine capabilities), since what an output may hold is a
 * syntactic rule about its owner's capabilities (TIP-50) that the rule tests exercise, not the codec's.
 */
const ownerAddress: fc.Arbitrary<nova.Address> = address.map((a) =>
  a.type === 48 ? { ...a, allowedCapabilities: Uint8Array.of(0xff, 0x01) } : a,
);
const explicitOwner = ownerAddress.filter((a) => a.type !== 32) as fc.Arbitrary<nova.ExplicitAddress>;
const accountAddress = bytes(32).map((accountId) => ({ type: 8 as const, accountId }));

/** Printable-ASCII keys and values, the map within 8192 bytes. */
export const metadataEntries = (maxValue = 600): fc.Arbitrary<nova.MetadataEntries> =>
  fc
    .dictionary(
      fc.string({
        unit: fc.integer({ min: 33, max: 126 }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 24,
      }),
      varBytes(0, maxValue),
      { minKeys: 1, maxKeys: 12 },
    )
    .map((o) => new Map(Object.entries(o)));

/** One of each listed type at most, in type order; the `required` types always. */
function typedSet<T extends { type: number }>(options: fc.Arbitrary<T>[], required: number[] = []) {
  return fc
    .tuple(...options.map((o) => fc.option(o, { nil: undefined })))
    .map((l) => l.filter((x): x is T => x !== undefined))
    .filter((l) => required.every((t) => l.some((x) => x.type === t)));
}

const uc = {
  address: ownerAddress.map((a) => ({ type: 0 as const, address: a })),
  sdr: fc.record({ type: fc.constant(1 as const), returnAddress: explicitOwner, amount: u64 }),
  timelock: fc.record({ type: fc.constant(2 as const), slot: u32.filter((s) => s > 0) }),
  expiration: fc.record({
    type: fc.constant(3 as const),
    returnAddress: explicitOwner,
    slot: u32.filter((s) => s > 0),
  }),
};
const feat = {
  sender: address.map((a) => ({ type: 0 as const, address: a })),
  issuer: address.map((a) => ({ type: 1 as const, address: a })),
  metadata: metadataEntries().map((entries) => ({ type: 2 as const, entries })),
  stateMetadata: metadataEntries().map((entries) => ({ type: 3 as const, entries })),
  tag: varBytes(1, 64).map((tag) => ({ type: 4 as const, tag })),
  nativeToken: fc.record({ type: fc.constant(5 as const), id: bytes(38), amount: u256.filter((a) => a > 0n) }),
  blockIssuer: fc.record({
    type: fc.constant(6 as const),
    expirySlot: u32,
    blockIssuerKeys: sortedIds(32, 1, 8).map((l) => l.map((pubKeyHash) => ({ type: 0 as const, pubKeyHash }))),
  }),
  staking: fc.record({
    type: fc.constant(7 as const),
    stakedAmount: u64,
    fixedCost: u64,
    startEpoch: u32,
    endEpoch: u32,
  }),
};
const notImplicit = (l: { address: nova.Address }[]) => l.every((x) => x.address.type !== 32);

export const basicOutput: fc.Arbitrary<nova.BasicOutput> = fc.record({
  type: fc.constant(0 as const),
  amount: u64,
  mana: u64,
  unlockConditions: typedSet<nova.BasicUnlockCondition>([uc.address, uc.sdr, uc.timelock, uc.expiration], [0]),
  features: typedSet<nova.BasicFeature>([feat.sender, feat.metadata, feat.tag, feat.nativeToken]),
});
const anyAccountOutput: fc.Arbitrary<nova.AccountOutput> = fc.record({
  type: fc.constant(1 as const),
  amount: u64,
  mana: u64,
  accountId: bytes(32),
  foundryCounter: u32,
  unlockConditions: uc.address.map((c) => [c]).filter(notImplicit),
  // A staking feature needs a block issuer feature (TIP-42).
  features: typedSet<nova.AccountFeature>([feat.sender, feat.metadata, feat.blockIssuer, feat.staking]).filter(
    (l) => !l.some((f) => f.type === 7) || l.some((f) => f.type === 6),
  ),
  immutableFeatures: typedSet<nova.ImmutableFeature>([feat.issuer, feat.metadata]),
});
/** An account stakes no more than it holds. */
export const accountOutput: fc.Arbitrary<nova.AccountOutput> = anyAccountOutput.map((o) => ({
  ...o,
  features: o.features.map((f) => (f.type === 7 && f.stakedAmount > o.amount ? { ...f, stakedAmount: o.amount } : f)),
}));
export const anchorOutput: fc.Arbitrary<nova.AnchorOutput> = fc.record({
  type: fc.constant(2 as const),
  amount: u64,
  mana: u64,
  anchorId: bytes(32),
  stateIndex: u32,
  unlockConditions: fc.tuple(explicitOwner, explicitOwner).map(([s, g]) => [
    { type: 4 as const, address: s },
    { type: 5 as const, address: g },
  ]),
  features: typedSet<nova.AnchorFeature>([feat.metadata, feat.stateMetadata]),
  immutableFeatures: typedSet<nova.ImmutableFeature>([feat.issuer, feat.metadata]),
});
export const foundryOutput: fc.Arbitrary<nova.FoundryOutput> = fc.record({
  type: fc.constant(3 as const),
  amount: u64,
  serialNumber: u32.filter((n) => n > 0),
  tokenScheme: fc
    .tuple(
      u256.filter((m) => m > 0n),
      u256,
      u256,
    )
    .map(([max, a, b]) => {
      const minted = a % (max + 1n);
      const melted = b % (minted + 1n);
      return { type: 0 as const, mintedTokens: minted, meltedTokens: melted, maximumSupply: max };
    }),
  unlockConditions: accountAddress.map((a) => [{ type: 6 as const, address: a }]),
  features: typedSet<nova.FoundryFeature>([feat.metadata, feat.nativeToken]),
  immutableFeatures: typedSet<nova.MetadataFeature>([feat.metadata]),
});
export const nftOutput: fc.Arbitrary<nova.NftOutput> = fc.record({
  type: fc.constant(4 as const),
  amount: u64,
  mana: u64,
  nftId: bytes(32),
  unlockConditions: typedSet<nova.BasicUnlockCondition>([uc.address, uc.sdr, uc.timelock, uc.expiration], [0]).filter(
    (l) => (l[0] as nova.AddressUnlockCondition).address.type !== 32,
  ),
  features: typedSet<nova.NftFeature>([feat.sender, feat.metadata, feat.tag]),
  immutableFeatures: typedSet<nova.ImmutableFeature>([feat.issuer, feat.metadata]),
});
export const delegationOutput: fc.Arbitrary<nova.DelegationOutput> = fc.record({
  type: fc.constant(5 as const),
  amount: u64,
  delegatedAmount: u64,
  delegationId: bytes(32),
  validatorAddress: accountAddress.filter((a) => a.accountId.some((b) => b !== 0)),
  startEpoch: u32,
  endEpoch: u32,
  unlockConditions: uc.address.map((c) => [c]).filter(notImplicit),
});

/** Whether a chain output is unlocked by its own address (a syntactic error: it could never be unlocked). */
function selfControlled(o: Output): boolean {
  const own = o.type === 1 ? o.accountId : o.type === 2 ? o.anchorId : o.type === 4 ? o.nftId : undefined;
  if (own === undefined) return false;
  return o.unlockConditions.some((c) => {
    const a = 'address' in c ? c.address : undefined;
    const id =
      a === undefined
        ? undefined
        : a.type === 8
          ? a.accountId
          : a.type === 24
            ? a.anchorId
            : a.type === 16
              ? a.nftId
              : undefined;
    return id !== undefined && a!.type === { 1: 8, 2: 24, 4: 16 }[o.type as 1 | 2 | 4] && compareBytes(id, own) === 0;
  });
}

/** An account or anchor that is being created (id all zeros) starts with a zero foundry counter or state index. */
const fresh = (o: Output): Output => {
  if (o.type === 1 && o.accountId.every((b) => b === 0)) return { ...o, foundryCounter: 0 };
  if (o.type === 2 && o.anchorId.every((b) => b === 0)) return { ...o, stateIndex: 0 };
  // A foundry's native token feature holds its own token (TIP-44).
  if (o.type === 3) {
    const id = foundryId(o.unlockConditions[0]!.address.accountId, o.serialNumber, 0);
    return { ...o, features: o.features.map((f) => (f.type === 5 ? { ...f, id } : f)) };
  }
  return o;
};

export const output: fc.Arbitrary<Output> = fc
  .oneof(basicOutput, accountOutput, anchorOutput, foundryOutput, nftOutput, delegationOutput)
  .map(fresh)
  .filter((o) => !selfControlled(o));

/**
 * An output a transaction may create: its amount covers its deposit (the fixtures' storage cost) and, like its mana
 * and stake, keeps the transaction's sums within the token supply and the mana bits.
 */
const fundedOutput: fc.Arbitrary<Output> = fc
  .tuple(output, fc.bigInt({ min: 0n, max: 1_000_000n }), fc.bigInt({ min: 0n, max: 1_000_000n }))
  .map(([o, extra, small]) => {
    const held: Output = { ...o };
    if ('mana' in held) held.mana = small;
    // A storage deposit return gives back at least what a basic output to the return address needs.
    let returned = 0n;
    if (held.type === 0 || held.type === 4) {
      held.unlockConditions = held.unlockConditions.map((c) => {
        if (c.type !== 1) return c;
        const back: Output = {
          type: 0,
          amount: 0n,
          mana: 0n,
          features: [],
          unlockConditions: [{ type: 0, address: c.returnAddress }],
        };
        returned = minimumDeposit(FIXTURE_PARAMETERS, back) + small;
        return { ...c, amount: returned };
      });
    }
    if (held.type === 5) held.delegatedAmount = small;
    if (held.type === 1) {
      held.features = held.features.map((f) => (f.type === 7 ? { ...f, stakedAmount: 0n, fixedCost: small } : f));
    }
    held.amount = minimumDeposit(FIXTURE_PARAMETERS, held) + returned + extra;
    return held;
  });

/**
 * Context inputs as TIP-45 orders them: one commitment (always here: delegation outputs, staking and block issuer
 * features and the other context inputs need one), then block issuance credit inputs of distinct accounts, then
 * reward inputs for distinct inputs.
 */
const contextInputs = (inputs: number, max: number): fc.Arbitrary<nova.ContextInput[]> =>
  fc
    .tuple(
      bytes(36),
      sortedIds(32, 0, max),
      fc.uniqueArray(fc.integer({ min: 0, max: inputs - 1 }), { maxLength: Math.min(max, inputs) }),
    )
    .map(([commitmentId, accounts, rewards]) => [
      { type: 0 as const, commitmentId },
      ...accounts.map((accountId) => ({ type: 1 as const, accountId })),
      ...[...rewards].sort((a, b) => a - b).map((index) => ({ type: 2 as const, index })),
    ]);
const utxoInput: fc.Arbitrary<nova.UtxoInput> = fc.record({
  type: fc.constant(0 as const),
  transactionId: bytes(36),
  transactionOutputIndex: fc.integer({ min: 0, max: 127 }),
});
export const taggedData = (maxData: number): fc.Arbitrary<nova.TaggedDataPayload> =>
  fc.record({ type: fc.constant(0 as const), tag: varBytes(0, 64), data: varBytes(0, maxData) });

export const transaction = (maxIo = 4): fc.Arbitrary<nova.Transaction> =>
  fc
    .uniqueArray(utxoInput, {
      minLength: 1,
      maxLength: maxIo,
      selector: (i) => `${i.transactionId.join()}/${i.transactionOutputIndex}`,
    })
    .chain((inputs) =>
      fc.record({
        networkId: fc.constant(TESTNET_ID),
        creationSlot: u32,
        contextInputs: contextInputs(inputs.length, maxIo),
        inputs: fc.constant(inputs),
        allotments: sortedIds(32, 0, maxIo).chain((ids) =>
          // Mana allotted in one transaction stays within the 63 bits of mana.
          fc.tuple(
            ...ids.map((accountId) => fc.bigInt({ min: 0n, max: 1n << 55n }).map((mana) => ({ accountId, mana }))),
          ),
        ),
        capabilities: capabilities([0x3f]),
        payload: fc.option(taggedData(200), { nil: undefined }),
        outputs: fc.array(fundedOutput, { minLength: 1, maxLength: maxIo }),
      }),
    );

const signature = fc.record({ publicKey: bytes(32), signature: bytes(64) }).map((s) => ({ type: 0 as const, ...s }));
const innerUnlock: fc.Arbitrary<nova.InnerUnlock> = fc.oneof(
  signature.map((s) => ({ type: 0 as const, signature: s })),
  u16.map((reference) => ({ type: 1 as const, reference })),
  u16.map((reference) => ({ type: 2 as const, reference })),
  u16.map((reference) => ({ type: 3 as const, reference })),
  u16.map((reference) => ({ type: 4 as const, reference })),
  fc.constant({ type: 6 as const }),
);
export const unlock: fc.Arbitrary<nova.Unlock> = fc.oneof(
  { weight: 6, arbitrary: innerUnlock },
  fc.array(innerUnlock, { minLength: 2, maxLength: 10 }).map((unlocks) => ({ type: 5 as const, unlocks })),
);

/** Any unlocks, for the codec: references need not point anywhere. */
export const anyUnlocks = (maxIo = 4) => fc.array(unlock, { minLength: 1, maxLength: maxIo });

/** One unlock per input: a signature first, then signatures or references back to one (TIP-45's rules). */
const unlocksFor = (inputs: number): fc.Arbitrary<nova.Unlock[]> =>
  fc.array(fc.option(signature, { nil: undefined }), { minLength: inputs, maxLength: inputs }).map((picks) => {
    let lastSignature = 0;
    return picks.map((sig, i) => {
      if (i === 0 || sig !== undefined) {
        lastSignature = i;
        return {
          type: 0 as const,
          signature: sig ?? { type: 0 as const, publicKey: new Uint8Array(32).fill(1), signature: new Uint8Array(64) },
        };
      }
      return { type: 1 as const, reference: lastSignature };
    });
  });

export const signedTransaction = (maxIo = 4): fc.Arbitrary<nova.SignedTransactionPayload> =>
  transaction(maxIo).chain((tx) =>
    unlocksFor(tx.inputs.length).map((unlocks) => ({ type: 1 as const, transaction: tx, unlocks })),
  );

const header: fc.Arbitrary<nova.BlockHeader> = fc.record({
  protocolVersion: fc.constant(3),
  networkId: fc.constant(TESTNET_ID),
  issuingTime: u64,
  slotCommitmentId: bytes(36),
  latestFinalizedSlot: u32,
  issuerId: bytes(32),
});
const withSlot = (id: Uint8Array, slot: number) => {
  const out = Uint8Array.from(id);
  new DataView(out.buffer).setUint32(32, slot, true);
  return out;
};

/**
 * A block issued in a slot at least `maxCommittableAge` after genesis, committing to a slot within the committable
 * window before it, as iota-sdk checks a block's transaction against (TIP-46): its commitment input names the same.
 */
function timed(b: nova.Block, slot: number, age: number, nanos: bigint): nova.Block {
  const p = FIXTURE_PARAMETERS;
  const issuingTime = (p.genesisUnixTimestamp + BigInt((slot - 1) * p.slotDurationInSeconds)) * 1_000_000_000n + nanos;
  const committed = slot - p.minCommittableAge - (age % (p.maxCommittableAge - p.minCommittableAge));
  const header = { ...b.header, issuingTime, slotCommitmentId: withSlot(b.header.slotCommitmentId, committed) };
  const body = b.body;
  if (body.type !== 0 || body.payload?.type !== 1) return { ...b, header };
  const tx = body.payload.transaction;
  const contextInputs = tx.contextInputs.map((c) =>
    c.type === 0 ? { ...c, commitmentId: withSlot(c.commitmentId, committed) } : c,
  );
  const transaction = { ...tx, creationSlot: slot, contextInputs };
  return { ...b, header, body: { ...body, payload: { ...body.payload, transaction } } };
}

const untimedBlock: fc.Arbitrary<nova.Block> = fc.record({
  header,
  body: fc.oneof(
    fc.record({
      type: fc.constant(0 as const),
      strongParents: sortedIds(36, 1, 8),
      weakParents: sortedIds(36, 0, 8),
      shallowLikeParents: sortedIds(36, 0, 8),
      payload: fc.option(fc.oneof(taggedData(8192), signedTransaction(), fc.constant({ type: 2 as const })), {
        nil: undefined,
      }),
      maxBurnedMana: u64,
    }),
    fc.record({
      type: fc.constant(1 as const),
      strongParents: sortedIds(36, 1, 50),
      weakParents: sortedIds(36, 0, 50),
      shallowLikeParents: sortedIds(36, 0, 50),
      highestSupportedVersion: fc.integer({ min: 3, max: 255 }),
      protocolParametersHash: fc.constant(FIXTURE_PARAMETERS_HASH),
    }),
  ),
  signature,
});

export const block: fc.Arbitrary<nova.Block> = fc
  .tuple(untimedBlock, fc.integer({ min: 100, max: 10_000_000 }), fc.nat(), fc.bigInt({ min: 0n, max: 9_999_999_999n }))
  .map(([b, slot, age, nanos]) => timed(b, slot, age, nanos));

export const slotCommitment: fc.Arbitrary<nova.SlotCommitment> = fc.record({
  protocolVersion: u8,
  slot: u32,
  previousCommitmentId: bytes(36),
  rootsId: bytes(32),
  cumulativeWeight: u64,
  referenceManaCost: u64,
});

export { lengthIn };
export const bytes36 = bytes(36);
export type { N };
