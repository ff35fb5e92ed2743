import { expect, it } from 'vitest';
import { bytesKey, equalBytes, keyBytes } from '../../src/util/bytes.js';

it('bytesKey: one character per byte (all 256 values), the same for arrays in and out of V8 heap, and back', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const expected = Array.from(all, (b) => String.fromCharCode(b)).join('');
  expect(bytesKey(all)).toBe(expected);
  for (let at = 0; at < 256; at += 32) {
    const small = all.slice(at, at + 32); // 32 bytes: kept inside V8's heap
    const view = all.subarray(at, at + 32); // a view at an offset into a larger buffer
    expect(bytesKey(small)).toBe(expected.slice(at, at + 32));
    expect(bytesKey(view)).toBe(expected.slice(at, at + 32));
    expect(keyBytes(bytesKey(view))).toEqual(small);
  }
  expect(bytesKey(new Uint8Array(0))).toBe('');
  // Keys order as their bytes do (the commit sorts keys as strings to get byte order).
  expect(bytesKey(Uint8Array.of(0x7f, 0xff)) < bytesKey(Uint8Array.of(0x80, 0))).toBe(true);
});

it('bytesKey up to an end: the key of the first bytes only (an output ID up to its transaction ID)', () => {
  const id = Uint8Array.from({ length: 34 }, (_, i) => 200 + i);
  expect(bytesKey(id, 32)).toBe(bytesKey(id.slice(0, 32)));
  expect(bytesKey(id, 0)).toBe('');
});

it('equalBytes: equal and unequal at every position, for lengths on both sides of 64 and views at offsets', () => {
  for (const n of [0, 1, 31, 64, 65, 600]) {
    const a = Uint8Array.from({ length: n }, (_, i) => (i * 7 + 1) & 0xff);
    // b: the same bytes in the middle of a larger buffer (a view, as a block's bytes in a batch are)
    const big = new Uint8Array(n + 10);
    big.set(a, 5);
    const b = big.subarray(5, 5 + n);
    expect(equalBytes(a, b)).toBe(true);
    expect(equalBytes(a, big.subarray(4, 4 + n))).toBe(n === 0); // shifted by one
    expect(equalBytes(a, big.subarray(5, 6 + n))).toBe(false); // one byte longer
    for (let i = 0; i < n; i++) {
      b[i]! ^= 1;
      expect(equalBytes(a, b)).toBe(false);
      expect(equalBytes(b, a)).toBe(false);
      b[i]! ^= 1;
    }
  }
});
