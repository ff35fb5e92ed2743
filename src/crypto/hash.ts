import { blake2b } from '@noble/hashes/blake2.js';
import { createBLAKE2b, type IHasher } from 'hash-wasm';

// BLAKE2b-256 (32-byte digest, no key, no personalisation), the only hash of Stardust IDs.
//
// hash-wasm is about 10× faster than pure JavaScript here, but its WebAssembly module can only be instantiated
// asynchronously. We start that at load time and, until it is ready, hash with @noble/hashes, which gives the
// same digest synchronously. So every ID function stays synchronous and correct from the first call; callers
// that want the fast path from the first call `await ready()` once.
let wasm: IHasher | undefined;
const loading: Promise<void> = createBLAKE2b(256).then(
  (h) => {
    wasm = h;
  },
  () => {
    // WebAssembly unavailable: @noble/hashes keeps answering.
  },
);

/** Resolves when the WebAssembly hasher is loaded (it never rejects; the fallback stays in use on failure). */
export function ready(): Promise<void> {
  return loading;
}

// hash-wasm reads its input through `data.buffer`. V8 keeps typed arrays of up to 64 bytes inside its heap until
// something asks for their buffer; asking moves them out (a malloc'd backing store each, swept by the collector
// later). Small inputs (Merkle nodes, IDs, the inputs commitment's hashes) are copied into this buffer instead.
const SMALL = 64;
const small = new Uint8Array(new ArrayBuffer(SMALL));
const smallViews = Array.from({ length: SMALL + 1 }, (_, n) => small.subarray(0, n));

export function blake2b256(data: Uint8Array): Uint8Array {
  if (wasm !== undefined) {
    wasm.init();
    if (data.length <= SMALL && data instanceof Uint8Array) {
      small.set(data);
      wasm.update(smallViews[data.length]!);
    } else {
      wasm.update(data);
    }
    return wasm.digest('binary');
  }
  return blake2b(data, { dkLen: 32 });
}

/** The pure-JavaScript implementation, used by tests to cross-check the WebAssembly one. */
export function blake2b256Reference(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: 32 });
}
