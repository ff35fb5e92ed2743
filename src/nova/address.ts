import {
  arrayOf,
  type Codec,
  type Fields,
  fixedBytes,
  generatedStruct,
  tag,
  u8,
  u16,
  union,
  varBytes,
} from '../codec/index.js';
import { generated } from './address.gen.js';
import { IDENTIFIER_LENGTH, MAX_ADDRESS_CAPABILITIES, MAX_MULTI_ADDRESSES, MIN_MULTI_ADDRESSES } from './limits.js';
import { AddressType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-38 addresses, TIP-42's implicit account creation address, TIP-52's multi and TIP-50's restricted address.
// Nesting is bounded by the unions: a multi address holds only the four simple kinds, a restricted address a simple
// kind or a multi address, so no address is deeper than three levels.

export interface Ed25519Address {
  type: typeof AddressType.Ed25519;
  pubKeyHash: Uint8Array;
}
export interface AccountAddress {
  type: typeof AddressType.Account;
  accountId: Uint8Array;
}
export interface NftAddress {
  type: typeof AddressType.Nft;
  nftId: Uint8Array;
}
export interface AnchorAddress {
  type: typeof AddressType.Anchor;
  anchorId: Uint8Array;
}
/** TIP-42: sending funds here creates an account (a basic output owned by it becomes one when transitioned). */
export interface ImplicitAccountCreationAddress {
  type: typeof AddressType.ImplicitAccountCreation;
  pubKeyHash: Uint8Array;
}
export type SimpleAddress = Ed25519Address | AccountAddress | NftAddress | AnchorAddress;
export interface WeightedAddress {
  address: SimpleAddress;
  /** 1..255 (0 is a syntactic error). */
  weight: number;
}
/** TIP-52: unlocked when the weights of the unlocked addresses reach the threshold. */
export interface MultiAddress {
  type: typeof AddressType.Multi;
  addresses: WeightedAddress[];
  threshold: number;
}
/** TIP-50: an address with the capabilities the outputs it receives may use (a bitmask, no trailing zero byte). */
export interface RestrictedAddress {
  type: typeof AddressType.Restricted;
  address: SimpleAddress | MultiAddress;
  allowedCapabilities: Uint8Array;
}
export type Address = SimpleAddress | ImplicitAccountCreationAddress | MultiAddress | RestrictedAddress;

const id = fixedBytes(IDENTIFIER_LENGTH);
export const ed25519Address = struct<Ed25519Address>('NovaEd25519Address', {
  type: tag(u8, AddressType.Ed25519, 'address'),
  pubKeyHash: id,
});
export const accountAddress = struct<AccountAddress>('NovaAccountAddress', {
  type: tag(u8, AddressType.Account, 'address'),
  accountId: id,
});
export const nftAddress = struct<NftAddress>('NovaNftAddress', {
  type: tag(u8, AddressType.Nft, 'address'),
  nftId: id,
});
export const anchorAddress = struct<AnchorAddress>('NovaAnchorAddress', {
  type: tag(u8, AddressType.Anchor, 'address'),
  anchorId: id,
});
export const implicitAccountCreationAddress = struct<ImplicitAccountCreationAddress>(
  'NovaImplicitAccountCreationAddress',
  { type: tag(u8, AddressType.ImplicitAccountCreation, 'address'), pubKeyHash: id },
);

const NOT_IN_MULTI = {
  [AddressType.ImplicitAccountCreation]: 'an implicit account creation address cannot be part of a multi address',
  [AddressType.Multi]: 'a multi address cannot hold a multi address',
  [AddressType.Restricted]: 'a multi address cannot hold a restricted address',
};
const simpleAddress: Codec<SimpleAddress> = union(
  'address',
  u8,
  [ed25519Address, accountAddress, nftAddress, anchorAddress],
  NOT_IN_MULTI,
);
const weightedAddress = struct<WeightedAddress>('NovaWeightedAddress', { address: simpleAddress, weight: u8 });
export const multiAddress = struct<MultiAddress>('NovaMultiAddress', {
  type: tag(u8, AddressType.Multi, 'address'),
  addresses: arrayOf(weightedAddress, { prefix: u8, min: MIN_MULTI_ADDRESSES, max: MAX_MULTI_ADDRESSES }),
  threshold: u16,
});

const restrictable: Codec<SimpleAddress | MultiAddress> = union(
  'address',
  u8,
  [ed25519Address, accountAddress, nftAddress, anchorAddress, multiAddress],
  {
    [AddressType.ImplicitAccountCreation]: 'a restricted address cannot hold an implicit account creation address',
    [AddressType.Restricted]: 'a restricted address cannot hold a restricted address',
  },
);
export const restrictedAddress = struct<RestrictedAddress>('NovaRestrictedAddress', {
  type: tag(u8, AddressType.Restricted, 'address'),
  address: restrictable,
  allowedCapabilities: varBytes({ prefix: u8, max: MAX_ADDRESS_CAPABILITIES, omitEmptyInJson: true }),
});

const ALL = [
  ed25519Address,
  accountAddress,
  nftAddress,
  anchorAddress,
  implicitAccountCreationAddress,
  multiAddress,
  restrictedAddress,
] as const;

/** Any address: an output's owner, a sender or issuer feature. */
export const address: Codec<Address> = union('address', u8, ALL);

/** An address that may not be an implicit account creation address (return addresses, anchors' controllers). */
export const explicitAddress: Codec<Exclude<Address, ImplicitAccountCreationAddress>> = union(
  'address',
  u8,
  [ed25519Address, accountAddress, nftAddress, anchorAddress, multiAddress, restrictedAddress],
  { [AddressType.ImplicitAccountCreation]: 'an implicit account creation address cannot be used here' },
);
