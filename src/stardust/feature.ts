import { type Codec, type Fields, generatedStruct, tag, u8, u16, union, varBytes } from '../codec/index.js';
import { type Address, address } from './address.js';
import { generated } from './feature.gen.js';
import { MAX_METADATA_LENGTH, MAX_TAG_LENGTH } from './limits.js';
import { FeatureType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-18 features. Which ones an output may carry, as features or as immutable features, depends on its kind (SPEC A
// §13): one union per list below; a feature of another list is TYPE_NOT_ALLOWED there.

export interface SenderFeature {
  type: typeof FeatureType.Sender;
  address: Address;
}
/** 1..8192 bytes (empty is invalid, unlike tagged data). */
export interface MetadataFeature {
  type: typeof FeatureType.Metadata;
  data: Uint8Array;
}
/** 1..64 bytes (empty is invalid, unlike the tagged-data tag). */
export interface TagFeature {
  type: typeof FeatureType.Tag;
  tag: Uint8Array;
}
/** The address that minted an alias or NFT: an immutable feature, checked unlocked when the chain is created. */
export interface IssuerFeature {
  type: typeof FeatureType.Issuer;
  address: Address;
}
export type Feature = SenderFeature | IssuerFeature | MetadataFeature | TagFeature;

export const senderFeature = struct<SenderFeature>('SenderFeature', {
  type: tag(u8, FeatureType.Sender, 'feature'),
  address,
});
export const metadataFeature = struct<MetadataFeature>('MetadataFeature', {
  type: tag(u8, FeatureType.Metadata, 'feature'),
  data: varBytes({ prefix: u16, min: 1, max: MAX_METADATA_LENGTH }),
});
export const tagFeature = struct<TagFeature>('TagFeature', {
  type: tag(u8, FeatureType.Tag, 'feature'),
  tag: varBytes({ prefix: u8, min: 1, max: MAX_TAG_LENGTH }),
});

export const issuerFeature = struct<IssuerFeature>('IssuerFeature', {
  type: tag(u8, FeatureType.Issuer, 'feature'),
  address,
});

const IMMUTABLE = 'the Issuer feature is an immutable feature';
const MUTABLE_ONLY = 'only Issuer and Metadata are immutable features';

export type BasicFeature = SenderFeature | MetadataFeature | TagFeature;
export type AliasFeature = SenderFeature | MetadataFeature;
export type ImmutableFeature = IssuerFeature | MetadataFeature;

/** Features of Basic and NFT outputs: Sender, Metadata, Tag. */
export const feature: Codec<BasicFeature> = union('feature', u8, [senderFeature, metadataFeature, tagFeature], {
  [FeatureType.Issuer]: IMMUTABLE,
});
/** Features of an Alias output: Sender, Metadata. */
export const aliasFeature: Codec<AliasFeature> = union('feature', u8, [senderFeature, metadataFeature], {
  [FeatureType.Issuer]: IMMUTABLE,
  [FeatureType.Tag]: 'an alias has no Tag feature',
});
/** Features of a Foundry output, mutable or immutable: Metadata. */
export const foundryFeature: Codec<MetadataFeature> = union('feature', u8, [metadataFeature], {
  [FeatureType.Sender]: 'a foundry has only a Metadata feature',
  [FeatureType.Issuer]: 'a foundry has only a Metadata feature',
  [FeatureType.Tag]: 'a foundry has only a Metadata feature',
});
/** Immutable features of Alias and NFT outputs: Issuer, Metadata. */
export const immutableFeature: Codec<ImmutableFeature> = union(
  'immutable feature',
  u8,
  [issuerFeature, metadataFeature],
  {
    [FeatureType.Sender]: MUTABLE_ONLY,
    [FeatureType.Tag]: MUTABLE_ONLY,
  },
);

/** Any feature the protocol has, mutable or immutable (for tools that read features on their own). */
export const anyFeature: Codec<Feature> = union('feature', u8, [
  senderFeature,
  issuerFeature,
  metadataFeature,
  tagFeature,
]);
