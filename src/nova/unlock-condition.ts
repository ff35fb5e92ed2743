import { type Codec, type Fields, generatedStruct, tag, u8, u32, u64, union } from '../codec/index.js';
import {
  type AccountAddress,
  type Address,
  accountAddress,
  address,
  explicitAddress,
  type ImplicitAccountCreationAddress,
} from './address.js';
import { UnlockConditionType as UC } from './type-codes.js';
import { generated } from './unlock-condition.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-38 unlock conditions. Which an output may carry depends on its kind: one union per kind below. Slots are u32
// slot indexes (Stardust had milestone indexes and Unix times).

/** Any address but an implicit account creation address (TIP-42 allows those only as a basic output's owner). */
export type ExplicitAddress = Exclude<Address, ImplicitAccountCreationAddress>;

export interface AddressUnlockCondition {
  type: typeof UC.Address;
  address: Address;
}
export interface StorageDepositReturnUnlockCondition {
  type: typeof UC.StorageDepositReturn;
  returnAddress: ExplicitAddress;
  amount: bigint;
}
/** Locked until this slot. */
export interface TimelockUnlockCondition {
  type: typeof UC.Timelock;
  slot: number;
}
/** From this slot on, only the return address can unlock the output. */
export interface ExpirationUnlockCondition {
  type: typeof UC.Expiration;
  returnAddress: ExplicitAddress;
  slot: number;
}
export interface StateControllerAddressUnlockCondition {
  type: typeof UC.StateControllerAddress;
  address: ExplicitAddress;
}
export interface GovernorAddressUnlockCondition {
  type: typeof UC.GovernorAddress;
  address: ExplicitAddress;
}
export interface ImmutableAccountAddressUnlockCondition {
  type: typeof UC.ImmutableAccountAddress;
  address: AccountAddress;
}
export type UnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition
  | StateControllerAddressUnlockCondition
  | GovernorAddressUnlockCondition
  | ImmutableAccountAddressUnlockCondition;
/** The conditions of a basic or NFT output. */
export type BasicUnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition;
export type AnchorUnlockCondition = StateControllerAddressUnlockCondition | GovernorAddressUnlockCondition;

const uc = 'unlock condition';
export const addressUnlockCondition = struct<AddressUnlockCondition>('NovaAddressUnlockCondition', {
  type: tag(u8, UC.Address, uc),
  address,
});
export const storageDepositReturnUnlockCondition = struct<StorageDepositReturnUnlockCondition>(
  'NovaStorageDepositReturnUnlockCondition',
  { type: tag(u8, UC.StorageDepositReturn, uc), returnAddress: explicitAddress, amount: u64 },
);
export const timelockUnlockCondition = struct<TimelockUnlockCondition>('NovaTimelockUnlockCondition', {
  type: tag(u8, UC.Timelock, uc),
  slot: u32,
});
export const expirationUnlockCondition = struct<ExpirationUnlockCondition>('NovaExpirationUnlockCondition', {
  type: tag(u8, UC.Expiration, uc),
  returnAddress: explicitAddress,
  slot: u32,
});
export const stateControllerAddressUnlockCondition = struct<StateControllerAddressUnlockCondition>(
  'NovaStateControllerAddressUnlockCondition',
  { type: tag(u8, UC.StateControllerAddress, uc), address: explicitAddress },
);
export const governorAddressUnlockCondition = struct<GovernorAddressUnlockCondition>(
  'NovaGovernorAddressUnlockCondition',
  { type: tag(u8, UC.GovernorAddress, uc), address: explicitAddress },
);
export const immutableAccountAddressUnlockCondition = struct<ImmutableAccountAddressUnlockCondition>(
  'NovaImmutableAccountAddressUnlockCondition',
  { type: tag(u8, UC.ImmutableAccountAddress, uc), address: accountAddress },
);

/* @__NO_SIDE_EFFECTS__ */
const elsewhere = (kinds: string) => `allowed only in ${kinds}`;
const REASONS: Record<number, string> = {
  [UC.Address]: elsewhere('basic, account, NFT and delegation outputs'),
  [UC.StorageDepositReturn]: elsewhere('basic and NFT outputs'),
  [UC.Timelock]: elsewhere('basic and NFT outputs'),
  [UC.Expiration]: elsewhere('basic and NFT outputs'),
  [UC.StateControllerAddress]: elsewhere('anchor outputs'),
  [UC.GovernorAddress]: elsewhere('anchor outputs'),
  [UC.ImmutableAccountAddress]: elsewhere('foundry outputs'),
};

/** The union of `variants`, refusing the protocol's other unlock conditions as not allowed here. */
/* @__NO_SIDE_EFFECTS__ */
// biome-ignore lint/suspicious/noExplicitAny: any list of unlock condition codecs
function conditions<V extends readonly any[]>(variants: V) {
  return union(uc, u8, variants, REASONS);
}

export const basicUnlockCondition: Codec<BasicUnlockCondition> = conditions([
  addressUnlockCondition,
  storageDepositReturnUnlockCondition,
  timelockUnlockCondition,
  expirationUnlockCondition,
] as const);
export const addressOnlyUnlockCondition: Codec<AddressUnlockCondition> = conditions([addressUnlockCondition] as const);
export const anchorUnlockCondition: Codec<AnchorUnlockCondition> = conditions([
  stateControllerAddressUnlockCondition,
  governorAddressUnlockCondition,
] as const);
export const foundryUnlockCondition: Codec<ImmutableAccountAddressUnlockCondition> = conditions([
  immutableAccountAddressUnlockCondition,
] as const);
