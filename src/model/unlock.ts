import { type Codec, structsOf, tag, u8, u16, union } from '../codec/index.js';
import { type Signature, signature } from './signature.js';
import { UnlockType } from './type-codes.js';
import { generated } from './unlock.gen.js';

const struct = structsOf(generated);

// TIP-20 unlocks. Alias (2) and NFT (3) unlocks are valid Stardust but not implemented yet.

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
export type Unlock = SignatureUnlock | ReferenceUnlock;

export const signatureUnlock = struct<SignatureUnlock>('SignatureUnlock', {
  type: tag(u8, UnlockType.Signature, 'unlock'),
  signature,
});
export const referenceUnlock = struct<ReferenceUnlock>('ReferenceUnlock', {
  type: tag(u8, UnlockType.Reference, 'unlock'),
  reference: u16,
});

export const unlock: Codec<Unlock> = union('unlock', u8, [signatureUnlock, referenceUnlock], {
  [UnlockType.Alias]: 'Alias Unlock',
  [UnlockType.Nft]: 'NFT Unlock',
});
