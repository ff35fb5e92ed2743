import {
  arrayOf,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  tag,
  u8,
  u16,
  u32,
  u64,
  union,
  varBytes,
} from '../codec/index.js';
import {
  type AliasFeature,
  aliasFeature,
  type BasicFeature,
  feature,
  foundryFeature,
  type ImmutableFeature,
  immutableFeature,
  type MetadataFeature,
} from './feature.js';
import {
  ALIAS_ID_LENGTH,
  MAX_FEATURES,
  MAX_METADATA_LENGTH,
  MAX_NATIVE_TOKENS,
  MAX_UNLOCK_CONDITIONS,
  MIN_UNLOCK_CONDITIONS,
  NFT_ID_LENGTH,
} from './limits.js';
import { type NativeToken, nativeToken } from './native-token.js';
import { generated } from './output.gen.js';
import { type TokenScheme, tokenScheme } from './token-scheme.js';
import { OutputType } from './type-codes.js';
import {
  type AliasUnlockCondition,
  aliasUnlockCondition,
  type BasicUnlockCondition,
  foundryUnlockCondition,
  type ImmutableAliasAddressUnlockCondition,
  unlockCondition,
} from './unlock-condition.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-18 outputs (Basic, Alias, Foundry, NFT) and the TIP-34 Treasury output. Each kind lists the unlock conditions
// and features it may carry (SPEC A §13); the lists' own rules (sorted, required ones present) are syntactic.

/** TIP-18 Basic Output. Simplest form: 46 bytes. */
export interface BasicOutput {
  type: typeof OutputType.Basic;
  amount: bigint;
  nativeTokens: NativeToken[];
  unlockConditions: BasicUnlockCondition[];
  features: BasicFeature[];
}

/** TIP-18 Alias Output: a chain with a state (index, metadata, foundry counter), a state controller and a governor. */
export interface AliasOutput {
  type: typeof OutputType.Alias;
  amount: bigint;
  nativeTokens: NativeToken[];
  /** All zeros in the output that creates the alias; its id is then BLAKE2b-256 of that output's id. */
  aliasId: Uint8Array;
  stateIndex: number;
  stateMetadata: Uint8Array;
  foundryCounter: number;
  unlockConditions: AliasUnlockCondition[];
  features: AliasFeature[];
  immutableFeatures: ImmutableFeature[];
}

/** TIP-18 Foundry Output: mints and melts the native token whose id is its foundry id. */
export interface FoundryOutput {
  type: typeof OutputType.Foundry;
  amount: bigint;
  nativeTokens: NativeToken[];
  serialNumber: number;
  tokenScheme: TokenScheme;
  unlockConditions: ImmutableAliasAddressUnlockCondition[];
  features: MetadataFeature[];
  immutableFeatures: MetadataFeature[];
}

/** TIP-18 NFT Output: a chain with an immutable id and immutable features, owned like a basic output. */
export interface NftOutput {
  type: typeof OutputType.Nft;
  amount: bigint;
  nativeTokens: NativeToken[];
  /** All zeros in the output that mints the NFT; its id is then BLAKE2b-256 of that output's id. */
  nftId: Uint8Array;
  unlockConditions: BasicUnlockCondition[];
  features: BasicFeature[];
  immutableFeatures: ImmutableFeature[];
}

/** An output a transaction may create or consume. */
export type Output = BasicOutput | AliasOutput | FoundryOutput | NftOutput;

/** TIP-34 Treasury Output: the treasury's balance, only inside a milestone receipt's treasury transaction. */
export interface TreasuryOutput {
  type: typeof OutputType.Treasury;
  amount: bigint;
}

export const nativeTokens = arrayOf(nativeToken, { prefix: u8, min: 0, max: MAX_NATIVE_TOKENS, omitEmptyInJson: true });
export const unlockConditions = arrayOf(unlockCondition, {
  prefix: u8,
  min: MIN_UNLOCK_CONDITIONS,
  max: MAX_UNLOCK_CONDITIONS,
});
export const features = arrayOf(feature, { prefix: u8, min: 0, max: MAX_FEATURES, omitEmptyInJson: true });
const immutableFeatures = arrayOf(immutableFeature, { prefix: u8, min: 0, max: 2, omitEmptyInJson: true });

export const basicOutput = struct<BasicOutput>('BasicOutput', {
  type: tag(u8, OutputType.Basic, 'output'),
  amount: u64,
  nativeTokens,
  unlockConditions,
  features,
});

export const aliasOutput = struct<AliasOutput>('AliasOutput', {
  type: tag(u8, OutputType.Alias, 'output'),
  amount: u64,
  nativeTokens,
  aliasId: fixedBytes(ALIAS_ID_LENGTH),
  stateIndex: u32,
  stateMetadata: varBytes({ prefix: u16, max: MAX_METADATA_LENGTH, omitEmptyInJson: true }),
  foundryCounter: u32,
  unlockConditions: arrayOf(aliasUnlockCondition, { prefix: u8, min: 2, max: 2 }),
  features: arrayOf(aliasFeature, { prefix: u8, min: 0, max: 2, omitEmptyInJson: true }),
  immutableFeatures,
});

export const foundryOutput = struct<FoundryOutput>('FoundryOutput', {
  type: tag(u8, OutputType.Foundry, 'output'),
  amount: u64,
  nativeTokens,
  serialNumber: u32,
  tokenScheme,
  unlockConditions: arrayOf(foundryUnlockCondition, { prefix: u8, min: 1, max: 1 }),
  features: arrayOf(foundryFeature, { prefix: u8, min: 0, max: 1, omitEmptyInJson: true }),
  immutableFeatures: arrayOf(foundryFeature, { prefix: u8, min: 0, max: 1, omitEmptyInJson: true }),
});

export const nftOutput = struct<NftOutput>('NftOutput', {
  type: tag(u8, OutputType.Nft, 'output'),
  amount: u64,
  nativeTokens,
  nftId: fixedBytes(NFT_ID_LENGTH),
  unlockConditions,
  features,
  immutableFeatures,
});

export const treasuryOutput = struct<TreasuryOutput>('TreasuryOutput', {
  type: tag(u8, OutputType.Treasury, 'output'),
  amount: u64,
});

/** The outputs of a transaction. */
export const output: Codec<Output> = union('output', u8, [basicOutput, aliasOutput, foundryOutput, nftOutput], {
  [OutputType.Treasury]: 'a treasury output exists only in a milestone receipt',
});
