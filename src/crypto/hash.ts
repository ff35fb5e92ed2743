import { blake2b } from '@noble/hashes/blake2.js';
import {
  type Blake2bExports,
  blake2bModuleBytes,
  DIGEST,
  INPUT,
  INPUT_LENGTH,
  ROOM_AFTER_DIGEST,
  SCRATCH_LENGTH,
} from './blake2b-wasm.js';

// BLAKE2b-256 (32-byte digest, no key, no personalisation), the hash of every id of both protocols.
//
// The WebAssembly module of blake2b-wasm.ts is about 10× faster than pure JavaScript here. Where modules may be
// compiled synchronously (Node, workers) it is ready before the first call; a browser's main thread compiles a module
// of over 4 KB only asynchronously, and until that is done we hash with @noble/hashes, which gives the same digest
// synchronously. So every id function stays synchronous and correct from the first call; callers that want the fast
// path from the first call everywhere `await ready()` once.
let wasm: Blake2bExports | undefined;

/** The part of the WebAssembly JavaScript API used here (the project's `lib` has no DOM types). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => Instance;
  instantiate(bytes: Uint8Array): Promise<{ instance: Instance }>;
}
type Instance = { exports: unknown };
const WebAssembly = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
/** The module's whole memory; it cannot grow, so this view stays valid. */
let memory = new Uint8Array(0);

function use(instance: Instance): void {
  wasm = instance.exports as unknown as Blake2bExports;
  memory = new Uint8Array(wasm.memory.buffer);
}

const loading: Promise<void> = (() => {
  if (WebAssembly === undefined) return Promise.resolve(); // @noble/hashes keeps answering
  let bytes: Uint8Array;
  try {
    bytes = blake2bModuleBytes();
    use(new WebAssembly.Instance(new WebAssembly.Module(bytes)));
    return Promise.resolve();
  } catch {
    // Not synchronously here (a page's main thread): asynchronously, @noble/hashes answering meanwhile.
    return Promise.resolve()
      .then(() => WebAssembly.instantiate(bytes ?? blake2bModuleBytes()))
      .then(
        (r) => use(r.instance),
        () => {},
      );
  }
})();

/** Resolves when the WebAssembly hasher is loaded (it never rejects; the fallback stays in use on failure). */
export function ready(): Promise<void> {
  return loading;
}

/** Which implementation hashes now: the WebAssembly module, or @noble/hashes until (or where) it cannot load. */
export function hashBackend(): 'webassembly' | 'javascript' {
  return wasm === undefined ? 'javascript' : 'webassembly';
}

/** Inputs the module's 32-bit byte counter can take. */
const MAX_LENGTH = 0xffffffff;
const BLOCK = 128;

export function blake2b256(data: Uint8Array): Uint8Array {
  if (wasm === undefined || data.length > MAX_LENGTH) return blake2b(data, { dkLen: 32 });
  if (data.length <= INPUT_LENGTH) {
    memory.set(data, INPUT);
    wasm.hash(INPUT, data.length, DIGEST);
  } else {
    // In chunks of the input area; every chunk but the last is whole blocks, none of them the final one.
    wasm.begin();
    let t = 0;
    for (; data.length - t > INPUT_LENGTH; t += INPUT_LENGTH) {
      memory.set(data.subarray(t, t + INPUT_LENGTH), INPUT);
      wasm.blocks(INPUT, INPUT_LENGTH / BLOCK, t);
    }
    const rest = data.length - t;
    const full = ((rest - 1) >>> 7) << 7;
    memory.set(data.subarray(t), INPUT);
    wasm.blocks(INPUT, full / BLOCK, t);
    wasm.end(INPUT + full, rest - full, t + full, DIGEST);
  }
  return memory.slice(DIGEST, DIGEST + 32);
}

/**
 * BLAKE2b-256(H(bytes[0, a)) ‖ H(bytes[a, b)) ‖ bytes[b, end)), followed by `room` zero bytes (up to 32) for the caller
 * to fill: TIP-46's block identifier, whose parts are a block's header, body and signature, with room for the block
 * id's slot. One copy into the module and one call: this is most of the cost of a Nova block id.
 */
export function blake2b256OfParts(bytes: Uint8Array, a: number, b: number, room = 0): Uint8Array {
  const tail = bytes.length - b;
  if (wasm === undefined || bytes.length > INPUT_LENGTH || 64 + tail > SCRATCH_LENGTH || room > ROOM_AFTER_DIGEST) {
    const input = new Uint8Array(64 + tail);
    input.set(blake2b256(bytes.subarray(0, a)), 0);
    input.set(blake2b256(bytes.subarray(a, b)), 32);
    input.set(bytes.subarray(b), 64);
    const out = new Uint8Array(32 + room);
    out.set(blake2b256(input));
    return out;
  }
  memory.set(bytes, INPUT);
  wasm.parts(INPUT, bytes.length, a, b);
  return memory.slice(DIGEST, DIGEST + 32 + room);
}

/** The pure-JavaScript implementation, used by tests to cross-check the WebAssembly one. */
export function blake2b256Reference(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: 32 });
}
