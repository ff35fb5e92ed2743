import { type Codec, type Fields, generatedStruct, tag, u8, u32, u64, union } from '../codec/index.js';
import { type Address, type AliasAddress, address, aliasAddress } from './address.js';
import { AddressType, UnlockConditionType } from './type-codes.js';
import { generated } from './unlock-condition.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-18 unlock conditions. Which ones an output may carry depends on its kind (SPEC A §13): each output kind has its
// own union below, and a condition of another kind's is TYPE_NOT_ALLOWED there.

export interface AddressUnlockCondition {
  type: typeof UnlockConditionType.Address;
  address: Address;
}
export interface StorageDepositReturnUnlockCondition {
  type: typeof UnlockConditionType.StorageDepositReturn;
  returnAddress: Address;
  amount: bigint;
}
export interface TimelockUnlockCondition {
  type: typeof UnlockConditionType.Timelock;
  unixTime: number;
}
export interface ExpirationUnlockCondition {
  type: typeof UnlockConditionType.Expiration;
  returnAddress: Address;
  unixTime: number;
}
/** The Address of an alias's state controller: it unlocks state transitions. */
export interface StateControllerAddressUnlockCondition {
  type: typeof UnlockConditionType.StateControllerAddress;
  address: Address;
}
/** The Address of an alias's governor: it unlocks governance transitions. */
export interface GovernorAddressUnlockCondition {
  type: typeof UnlockConditionType.GovernorAddress;
  address: Address;
}
/** The alias that controls a foundry: always an Alias Address. */
export interface ImmutableAliasAddressUnlockCondition {
  type: typeof UnlockConditionType.ImmutableAliasAddress;
  address: AliasAddress;
}
export type UnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition
  | StateControllerAddressUnlockCondition
  | GovernorAddressUnlockCondition
  | ImmutableAliasAddressUnlockCondition;

/* @__NO_SIDE_EFFECTS__ */
const ucTag = <V extends number>(v: V) => tag(u8, v, 'unlock condition');

export const addressUnlockCondition = struct<AddressUnlockCondition>('AddressUnlockCondition', {
  type: ucTag(UnlockConditionType.Address),
  address,
});
export const storageDepositReturnUnlockCondition = struct<StorageDepositReturnUnlockCondition>(
  'StorageDepositReturnUnlockCondition',
  { type: ucTag(UnlockConditionType.StorageDepositReturn), returnAddress: address, amount: u64 },
);
export const timelockUnlockCondition = struct<TimelockUnlockCondition>('TimelockUnlockCondition', {
  type: ucTag(UnlockConditionType.Timelock),
  unixTime: u32,
});
export const expirationUnlockCondition = struct<ExpirationUnlockCondition>('ExpirationUnlockCondition', {
  type: ucTag(UnlockConditionType.Expiration),
  returnAddress: address,
  unixTime: u32,
});

export const stateControllerAddressUnlockCondition = struct<StateControllerAddressUnlockCondition>(
  'StateControllerAddressUnlockCondition',
  { type: ucTag(UnlockConditionType.StateControllerAddress), address },
);
export const governorAddressUnlockCondition = struct<GovernorAddressUnlockCondition>('GovernorAddressUnlockCondition', {
  type: ucTag(UnlockConditionType.GovernorAddress),
  address,
});
export const immutableAliasAddressUnlockCondition = struct<ImmutableAliasAddressUnlockCondition>(
  'ImmutableAliasAddressUnlockCondition',
  {
    type: ucTag(UnlockConditionType.ImmutableAliasAddress),
    address: union('alias address', u8, [aliasAddress], {
      [AddressType.Ed25519]: 'a foundry is controlled by an alias',
      [AddressType.Nft]: 'a foundry is controlled by an alias',
    }),
  },
);

const ALIAS_ONLY = 'alias outputs only';
const FOUNDRY_ONLY = 'foundry outputs only';
const NOT_IN_ALIAS = 'an alias is unlocked by its state controller and governor';

/** The conditions of Basic and NFT outputs: Address (required), Storage Deposit Return, Timelock, Expiration. */
export type BasicUnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition;
export type AliasUnlockCondition = StateControllerAddressUnlockCondition | GovernorAddressUnlockCondition;

export const unlockCondition: Codec<BasicUnlockCondition> = union(
  'unlock condition',
  u8,
  [addressUnlockCondition, storageDepositReturnUnlockCondition, timelockUnlockCondition, expirationUnlockCondition],
  {
    [UnlockConditionType.StateControllerAddress]: ALIAS_ONLY,
    [UnlockConditionType.GovernorAddress]: ALIAS_ONLY,
    [UnlockConditionType.ImmutableAliasAddress]: FOUNDRY_ONLY,
  },
);

/** The conditions of an Alias output: State Controller Address and Governor Address, both required. */
export const aliasUnlockCondition: Codec<AliasUnlockCondition> = union(
  'alias unlock condition',
  u8,
  [stateControllerAddressUnlockCondition, governorAddressUnlockCondition],
  {
    [UnlockConditionType.Address]: NOT_IN_ALIAS,
    [UnlockConditionType.StorageDepositReturn]: NOT_IN_ALIAS,
    [UnlockConditionType.Timelock]: NOT_IN_ALIAS,
    [UnlockConditionType.Expiration]: NOT_IN_ALIAS,
    [UnlockConditionType.ImmutableAliasAddress]: FOUNDRY_ONLY,
  },
);

/** The condition of a Foundry output: its Immutable Alias Address, required. */
export const foundryUnlockCondition: Codec<ImmutableAliasAddressUnlockCondition> = union(
  'foundry unlock condition',
  u8,
  [immutableAliasAddressUnlockCondition],
  Object.fromEntries(
    [0, 1, 2, 3, 4, 5].map((t) => [t, 'a foundry is unlocked only by its alias (Immutable Alias Address)']),
  ),
);

/** Any unlock condition the protocol has, wherever it may stand (for tools that read conditions on their own). */
export const anyUnlockCondition: Codec<UnlockCondition> = union('unlock condition', u8, [
  addressUnlockCondition,
  storageDepositReturnUnlockCondition,
  timelockUnlockCondition,
  expirationUnlockCondition,
  stateControllerAddressUnlockCondition,
  governorAddressUnlockCondition,
  immutableAliasAddressUnlockCondition,
]);
