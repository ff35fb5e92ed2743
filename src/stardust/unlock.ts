import { type Codec, type Fields, generatedStruct, tag, u8, u16, union } from '../codec/index.js';
import { type Signature, signature } from './signature.js';
import { UnlockType } from './type-codes.js';
import { generated } from './unlock.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-20 and TIP-18 unlocks.

export interface SignatureUnlock {
  type: typeof UnlockType.Signature;
  signature: Signature;
}
/**
 * Points back to an earlier Signature Unlock. The wire allows any u16; "reference < own index ≤ 127" is a
 * transaction rule checked by `validateBlock` (iota.js and iota.go decode 23456; the SDK refuses it at decode).
 */
export interface ReferenceUnlock {
  type: typeof UnlockType.Reference;
  reference: number;
}
/** Unlocks an input owned by an alias address: points to the unlock of the input that is that alias (TIP-18). */
export interface AliasUnlock {
  type: typeof UnlockType.Alias;
  reference: number;
}
/** Unlocks an input owned by an NFT address: points to the unlock of the input that is that NFT (TIP-18). */
export interface NftUnlock {
  type: typeof UnlockType.Nft;
  reference: number;
}
export type Unlock = SignatureUnlock | ReferenceUnlock | AliasUnlock | NftUnlock;

export const signatureUnlock = struct<SignatureUnlock>('SignatureUnlock', {
  type: tag(u8, UnlockType.Signature, 'unlock'),
  signature,
});
export const referenceUnlock = struct<ReferenceUnlock>('ReferenceUnlock', {
  type: tag(u8, UnlockType.Reference, 'unlock'),
  reference: u16,
});

export const aliasUnlock = struct<AliasUnlock>('AliasUnlock', {
  type: tag(u8, UnlockType.Alias, 'unlock'),
  reference: u16,
});
export const nftUnlock = struct<NftUnlock>('NftUnlock', { type: tag(u8, UnlockType.Nft, 'unlock'), reference: u16 });

export const unlock: Codec<Unlock> = union('unlock', u8, [signatureUnlock, referenceUnlock, aliasUnlock, nftUnlock]);
