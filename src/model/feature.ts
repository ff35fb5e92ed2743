import { type Codec, structsOf, tag, u8, u16, union, varBytes } from '../codec/index.js';
import { type Address, address } from './address.js';
import { generated } from './feature.gen.js';
import { MAX_METADATA_LENGTH, MAX_TAG_LENGTH } from './limits.js';
import { FeatureType } from './type-codes.js';

const struct = structsOf(generated);

/**
 * TIP-18 features allowed in a Basic Output. The Issuer feature (1) is an immutable feature of alias/NFT
 * outputs only, so in a Basic Output it is an unknown type.
 */

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
export type Feature = SenderFeature | MetadataFeature | TagFeature;

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

export const feature: Codec<Feature> = union('feature', u8, [senderFeature, metadataFeature, tagFeature]);
