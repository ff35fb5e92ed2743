import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyEd25519Strict, verifyEd25519Zip215 } from '../../src/crypto/ed25519.js';
import { blake2b256, ed25519AddressOf, ed25519PublicKey, signEd25519, verifyEd25519 } from '../../src/index.js';
import { equalBytes } from '../../src/util/bytes.js';
import { toHexString as h, hex, loadVectors } from '../helpers/vectors.js';

describe('ed25519-zip215.json (iota.go v3 edge cases)', () => {
  const { vectors } = loadVectors('stardust/ed25519-zip215.json');
  it('has its 12 vectors, 3 of which strict RFC 8032 verifiers reject but the network accepts', () => {
    expect(vectors).toHaveLength(12);
    expect(vectors.filter((v: any) => v.expectedValid && !v.strictRfc8032VerifierResult)).toHaveLength(3);
  });
  for (const v of vectors) {
    it(`${v.name}: expected ${v.expectedValid}`, () => {
      const pk = hex(v.publicKey);
      const msg = hex(v.message);
      const sig = hex(v.signature);
      const addressMatches = equalBytes(Uint8Array.of(0, ...blake2b256(pk)), hex(v.address));
      expect(addressMatches).toBe(v.addressMatchesPublicKey);
      // The network's verdict: the address is the key's, and the signature is ZIP-215 valid.
      expect(addressMatches && verifyEd25519(pk, msg, sig)).toBe(v.expectedValid);
      // The fast path is OpenSSL, a strict verifier: it must agree with the vector's strict verdict.
      expect(verifyEd25519Strict(pk, msg, sig)).toBe(v.strictRfc8032VerifierResult);
      // And the fast path never accepts what ZIP-215 rejects.
      if (verifyEd25519Strict(pk, msg, sig)) expect(verifyEd25519Zip215(pk, msg, sig)).toBe(true);
    });
  }
});

describe('fast path (OpenSSL) and @noble/ed25519 (ZIP-215) never disagree on the combined answer', () => {
  const keyAndMessage = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 64 }));

  it('honest signatures: both accept', () => {
    fc.assert(
      fc.property(keyAndMessage, ([sk, msg]) => {
        const pk = ed25519PublicKey(sk);
        const sig = signEd25519(sk, msg);
        expect(verifyEd25519Strict(pk, msg, sig)).toBe(true);
        expect(verifyEd25519Zip215(pk, msg, sig)).toBe(true);
        expect(verifyEd25519(pk, msg, sig)).toBe(true);
      }),
      { seed: 215, numRuns: 150 },
    );
  });

  it('mutated signatures, keys and messages: whenever OpenSSL accepts, ZIP-215 accepts, and verify = ZIP-215', () => {
    const mutation = fc.record({
      target: fc.constantFrom('sig', 'pk', 'msg'),
      index: fc.nat(),
      xor: fc.integer({ min: 1, max: 255 }),
    });
    fc.assert(
      fc.property(keyAndMessage, mutation, ([sk, msg], m) => {
        const pk = ed25519PublicKey(sk).slice();
        const sig = signEd25519(sk, msg).slice();
        const message = msg.length > 0 ? msg.slice() : Uint8Array.of(0);
        const target = m.target === 'sig' ? sig : m.target === 'pk' ? pk : message;
        const at = m.index % target.length;
        target[at] = target[at]! ^ m.xor;
        const strict = verifyEd25519Strict(pk, message, sig);
        const zip = verifyEd25519Zip215(pk, message, sig);
        if (strict) expect(zip).toBe(true);
        expect(verifyEd25519(pk, message, sig)).toBe(zip);
      }),
      { seed: 8032, numRuns: 300 },
    );
  });

  it('random keys and signatures (mostly invalid points and S ≥ L): verify = ZIP-215', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (pk, sig) => {
          const msg = Uint8Array.of(1, 2, 3);
          expect(verifyEd25519(pk, msg, sig)).toBe(verifyEd25519Zip215(pk, msg, sig));
        },
      ),
      { seed: 25519, numRuns: 200 },
    );
  });
});

describe('keys and addresses', () => {
  it('RFC 8032 test 1: public key of the secret key, and the signature of the empty message', () => {
    const sk = hex('0x9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    expect(h(ed25519PublicKey(sk))).toBe('0xd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(h(signEd25519(sk, new Uint8Array(0)))).toBe(
      '0xe5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });
  it('ed25519AddressOf is BLAKE2b-256 of the public key', () => {
    const pk = randomBytes(32);
    expect(ed25519AddressOf(pk)).toEqual({ type: 0, pubKeyHash: blake2b256(pk) });
  });
  it('wrong lengths throw RangeError, wrong types TypeError; invalid signatures return false', () => {
    expect(() => verifyEd25519(new Uint8Array(31), new Uint8Array(0), new Uint8Array(64))).toThrow(RangeError);
    expect(() => verifyEd25519(new Uint8Array(32), 'x' as unknown as Uint8Array, new Uint8Array(64))).toThrow(
      TypeError,
    );
    const sk = new Uint8Array(32).fill(7);
    expect(verifyEd25519(ed25519PublicKey(sk), Uint8Array.of(1), signEd25519(sk, Uint8Array.of(2)))).toBe(false);
  });
  it('ZIP-215 semantics: a small-order key and R with S = 0 verify for any message (the cofactored equation holds)', () => {
    for (let m = 0; m < 8; m++)
      expect(verifyEd25519(new Uint8Array(32), Uint8Array.of(m), new Uint8Array(64))).toBe(true);
  });
});
