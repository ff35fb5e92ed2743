import type * as NodeCrypto from 'node:crypto';
import * as noble from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesKey } from '../util/bytes.js';

// Ed25519 as the Stardust network verifies it: ZIP-215 (iota.go v3 ed25519, ed25519-zebra in iota-crypto).
//
// ZIP-215 accepts a signature when S < L and the *cofactored* equation [8][S]B = [8]R + [8][k]A holds, with R and A
// decoded even from non-canonical encodings, and k = SHA-512(R_bytes ‖ A_bytes ‖ M) over the bytes as given.
// OpenSSL (node:crypto) is a strict RFC 8032 verifier: it also requires S < L, hashes the same bytes, and accepts
// only when the *cofactorless* equation [S]B = R + [k]A holds exactly. Multiplying that equation by 8 gives the
// cofactored one, so every signature OpenSSL accepts, ZIP-215 accepts. The converse fails only for edge cases
// (small-order components, non-canonical encodings; 3 vectors of ed25519-zip215.json). So OpenSSL answers first,
// in native code; only when it says no does @noble/ed25519 in ZIP-215 mode decide. The fast path can therefore
// never turn a "no" into a "yes" or a "yes" into a "no" — test/crypto/ed25519.test.ts checks it on random honest
// and mutated signatures.
noble.hashes.sha512 = sha512;

// OpenSSL is reached through process.getBuiltinModule (Node 20.16 and later), not a static import: the same code then
// bundles for a browser, where there is no node:crypto and @noble/ed25519 alone signs and verifies (same answers,
// slower). A Node older than 20.16 takes the browser's path too.
const openssl = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as typeof NodeCrypto | undefined;
type KeyObject = NodeCrypto.KeyObject;

const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

