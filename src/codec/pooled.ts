// Copies of small byte strings, carved from shared slabs as Node's Buffer.allocUnsafe does: the codec's encoded
// results and the values read out of LMDB are both many small copies (IDs, outputs, records), and a fresh ArrayBuffer
// each costs several times a view of a slab (bench/allocator.mjs; bench/RESULTS.md, "What does a small copy cost?").
// So a copy's `byteOffset` may be non-zero and its `buffer` holds other copies: slice it before transferring its
// buffer (postMessage) or viewing the buffer whole. A slab lives while any copy in it does; larger copies get a buffer
// of their own.

const SLAB_SIZE = 64 * 1024;
/** Copies up to this size share slabs. */
export const POOLED = 4 * 1024;
let slab = new ArrayBuffer(SLAB_SIZE);
let slabUsed = 0;

/**
 * A copy of exactly these bytes (their `length`), in a new Uint8Array. Not `slice`: its species-constructor lookup
 * made it the costliest step of encoding.
 */
export function pooledCopy(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  let out: Uint8Array;
  if (n <= POOLED) {
    if (slabUsed + n > SLAB_SIZE) {
      slab = new ArrayBuffer(SLAB_SIZE);
      slabUsed = 0;
    }
    out = new Uint8Array(slab, slabUsed, n);
    slabUsed += (n + 7) & ~7; // each copy 8-aligned, so a DataView or BigUint64Array on it can be aligned too
  } else {
    out = new Uint8Array(n);
  }
  out.set(bytes);
  return out;
}
