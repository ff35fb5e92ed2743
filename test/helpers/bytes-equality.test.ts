// The suite's byte-array equality (test/setup/bytes.ts) gives vitest's own answers, faster: checked here on the cases
// where a shortcut could differ (length, last byte, views into a larger buffer, nesting, different classes).
import { describe, expect, it } from 'vitest';

describe('byte arrays in toEqual', () => {
  it('are equal exactly when their lengths and bytes are', () => {
    expect(new Uint8Array([1, 2, 3])).toEqual(new Uint8Array([1, 2, 3]));
    expect(new Uint8Array([1, 2, 3])).not.toEqual(new Uint8Array([1, 2, 4]));
    expect(new Uint8Array([1, 2, 3])).not.toEqual(new Uint8Array([1, 2]));
    expect(new Uint8Array(0)).toEqual(new Uint8Array(0));
    const big = new Uint8Array(32768).map((_, i) => i & 0xff);
    const other = big.slice();
    expect(other).toEqual(big);
    other[32767] = other[32767]! ^ 1;
    expect(other).not.toEqual(big);
  });
  it('compare a view by its own bytes, not its buffer', () => {
    const backing = new Uint8Array([9, 1, 2, 3, 9]);
    expect(backing.subarray(1, 4)).toEqual(new Uint8Array([1, 2, 3]));
    expect(backing.subarray(0, 3)).not.toEqual(new Uint8Array([1, 2, 3]));
  });
  it('hold inside objects and arrays', () => {
    expect({ id: new Uint8Array([1]), list: [new Uint8Array([2])] }).toEqual({
      id: new Uint8Array([1]),
      list: [new Uint8Array([2])],
    });
    expect({ id: new Uint8Array([1]) }).not.toEqual({ id: new Uint8Array([2]) });
  });
  it('of different classes follow vitest, which tells a Buffer from a Uint8Array', () => {
    expect(Buffer.from([1, 2])).not.toEqual(new Uint8Array([1, 2]));
    expect(Buffer.from([1, 2])).toEqual(Buffer.from([1, 2]));
  });
});
