// A key-value pair as a bulk load's external sort holds it (sorted-runs.ts), in its arena, in its run files and in
// the buffers its worker thread exchanges (sorted-runs-worker.ts): key length (u16), value length (u32), key, value;
// lengths little-endian. Pairs lie end to end.

/** The bytes before a pair's key. */
export const HEAD = 6;

/** Writes a pair's lengths at `at`. */
export function writePairHead(a: Uint8Array, at: number, keyLength: number, valueLength: number): void {
  a[at] = keyLength & 0xff;
  a[at + 1] = keyLength >>> 8;
  a[at + 2] = valueLength & 0xff;
  a[at + 3] = (valueLength >>> 8) & 0xff;
  a[at + 4] = (valueLength >>> 16) & 0xff;
  a[at + 5] = valueLength >>> 24;
}

export const keyLengthAt = (a: Uint8Array, at: number): number => a[at]! | (a[at + 1]! << 8);
const valueLengthAt = (a: Uint8Array, at: number): number =>
  (a[at + 2]! | (a[at + 3]! << 8) | (a[at + 4]! << 16) | (a[at + 5]! << 24)) >>> 0;

/** The whole size of the pair at `at`. */
export const pairSize = (a: Uint8Array, at: number): number => HEAD + keyLengthAt(a, at) + valueLengthAt(a, at);

/**
 * Writes at `at` a key of the store's slot-ordered shape, `table ‖ prefix ‖ slot (u32, big-endian) ‖ id` (outputs,
 * index entries), byte by byte; returns where it ends.
 */
export function writeSlottedKey(
  a: Uint8Array,
  at: number,
  table: number,
  prefix: Uint8Array,
  slot: number,
  id: Uint8Array,
): number {
  let i = at;
  a[i++] = table;
  for (let j = 0; j < prefix.length; j++) a[i++] = prefix[j]!;
  a[i++] = slot >>> 24;
  a[i++] = (slot >>> 16) & 0xff;
  a[i++] = (slot >>> 8) & 0xff;
  a[i++] = slot & 0xff;
  for (let j = 0; j < id.length; j++) a[i++] = id[j]!;
  return i;
}
