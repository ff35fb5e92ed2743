import {
  arrayOf,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  tag,
  u8,
  u32,
  u64,
  u256,
  union,
  varBytes,
} from '../codec/index.js';
import { type Address, address } from './address.js';
import { generated } from './feature.gen.js';
import {
  FOUNDRY_ID_LENGTH,
  IDENTIFIER_LENGTH,
  MAX_BLOCK_ISSUER_KEYS,
  MAX_TAG_LENGTH,
  MIN_BLOCK_ISSUER_KEYS,
} from './limits.js';
import { type MetadataEntries, metadataEntries } from './metadata.js';
import { BlockIssuerKeyType, FeatureType as F } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-38 features, with TIP-42's block issuer and staking features, TIP-38's native token feature (a basic or foundry
// output holds at most one native token) and TIP-54's state metadata. Which ones an output may carry, as features or
// as immutable features, depends on its kind: one union per list below, the others TYPE_NOT_ALLOWED there.

export interface SenderFeature {
  type: typeof F.Sender;
  address: Address;
}
/** The address that created an account, anchor or NFT: an immutable feature. */
export interface IssuerFeature {
  type: typeof F.Issuer;
  address: Address;
}
export interface MetadataFeature {
  type: typeof F.Metadata;
  entries: MetadataEntries;
}
/** An anchor's metadata that only its state controller may change (TIP-54). */
export interface StateMetadataFeature {
  type: typeof F.StateMetadata;
  entries: MetadataEntries;
}
/** 1..64 bytes. */
export interface TagFeature {
  type: typeof F.Tag;
  tag: Uint8Array;
}
/** One native token: its foundry id and a uint256 amount. */
export interface NativeTokenFeature {
  type: typeof F.NativeToken;
  id: Uint8Array;
  amount: bigint;
}
/** TIP-42: the BLAKE2b-256 hash of an Ed25519 public key that may sign blocks for the account. */
export interface Ed25519PublicKeyHashBlockIssuerKey {
  type: typeof BlockIssuerKeyType.Ed25519PublicKeyHash;
  pubKeyHash: Uint8Array;
}
export type BlockIssuerKey = Ed25519PublicKeyHashBlockIssuerKey;
/** TIP-42: the account may issue blocks until `expirySlot`, signed by one of these keys (sorted, unique). */
export interface BlockIssuerFeature {
  type: typeof F.BlockIssuer;
  expirySlot: number;
  blockIssuerKeys: BlockIssuerKey[];
}
/** TIP-42: the account is a validator candidate staking `stakedAmount` from `startEpoch` to `endEpoch`. */
export interface StakingFeature {
  type: typeof F.Staking;
  stakedAmount: bigint;
  fixedCost: bigint;
  startEpoch: number;
  endEpoch: number;
}
export type Feature =
  | SenderFeature
  | IssuerFeature
  | MetadataFeature
  | StateMetadataFeature
  | TagFeature
  | NativeTokenFeature
  | BlockIssuerFeature
  | StakingFeature;

const f = 'feature';
export const senderFeature = struct<SenderFeature>('NovaSenderFeature', { type: tag(u8, F.Sender, f), address });
export const issuerFeature = struct<IssuerFeature>('NovaIssuerFeature', { type: tag(u8, F.Issuer, f), address });
export const metadataFeature = struct<MetadataFeature>('NovaMetadataFeature', {
  type: tag(u8, F.Metadata, f),
  entries: metadataEntries,
});
export const stateMetadataFeature = struct<StateMetadataFeature>('NovaStateMetadataFeature', {
  type: tag(u8, F.StateMetadata, f),
  entries: metadataEntries,
});
export const tagFeature = struct<TagFeature>('NovaTagFeature', {
  type: tag(u8, F.Tag, f),
  tag: varBytes({ prefix: u8, min: 1, max: MAX_TAG_LENGTH }),
});
export const nativeTokenFeature = struct<NativeTokenFeature>('NovaNativeTokenFeature', {
  type: tag(u8, F.NativeToken, f),
  id: fixedBytes(FOUNDRY_ID_LENGTH),
  amount: u256,
});
const ed25519PublicKeyHashBlockIssuerKey = struct<Ed25519PublicKeyHashBlockIssuerKey>(
  'NovaEd25519PublicKeyHashBlockIssuerKey',
  {
    type: tag(u8, BlockIssuerKeyType.Ed25519PublicKeyHash, 'block issuer key'),
    pubKeyHash: fixedBytes(IDENTIFIER_LENGTH),
  },
);
export const blockIssuerKey: Codec<BlockIssuerKey> = union('block issuer key', u8, [
  ed25519PublicKeyHashBlockIssuerKey,
]);
export const blockIssuerFeature = struct<BlockIssuerFeature>('NovaBlockIssuerFeature', {
  type: tag(u8, F.BlockIssuer, f),
  expirySlot: u32,
  blockIssuerKeys: arrayOf(blockIssuerKey, { prefix: u8, min: MIN_BLOCK_ISSUER_KEYS, max: MAX_BLOCK_ISSUER_KEYS }),
});
export const stakingFeature = struct<StakingFeature>('NovaStakingFeature', {
  type: tag(u8, F.Staking, f),
  stakedAmount: u64,
  fixedCost: u64,
  startEpoch: u32,
  endEpoch: u32,
});

const REASONS: Record<number, string> = {
  [F.Sender]: 'a sender feature is allowed in basic, account and NFT outputs',
  [F.Issuer]: 'an issuer feature is only immutable, of an account, anchor or NFT output',
  [F.Metadata]: 'a metadata feature is not allowed here',
  [F.StateMetadata]: 'a state metadata feature is allowed only in anchor outputs',
  [F.Tag]: 'a tag feature is allowed in basic and NFT outputs',
  [F.NativeToken]: 'a native token feature is allowed in basic and foundry outputs',
  [F.BlockIssuer]: 'a block issuer feature is allowed only in account outputs',
  [F.Staking]: 'a staking feature is allowed only in account outputs',
};
/* @__NO_SIDE_EFFECTS__ */
// biome-ignore lint/suspicious/noExplicitAny: any list of feature codecs
const features = <V extends readonly any[]>(variants: V) => union(f, u8, variants, REASONS);

export type BasicFeature = SenderFeature | MetadataFeature | TagFeature | NativeTokenFeature;
export type AccountFeature = SenderFeature | MetadataFeature | BlockIssuerFeature | StakingFeature;
export type AnchorFeature = MetadataFeature | StateMetadataFeature;
export type FoundryFeature = MetadataFeature | NativeTokenFeature;
export type NftFeature = SenderFeature | MetadataFeature | TagFeature;
/** The immutable features of an account, anchor or NFT output. */
export type ImmutableFeature = IssuerFeature | MetadataFeature;

export const basicFeature: Codec<BasicFeature> = features([
  senderFeature,
  metadataFeature,
  tagFeature,
  nativeTokenFeature,
] as const);
export const accountFeature: Codec<AccountFeature> = features([
  senderFeature,
  metadataFeature,
  blockIssuerFeature,
  stakingFeature,
] as const);
export const anchorFeature: Codec<AnchorFeature> = features([metadataFeature, stateMetadataFeature] as const);
export const foundryFeature: Codec<FoundryFeature> = features([metadataFeature, nativeTokenFeature] as const);
export const nftFeature: Codec<NftFeature> = features([senderFeature, metadataFeature, tagFeature] as const);
export const immutableFeature: Codec<ImmutableFeature> = features([issuerFeature, metadataFeature] as const);
export const foundryImmutableFeature: Codec<MetadataFeature> = features([metadataFeature] as const);
