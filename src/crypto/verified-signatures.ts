import { bytesKey } from '../util/bytes.js';
import { verifyEd25519 } from './ed25519.js';

/**
 * Signatures that OpenSSL has already accepted on another thread (`VerifyPool`), each to be used once, owned by the
 * ledger that asked for them. An entry is the exact (public key, message, signature) bytes, so a hit is the verdict
 * OpenSSL would give here; and since an OpenSSL "yes" is a ZIP-215 "yes" (see ed25519.ts), answering true for it
 * changes no verdict. Bounded: the oldest entries go first.
 */
export class VerifiedSignatures {
  private readonly entries = new Set<string>();

  constructor(private readonly limit = 1 << 17) {}

  get size(): number {
    return this.entries.size;
  }

  /** Records a triple that OpenSSL accepted. */
  add(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): void {
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.values().next().value!);
    this.entries.add(tripleKey(publicKey, message, signature));
  }

  /** `verifyEd25519`, answered from the cache when the triple was verified ahead (and then forgotten). */
  readonly verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
    if (this.entries.size > 0 && this.entries.delete(tripleKey(publicKey, message, signature))) return true;
    return verifyEd25519(publicKey, message, signature);
  };
}

function tripleKey(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): string {
  return bytesKey(Buffer.concat([publicKey, signature, message])); // one string, not three joined
}
