// The cryptography every room stands on: BLAKE2b-256, Ed25519 (ZIP-215), TIP-12's proof of work and TIP-4's Merkle
// tree. A new primitive: a file here, its names exported below (and from codec-entry.ts if the package offers it).
export { ed25519PublicKey, preverifyEd25519, signEd25519, verifyEd25519 } from './ed25519.js';
export { blake2b256, blake2b256OfParts, ready } from './hash.js';
export { hashPrefixed, LEAF, merklePath, merkleRoot, NODE } from './merkle.js';
export { type FindNonceOptions, findNonce, powScore } from './pow.js';
