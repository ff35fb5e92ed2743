import { expect } from 'vitest';

// vitest's deep equality compares typed arrays through its generic iterable path, an element at a time with its full
// machinery: two 32 KiB blocks took milliseconds each, and the property tests compare thousands. Two byte arrays of
// the same class are compared here as bytes instead: the same answer (equal length and bytes), at memcmp's speed.
// Arrays of different classes (a Buffer and a Uint8Array) are left to vitest's own rules.
expect.addEqualityTesters([
  function bytesEqual(a: unknown, b: unknown): boolean | undefined {
    if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.constructor !== b.constructor) return undefined;
    return Buffer.compare(a, b) === 0;
  },
]);
