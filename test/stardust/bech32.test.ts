import { bech32 } from 'bech32';
import { describe, expect, it } from 'vitest';
import { type Address, addressToBech32, bech32ToAddress, CodecError, decodeBlock } from '../../src/index.js';
import { toHexString as h, hex, loadVectors } from '../helpers/vectors.js';

const bech32Vectors = loadVectors('api/nova-bech32-addresses.json');
const fieldOf = { 0: 'pubKeyHash', 8: 'aliasId', 16: 'nftId' } as const;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof CodecError) return e.code;
    throw e;
  }
  return 'accepted';
}

describe('nova-bech32-addresses.json', () => {
  for (const v of [...bech32Vectors.published, ...bech32Vectors.derived]) {
    const name = `${v.hrp} type ${v.type} ${v.bech32.slice(0, 16)}…`;
    if (v.type === 0 || v.type === 8 || v.type === 16) {
      it(`${name} round-trips`, () => {
        const a = bech32ToAddress(v.bech32, v.hrp) as unknown as Record<string, unknown>;
        expect(a.type).toBe(v.type);
        expect(h(a[fieldOf[v.type as 0 | 8 | 16]] as Uint8Array)).toBe(v.hash);
        expect(addressToBech32(a as unknown as Address, v.hrp)).toBe(v.bech32);
      });
    } else {
      // Nova-only types (anchor, implicit account, restricted…) are not Stardust addresses.
      it(`${name} is refused as an unknown type`, () =>
        expect(codeOf(() => bech32ToAddress(v.bech32))).toBe('UNKNOWN_TYPE'));
    }
  }
});

describe('real Shimmer addresses', () => {
  it('every Ed25519 address of the real blocks round-trips through smr bech32', () => {
    const blocks = loadVectors('stardust/blocks.json').vectors.filter(
      (v: any) => v.name.startsWith('chronicle-shimmer-6') && !v.outOfScope,
    );
    let n = 0;
    for (const v of blocks) {
      const block = decodeBlock(hex(v.bytes));
      if (block.payload?.type !== 6) continue;
      for (const o of block.payload.essence.outputs) {
        for (const uc of o.unlockConditions) {
          if (uc.type === 2) continue;
          const a = 'address' in uc ? uc.address : uc.returnAddress;
          const text = addressToBech32(a, 'smr');
          expect(text).toMatch(/^smr1/);
          expect(bech32ToAddress(text, 'smr')).toEqual(a);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(20);
  });
});

describe('errors', () => {
  const good = 'smr1qpf0mlq8yxpx2nck8a0slxnzr4ef2ek8f5gqxlzd0wasgp73utryjzpklmd';
  it('bad checksum', () => expect(codeOf(() => bech32ToAddress(`${good.slice(0, -1)}q`))).toBe('INVALID_CHECKSUM'));
  it('wrong HRP', () => expect(codeOf(() => bech32ToAddress(good, 'rms'))).toBe('HRP_MISMATCH'));
  it('mixed case, bad characters, not bech32', () => {
    expect(codeOf(() => bech32ToAddress(good.slice(0, 10).toUpperCase() + good.slice(10)))).toBe('INVALID_VALUE');
    expect(codeOf(() => bech32ToAddress('smr1bio'))).toBe('INVALID_VALUE');
    expect(codeOf(() => bech32ToAddress(''))).toBe('INVALID_VALUE');
  });
  it('upper case is accepted (BIP-173)', () =>
    expect(bech32ToAddress(good.toUpperCase(), 'smr')).toEqual(bech32ToAddress(good)));
  it('wrong length and unknown type', () => {
    expect(codeOf(() => bech32ToAddress(bech32.encode('smr', bech32.toWords(new Uint8Array(32)))))).toBe(
      'LENGTH_OUT_OF_RANGE',
    );
    expect(
      codeOf(() => bech32ToAddress(bech32.encode('smr', bech32.toWords(Uint8Array.of(1, ...new Uint8Array(32)))))),
    ).toBe('UNKNOWN_TYPE');
  });
});
