import { type Codec, type Fields, fixedBytes, generatedStruct, tag, u8, union } from '../codec/index.js';
import { ED25519_PUBLIC_KEY_LENGTH, ED25519_SIGNATURE_LENGTH } from './limits.js';
import { generated } from './signature.gen.js';
import { SignatureType } from './type-codes.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

/** TIP-20 Ed25519 Signature: 97 bytes on the wire. */
export interface Ed25519Signature {
  type: typeof SignatureType.Ed25519;
  publicKey: Uint8Array;
  signature: Uint8Array;
}
export type Signature = Ed25519Signature;

export const ed25519Signature = struct<Ed25519Signature>('Ed25519Signature', {
  type: tag(u8, SignatureType.Ed25519, 'signature'),
  publicKey: fixedBytes(ED25519_PUBLIC_KEY_LENGTH),
  signature: fixedBytes(ED25519_SIGNATURE_LENGTH),
});

export const signature: Codec<Signature> = union('signature', u8, [ed25519Signature]);
