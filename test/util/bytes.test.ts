import { expect, it } from 'vitest';
import { bytesKey, keyBytes } from '../../src/util/bytes.js';

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
