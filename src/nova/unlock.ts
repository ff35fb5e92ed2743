import { arrayOf, type Codec, type Fields, generatedStruct, tag, u8, u16, union } from '../codec/index.js';
import { type Signature, signature } from '../stardust/signature.js';
import { MAX_MULTI_UNLOCKS, MIN_MULTI_UNLOCKS } from './limits.js';
import { UnlockType } from './type-codes.js';
import { generated } from './unlock.gen.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// TIP-45 unlocks, with TIP-52's multi and empty unlocks. A multi unlock holds the others but not itself, so nesting
// stops at two levels.

export interface SignatureUnlock {
  type: typeof UnlockType.Signature;
  signature: Signature;
}
/** Points back to the signature unlock of an earlier input. */
export interface ReferenceUnlock {
  type: typeof UnlockType.Reference;
  reference: number;
}
/** Unlocks an input owned by an account address: points to the unlock of that account's input. */
export interface AccountUnlock {
  type: typeof UnlockType.Account;
  reference: number;
}
export interface AnchorUnlock {
  type: typeof UnlockType.Anchor;
  reference: number;
}
export interface NftUnlock {
  type: typeof UnlockType.Nft;
  reference: number;
}
/** A multi address's member that does not sign. */
export interface EmptyUnlock {
  type: typeof UnlockType.Empty;
}
export type InnerUnlock = SignatureUnlock | ReferenceUnlock | AccountUnlock | AnchorUnlock | NftUnlock | EmptyUnlock;
/** Unlocks an input owned by a multi address: one unlock per member, in the order of its addresses. */
export interface MultiUnlock {
  type: typeof UnlockType.Multi;
  unlocks: InnerUnlock[];
}
export type Unlock = InnerUnlock | MultiUnlock;

const u = 'unlock';
export const signatureUnlock = struct<SignatureUnlock>('NovaSignatureUnlock', {
  type: tag(u8, UnlockType.Signature, u),
  signature,
});
export const referenceUnlock = struct<ReferenceUnlock>('NovaReferenceUnlock', {
  type: tag(u8, UnlockType.Reference, u),
  reference: u16,
});
export const accountUnlock = struct<AccountUnlock>('NovaAccountUnlock', {
  type: tag(u8, UnlockType.Account, u),
  reference: u16,
});
export const anchorUnlock = struct<AnchorUnlock>('NovaAnchorUnlock', {
  type: tag(u8, UnlockType.Anchor, u),
  reference: u16,
});
export const nftUnlock = struct<NftUnlock>('NovaNftUnlock', {
  type: tag(u8, UnlockType.Nft, u),
  reference: u16,
});
export const emptyUnlock = struct<EmptyUnlock>('NovaEmptyUnlock', {
  type: tag(u8, UnlockType.Empty, u),
});

const inner = [signatureUnlock, referenceUnlock, accountUnlock, anchorUnlock, nftUnlock, emptyUnlock] as const;
const innerUnlock: Codec<InnerUnlock> = union(u, u8, inner, {
  [UnlockType.Multi]: 'a multi unlock cannot hold a multi unlock',
});
export const multiUnlock = struct<MultiUnlock>('NovaMultiUnlock', {
  type: tag(u8, UnlockType.Multi, u),
  unlocks: arrayOf(innerUnlock, { prefix: u8, min: MIN_MULTI_UNLOCKS, max: MAX_MULTI_UNLOCKS }),
});
// Listed, not spread from `inner`: a spread at the top of a module is a call a page's bundler must keep.
export const unlock: Codec<Unlock> = union(u, u8, [
  signatureUnlock,
  referenceUnlock,
  accountUnlock,
  anchorUnlock,
  nftUnlock,
  emptyUnlock,
  multiUnlock,
]);
