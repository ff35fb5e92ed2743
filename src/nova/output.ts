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
  union,
} from '../codec/index.js';
import { type TokenScheme, tokenScheme } from '../stardust/token-scheme.js';
import { type AccountAddress, accountAddress } from './address.js';
import {
  type AccountFeature,
  type AnchorFeature,
  accountFeature,
  anchorFeature,
  type BasicFeature,
  basicFeature,
  type FoundryFeature,
  foundryFeature,
  foundryImmutableFeature,
  type ImmutableFeature,
  immutableFeature,
  type MetadataFeature,
  type NftFeature,
  nftFeature,
} from './feature.js';
import { IDENTIFIER_LENGTH } from './limits.js';
import { generated } from './output.gen.js';
import { OutputType } from './type-codes.js';
import {
  type AddressUnlockCondition,
  type AnchorUnlockCondition,
  addressOnlyUnlockCondition,
  anchorUnlockCondition,
  type BasicUnlockCondition,
  basicUnlockCondition,
  foundryUnlockCondition,
  type ImmutableAccountAddressUnlockCondition,
} from './unlock-condition.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// The six Nova outputs: basic (TIP-41), account (TIP-42), anchor (TIP-54), foundry (TIP-44), NFT (TIP-43) and
// delegation (TIP-40). Each list's bounds are iota.go v4's array rules (api_v3.go); that the lists are sorted by type
// and hold each type once, and which conditions must occur, are syntactic rules.

export interface BasicOutput {
  type: typeof OutputType.Basic;
  amount: bigint;
  mana: bigint;
  unlockConditions: BasicUnlockCondition[];
  features: BasicFeature[];
}
export interface AccountOutput {
  type: typeof OutputType.Account;
  amount: bigint;
  mana: bigint;
  /** All zeros in the output that creates the account; its id is then BLAKE2b-256 of that output's id. */
  accountId: Uint8Array;
  foundryCounter: number;
  unlockConditions: AddressUnlockCondition[];
  features: AccountFeature[];
  immutableFeatures: ImmutableFeature[];
}
export interface AnchorOutput {
  type: typeof OutputType.Anchor;
  amount: bigint;
  mana: bigint;
  anchorId: Uint8Array;
  stateIndex: number;
  unlockConditions: AnchorUnlockCondition[];
  features: AnchorFeature[];
  immutableFeatures: ImmutableFeature[];
}
/** A foundry holds no mana. */
export interface FoundryOutput {
  type: typeof OutputType.Foundry;
  amount: bigint;
  serialNumber: number;
  tokenScheme: TokenScheme;
  unlockConditions: ImmutableAccountAddressUnlockCondition[];
  features: FoundryFeature[];
  immutableFeatures: MetadataFeature[];
}
export interface NftOutput {
  type: typeof OutputType.Nft;
  amount: bigint;
  mana: bigint;
  nftId: Uint8Array;
  unlockConditions: BasicUnlockCondition[];
  features: NftFeature[];
  immutableFeatures: ImmutableFeature[];
}
/** Delegates `delegatedAmount` to a validator for the epochs `startEpoch..endEpoch`; holds no mana. */
export interface DelegationOutput {
  type: typeof OutputType.Delegation;
  amount: bigint;
  delegatedAmount: bigint;
  delegationId: Uint8Array;
  validatorAddress: AccountAddress;
  startEpoch: number;
  endEpoch: number;
  unlockConditions: AddressUnlockCondition[];
}
export type Output = BasicOutput | AccountOutput | AnchorOutput | FoundryOutput | NftOutput | DelegationOutput;

const o = 'output';
const id = fixedBytes(IDENTIFIER_LENGTH);
/** A u8-counted list; an optional one (min 0) is omitted from JSON when empty. */
/* @__NO_SIDE_EFFECTS__ */
const list = <T>(elem: Codec<T>, min: number, max: number) =>
  arrayOf(elem, { prefix: u8, min, max, omitEmptyInJson: min === 0 });

export const basicOutput = struct<BasicOutput>('NovaBasicOutput', {
  type: tag(u8, OutputType.Basic, o),
  amount: u64,
  mana: u64,
  unlockConditions: list(basicUnlockCondition, 1, 4),
  features: list(basicFeature, 0, 4),
});
export const accountOutput = struct<AccountOutput>('NovaAccountOutput', {
  type: tag(u8, OutputType.Account, o),
  amount: u64,
  mana: u64,
  accountId: id,
  foundryCounter: u32,
  unlockConditions: list(addressOnlyUnlockCondition, 1, 1),
  features: list(accountFeature, 0, 4),
  immutableFeatures: list(immutableFeature, 0, 2),
});
export const anchorOutput = struct<AnchorOutput>('NovaAnchorOutput', {
  type: tag(u8, OutputType.Anchor, o),
  amount: u64,
  mana: u64,
  anchorId: id,
  stateIndex: u32,
  unlockConditions: list(anchorUnlockCondition, 2, 2),
  features: list(anchorFeature, 0, 2),
  immutableFeatures: list(immutableFeature, 0, 2),
});
export const foundryOutput = struct<FoundryOutput>('NovaFoundryOutput', {
  type: tag(u8, OutputType.Foundry, o),
  amount: u64,
  serialNumber: u32,
  tokenScheme,
  unlockConditions: list(foundryUnlockCondition, 1, 1),
  features: list(foundryFeature, 0, 2),
  immutableFeatures: list(foundryImmutableFeature, 0, 1),
});
export const nftOutput = struct<NftOutput>('NovaNftOutput', {
  type: tag(u8, OutputType.Nft, o),
  amount: u64,
  mana: u64,
  nftId: id,
  unlockConditions: list(basicUnlockCondition, 1, 4),
  features: list(nftFeature, 0, 3),
  immutableFeatures: list(immutableFeature, 0, 2),
});
export const delegationOutput = struct<DelegationOutput>('NovaDelegationOutput', {
  type: tag(u8, OutputType.Delegation, o),
  amount: u64,
  delegatedAmount: u64,
  delegationId: id,
  validatorAddress: accountAddress,
  startEpoch: u32,
  endEpoch: u32,
  unlockConditions: list(addressOnlyUnlockCondition, 1, 1),
});

export const output: Codec<Output> = union(o, u8, [
  basicOutput,
  accountOutput,
  anchorOutput,
  foundryOutput,
  nftOutput,
  delegationOutput,
]);
