import { type Codec, struct, tag, u32, u64, u8, union } from '../codec/index.js';
import { address, type Address } from './address.js';

/**
 * TIP-18 unlock conditions allowed in a Basic Output. State Controller (4), Governor (5) and Immutable Alias
 * (6) belong to alias/foundry outputs only, so in a Basic Output they are refused as unknown types.
 */
export const UnlockConditionType = { Address: 0, StorageDepositReturn: 1, Timelock: 2, Expiration: 3 } as const;

export interface AddressUnlockCondition {
  type: 0;
  address: Address;
}
export interface StorageDepositReturnUnlockCondition {
  type: 1;
  returnAddress: Address;
  amount: bigint;
}
export interface TimelockUnlockCondition {
  type: 2;
  unixTime: number;
}
export interface ExpirationUnlockCondition {
  type: 3;
  returnAddress: Address;
  unixTime: number;
}
export type UnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition;

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

export const unlockCondition: Codec<UnlockCondition> = union<UnlockCondition>(
  'unlock condition',
  u8,
  [
    addressUnlockCondition,
    storageDepositReturnUnlockCondition,
    timelockUnlockCondition,
    expirationUnlockCondition,
  ] as Codec<UnlockCondition>[],
  [0, 1, 2, 3],
);
