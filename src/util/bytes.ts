/** Lexicographic byte comparison: negative, zero or positive (the order TIP-24 and TIP-18 sort by). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** IDs in byte order, each once (a block's or a milestone's parents, TIP-24). */
export function sortedUnique(ids: readonly Uint8Array[]): Uint8Array[] {
  return [...ids].sort(compareBytes).filter((id, i, all) => i === 0 || compareBytes(all[i - 1]!, id) !== 0);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // Long arrays (a block's bytes) through Node's native comparison, which takes plain Uint8Arrays as they are; IDs in
  // the loop, whose call costs less. Arrays over 64 bytes live outside V8's heap already: nothing moves them.
  if (a.length > 64 && nativeEquals !== undefined) return nativeEquals.call(a, b);
  return compareBytes(a, b) === 0;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A string that stands for these bytes (from `start` up to `end`) as a Map/Set key (one character per byte), and back.
 * Byte arrays compare by identity in a Map; this is the one place that turns them into values.
 */
export function bytesKey(bytes: Uint8Array, end = bytes.length, start = 0): string {
  // Buffer's latin1Slice reads the bytes in place. Wrapping them in a Buffer would ask for their ArrayBuffer, and V8
  // keeps typed arrays of up to 64 bytes (IDs) inside its heap until something asks: asking moves them out, one
  // malloc'd backing store per ID, which the collector's threads then sweep.
  if (latin1Slice !== undefined) return latin1Slice.call(bytes, start, end);
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
// Node's Buffer methods, called on plain Uint8Arrays; a browser has no Buffer (the loops give the same answers).
const nodeBuffer = (globalThis as { Buffer?: { prototype: unknown } }).Buffer?.prototype as
  | { latin1Slice(start: number, end: number): string; equals(other: Uint8Array): boolean }
  | undefined;
const latin1Slice = nodeBuffer?.latin1Slice;
const nativeEquals = nodeBuffer?.equals;

export function keyBytes(key: string): Uint8Array {
  const bytes = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) bytes[i] = key.charCodeAt(i);
  return bytes;
}
