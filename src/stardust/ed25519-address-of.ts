import { assertBytes } from '../codec/index.js';
import { blake2b256 } from '../crypto/index.js';
import type { Ed25519Address } from './address.js';
import { AddressType } from './type-codes.js';

/** The Ed25519 address of a public key: BLAKE2b-256 of the key (TIP-18). @throws TypeError, RangeError */
export function ed25519AddressOf(publicKey: Uint8Array): Ed25519Address {
  assertBytes(publicKey, 'ed25519AddressOf publicKey');
  if (publicKey.length !== 32)
    throw new RangeError(`ed25519AddressOf publicKey: expected 32 bytes, got ${publicKey.length}`);
  return { type: AddressType.Ed25519, pubKeyHash: blake2b256(publicKey) };
}
