import { type Codec, structsOf, tag, u8, u32, u64, union } from '../codec/index.js';
import { type Address, address } from './address.js';
import { UnlockConditionType } from './type-codes.js';
import { generated } from './unlock-condition.gen.js';

const struct = structsOf(generated);

/**
 * TIP-18 unlock conditions allowed in a Basic Output. State Controller (4), Governor (5) and Immutable Alias
 * (6) belong to alias/foundry outputs only, so in a Basic Output they are refused as unknown types.
 */

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

export const unlockCondition: Codec<UnlockCondition> = union('unlock condition', u8, [
  addressUnlockCondition,
  storageDepositReturnUnlockCondition,
  timelockUnlockCondition,
  expirationUnlockCondition,
]);