function check(bytes: unknown, length: number, what: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: expected a Uint8Array`);
  if (length >= 0 && bytes.length !== length)
    throw new RangeError(`${what}: expected ${length} bytes, got ${bytes.length}`);
}

/**
 * The keys OpenSSL verifies with, imported once and kept (at most KEPT, the oldest let go first): a network's busy
 * addresses sign again and again, and an import costs a good part of a verification. A key OpenSSL cannot use is kept
 * as null, its verdict left to ZIP-215.
 */
const verifyingKeys = new Map<string, KeyObject | null>();
const KEPT = 4096;

/**
 * An imported key as a JWK: Node then builds it from the raw bytes (about 4 µs on a quiet machine, 20 µs as the
 * ledger's writer measured it under load), while a DER/SPKI import goes through OpenSSL 3's decoder framework (about
 * 60 µs, as long as the verification itself).
 */
function verifyingKey(crypto: typeof NodeCrypto, publicKey: Uint8Array): KeyObject | null {
  const x = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64url');
  let key = verifyingKeys.get(x);
  if (key === undefined) {
    try {
      key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
    } catch {
      key = null;
    }
    if (verifyingKeys.size >= KEPT) verifyingKeys.delete(verifyingKeys.keys().next().value!);
    verifyingKeys.set(x, key);
  }
  return key;
}

/** OpenSSL's strict RFC 8032 verdict (exported for tests and the benchmark). */
export function verifyEd25519Strict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (openssl === undefined) return false; // no OpenSSL here: ZIP-215 decides alone
  const key = verifyingKey(openssl, publicKey);
  if (key === null) return false; // OpenSSL cannot use this key; ZIP-215 may still accept it
  try {
    return openssl.verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/** @noble/ed25519's ZIP-215 verdict alone (exported for tests and the benchmark). */
export function verifyEd25519Zip215(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    return noble.verify(signature, message, publicKey, { zip215: true });
  } catch {
    return false; // e.g. a point that does not decode at all
  }
}

/**
 * Verifies an Ed25519 signature with the network's ZIP-215 rules. Returns false for an invalid signature; throws
 * only for arguments of the wrong type or length.
 * @throws TypeError, RangeError
 */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  check(publicKey, 32, 'verifyEd25519 publicKey');
  check(message, -1, 'verifyEd25519 message');
  check(signature, 64, 'verifyEd25519 signature');
  if (webAccepted.size > 0 && webAccepted.has(tripleKey(publicKey, message, signature))) return true;
  return verifyEd25519Strict(publicKey, message, signature) || verifyEd25519Zip215(publicKey, message, signature);
}

// A browser has no OpenSSL, and @noble/ed25519 alone takes about 2 ms a signature (a milestone has seven). WebCrypto's
// Ed25519 (Chromium, Firefox, Safari) is a strict RFC 8032 verifier like OpenSSL, so what it accepts ZIP-215 accepts
// too (the argument above): `preverifyEd25519` asks it, asynchronously, and remembers what it accepted, which
// `verifyEd25519` then answers at once. What it refuses, or where it is missing, ZIP-215 still decides.
const webAccepted = new Set<string>();
/** What is used of WebCrypto's SubtleCrypto (the library is built without the DOM's types). */
interface Subtle {
  importKey(
    format: 'raw',
    key: Uint8Array,
    algorithm: { name: string },
    extractable: false,
    uses: ['verify'],
  ): Promise<unknown>;
  verify(algorithm: { name: string }, key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}
const WEB_ACCEPTED_SIZE = 1024;
const tripleKey = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) =>
  `${bytesKey(publicKey)}${bytesKey(signature)}${bytesKey(message)}`;

/** Asks WebCrypto (where there is one, and no OpenSSL) about each triple at once; never throws, never refuses. */
export async function preverifyEd25519(
  triples: readonly { publicKey: Uint8Array; message: Uint8Array; signature: Uint8Array }[],
): Promise<void> {
  const subtle = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (openssl !== undefined || subtle === undefined) return;
  await Promise.all(
    triples.map(async ({ publicKey, message, signature }) => {
      try {
        const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
        if (!(await subtle.verify({ name: 'Ed25519' }, key, signature, message))) return;
        if (webAccepted.size >= WEB_ACCEPTED_SIZE) webAccepted.delete(webAccepted.values().next().value!);
        webAccepted.add(tripleKey(publicKey, message, signature));
      } catch {} // no Ed25519 in this WebCrypto, or a key it cannot read: ZIP-215 decides
    }),
  );
}

/** Signing keys repeat (a wallet signs many inputs with few keys): keep their imported form, bounded. */
const SIGNING_CACHE_SIZE = 256;
const signingKeys = new Map<string, { key: KeyObject; publicKey: Uint8Array }>();

function signingKey(ossl: typeof NodeCrypto, secretKey: Uint8Array): { key: KeyObject; publicKey: Uint8Array } {
  const id = bytesKey(secretKey);
  let entry = signingKeys.get(id);
  if (entry === undefined) {
    const der = new Uint8Array(48);
    der.set(PKCS8_PREFIX);
    der.set(secretKey, 16);
    const key = ossl.createPrivateKey({ key: Buffer.from(der.buffer), format: 'der', type: 'pkcs8' });
    const spki = ossl.createPublicKey(key).export({ format: 'der', type: 'spki' });
    entry = { key, publicKey: new Uint8Array(spki.subarray(12)) };
    if (signingKeys.size >= SIGNING_CACHE_SIZE) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, entry);
  }
  return entry;
}

/** Signs `message` with a 32-byte Ed25519 secret key (RFC 8032 seed). @throws TypeError, RangeError */
export function signEd25519(secretKey: Uint8Array, message: Uint8Array): Uint8Array {
  check(secretKey, 32, 'signEd25519 secretKey');
  check(message, -1, 'signEd25519 message');
  // Ed25519 signatures are deterministic (RFC 8032): noble writes the bytes OpenSSL would.
  if (openssl === undefined) return noble.sign(message, secretKey);
  return new Uint8Array(openssl.sign(null, message, signingKey(openssl, secretKey).key));
}

/** The 32-byte public key of a secret key. @throws TypeError, RangeError */
export function ed25519PublicKey(secretKey: Uint8Array): Uint8Array {
  check(secretKey, 32, 'ed25519PublicKey secretKey');
  if (openssl === undefined) return noble.getPublicKey(secretKey);
  return signingKey(openssl, secretKey).publicKey.slice();
}
