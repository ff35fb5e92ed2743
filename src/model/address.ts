import { type Codec, fixedBytes, struct, tag, u8, union } from '../codec/index.js';

/** TIP-18 addresses. JSON names the 32 bytes after the type: `pubKeyHash`, `aliasId`, `nftId`. */
export const AddressType = { Ed25519: 0, Alias: 8, Nft: 16 } as const;

/** BLAKE2b-256 of an Ed25519 public key. */
export interface Ed25519Address {
  type: 0;
  pubKeyHash: Uint8Array;
}
/** Alias ID: BLAKE2b-256 of the output ID that created the alias. */
export interface AliasAddress {
  type: 8;
  aliasId: Uint8Array;
}
export interface NftAddress {
  type: 16;
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

export const address: Codec<Address> = union<Address>(
  'address',
  u8,
  [ed25519Address, aliasAddress, nftAddress] as Codec<Address>[],
  [AddressType.Ed25519, AddressType.Alias, AddressType.Nft],
);
