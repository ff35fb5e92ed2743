import { type Codec, type Fields, fixedBytes, generatedStruct, tag, u8, union } from '../codec/index.js';
import { generated } from './address.gen.js';
import { AddressType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-18 addresses. JSON names the 32 bytes after the type: `pubKeyHash`, `aliasId`, `nftId`.

/** BLAKE2b-256 of an Ed25519 public key. */
export interface Ed25519Address {
  type: typeof AddressType.Ed25519;
  pubKeyHash: Uint8Array;
}
/** Alias ID: BLAKE2b-256 of the output ID that created the alias. */
export interface AliasAddress {
  type: typeof AddressType.Alias;
  aliasId: Uint8Array;
}
export interface NftAddress {
  type: typeof AddressType.Nft;
  nftId: Uint8Array;
}
export type Address = Ed25519Address | AliasAddress | NftAddress;

export const ed25519Address = struct<Ed25519Address>('Ed25519Address', {
  type: tag(u8, AddressType.Ed25519, 'address'),
  pubKeyHash: fixedBytes(32),
});
export const aliasAddress = struct<AliasAddress>('AliasAddress', {
  type: tag(u8, AddressType.Alias, 'address'),
  aliasId: fixedBytes(32),
});
export const nftAddress = struct<NftAddress>('NftAddress', {
  type: tag(u8, AddressType.Nft, 'address'),
  nftId: fixedBytes(32),
});

export const address: Codec<Address> = union('address', u8, [ed25519Address, aliasAddress, nftAddress]);
