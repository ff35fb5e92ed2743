import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import { createBLAKE2b } from 'hash-wasm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type Blake2bExports,
  blake2bModuleBytes,
  DIGEST,
  INPUT,
  INPUT_LENGTH,
  ROOM_AFTER_DIGEST,
} from '../../src/crypto/blake2b-wasm.js';
import { blake2b256, blake2b256OfParts, blake2b256Reference, hashBackend, ready } from '../../src/crypto/hash.js';
import { toHexString as h } from '../helpers/vectors.js';

// Our BLAKE2b-256 is a WebAssembly module written out in src/crypto/blake2b-wasm.ts. Two independent implementations
// check it: @noble/hashes (JavaScript) and hash-wasm (C compiled to WebAssembly), and two published digests.
let hashWasm: (b: Uint8Array) => Uint8Array;
beforeAll(async () => {
  await ready();
  const hasher = await createBLAKE2b(256);
  hashWasm = (b) => hasher.init().update(b).digest('binary');
});

// The WebAssembly API, typed here: the project's `lib` has no DOM types.
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
  instantiate(bytes: Uint8Array): Promise<unknown>;
}

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 151 + seed) & 0xff);

it('BLAKE2b-256 of the empty input and of "abc" are the published digests', () => {
  // The empty digest is the one the BLAKE2 team's b2sum prints; "abc" is RFC 7693 Appendix A's input at 32 bytes.
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  expect(h(blake2b256(new TextEncoder().encode('abc')))).toBe(
    '0xbddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
  );
});

it('agrees with @noble/hashes and hash-wasm on every length from 0 to 1100 bytes (every block boundary)', () => {
  for (let n = 0; n <= 1100; n++) {
    const b = bytes(n, n);
    const expected = blake2b256Reference(b);
    expect(blake2b256(b)).toEqual(expected);
    expect(hashWasm(b)).toEqual(expected);
  }
});

it('agrees around the 64 KiB input area, where inputs are hashed in chunks, and far past it', () => {
  for (const n of [65535, 65536, 65537, 65536 + 127, 65536 + 128, 65536 + 129, 131072, 131073, 200_000, 1 << 20]) {
    const b = bytes(n, n & 0xff);
    expect(blake2b256(b), `${n} bytes`).toEqual(blake2b(b, { dkLen: 32 }));
  }
});

it('agrees with @noble/hashes on random inputs up to 140 KiB, views into larger buffers included', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 140_000 }), fc.nat(300), (b, skip) => {
      const padded = new Uint8Array(b.length + skip + 5).fill(0xa5);
      padded.set(b, skip);
      const view = padded.subarray(skip, skip + b.length);
      expect(blake2b256(b)).toEqual(blake2b256Reference(b));
      expect(blake2b256(view)).toEqual(blake2b256Reference(b));
    }),
    { seed: 1, numRuns: 200 },
  );
});

it('a shorter input right after a longer one: nothing of the longer one is hashed', () => {
  blake2b256(new Uint8Array(300).fill(0xff));
  expect(h(blake2b256(new Uint8Array(0)))).toBe('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  blake2b256(new Uint8Array(300).fill(0xff));
  expect(blake2b256(new Uint8Array(5))).toEqual(blake2b256Reference(new Uint8Array(5)));
});

it('blake2b256OfParts is H(H(first) ‖ H(second) ‖ rest), on every cut of inputs up to 400 bytes and past the area', () => {
  const ofParts = (b: Uint8Array, a: number, c: number) => {
    const input = new Uint8Array(64 + b.length - c);
    input.set(blake2b256Reference(b.subarray(0, a)), 0);
    input.set(blake2b256Reference(b.subarray(a, c)), 32);
    input.set(b.subarray(c), 64);
    return blake2b256Reference(input);
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(), fc.nat(), (b, x, y) => {
      const [a, c] = [x % (b.length + 1), y % (b.length + 1)].sort((p, q) => p - q) as [number, number];
      expect(blake2b256OfParts(b, a, c)).toEqual(ofParts(b, a, c));
    }),
    { seed: 2, numRuns: 500 },
  );
  // A tail longer than the module's scratch area, and an input longer than its input area, take the plain path.
  const long = bytes(70_000);
  expect(blake2b256OfParts(long, 89, 69_000)).toEqual(ofParts(long, 89, 69_000));
  expect(blake2b256OfParts(long, 89, 69_900)).toEqual(ofParts(long, 89, 69_900));
  const shortLongTail = bytes(2000);
  expect(blake2b256OfParts(shortLongTail, 10, 1000)).toEqual(ofParts(shortLongTail, 10, 1000));
  expect(blake2b256OfParts(shortLongTail, 10, 1296)).toEqual(ofParts(shortLongTail, 10, 1296));
});

describe('the WebAssembly module itself, driven directly', () => {
  // Every path of src/crypto/hash.ts falls back to @noble/hashes when the module cannot load, so a broken module
  // would still give right digests there: here it is instantiated and called without that net.
  let ex: Blake2bExports;
  let memory: Uint8Array;
  beforeAll(() => {
    ex = new Wasm.Instance(new Wasm.Module(blake2bModuleBytes())).exports as unknown as Blake2bExports;
    memory = new Uint8Array(ex.memory.buffer);
  });
  const digest = () => memory.slice(DIGEST, DIGEST + 32);

  it('is what Node uses once ready', () => {
    expect(hashBackend()).toBe('webassembly');
  });

  it('hash: every length from 0 to 600 bytes, and the whole input area', () => {
    for (const n of [...Array.from({ length: 601 }, (_, i) => i), INPUT_LENGTH - 1, INPUT_LENGTH]) {
      const b = bytes(n, n);
      memory.set(b, INPUT);
      ex.hash(INPUT, n, DIGEST);
      expect(digest(), `${n} bytes`).toEqual(blake2b256Reference(b));
    }
  });

  it('begin, blocks and end: an input fed in chunks of whole blocks, then its last block of 1..128 bytes', () => {
    // The last block is the final one: empty only for the empty input.
    const cases: [number[], number][] = [
      [[0], 0],
      [[1], 1],
      [[2, 3], 128],
      [[5], 77],
      [[0], 5],
    ];
    for (const [chunks, last] of cases) {
      const total = chunks.reduce((a, c) => a + c * 128, 0) + last;
      const b = bytes(total, total);
      ex.begin();
      let t = 0;
      for (const c of chunks) {
        memory.set(b.subarray(t, t + c * 128), INPUT);
        ex.blocks(INPUT, c, t);
        t += c * 128;
      }
      memory.set(b.subarray(t), INPUT + 1000);
      ex.end(INPUT + 1000, last, t, DIGEST);
      expect(digest(), `${chunks} blocks, then ${last} bytes`).toEqual(blake2b256Reference(b));
    }
  });

  it('parts: H(H(first) ‖ H(second) ‖ rest) of Nova-sized blocks, and the 32 bytes after the digest stay zero', () => {
    for (const [n, a, b] of [
      [186, 89, 89],
      [439, 89, 342],
      [1105, 89, 1008],
      [300, 0, 0],
      [300, 0, 300],
      [768 - 64, 0, 0],
    ] as const) {
      const input = bytes(n, a);
      const outer = new Uint8Array(64 + n - b);
      outer.set(blake2b256Reference(input.subarray(0, a)), 0);
      outer.set(blake2b256Reference(input.subarray(a, b)), 32);
      outer.set(input.subarray(b), 64);
      memory.set(input, INPUT);
      ex.parts(INPUT, n, a, b);
      expect(digest(), `${n} bytes cut at ${a}, ${b}`).toEqual(blake2b256Reference(outer));
      expect(memory.slice(DIGEST + 32, DIGEST + 32 + ROOM_AFTER_DIGEST)).toEqual(new Uint8Array(ROOM_AFTER_DIGEST));
    }
  });
});

describe('where WebAssembly is missing or compiles only asynchronously', () => {
  const fresh = async () => {
    vi.resetModules();
    return (await import('../../src/crypto/hash.js')) as typeof import('../../src/crypto/hash.js');
  };
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });
  const check = (h: typeof import('../../src/crypto/hash.js')) => {
    for (const n of [0, 1, 128, 129, 439, 70_000])
      expect(h.blake2b256(bytes(n))).toEqual(blake2b256Reference(bytes(n)));
    const block = bytes(439);
    const id = h.blake2b256OfParts(block, 89, 342, 4);
    expect(id).toHaveLength(36);
    expect(id.subarray(32)).toEqual(new Uint8Array(4));
    const outer = new Uint8Array(161);
    outer.set(blake2b256Reference(block.subarray(0, 89)), 0);
    outer.set(blake2b256Reference(block.subarray(89, 342)), 32);
    outer.set(block.subarray(342), 64);
    expect(id.subarray(0, 32)).toEqual(blake2b256Reference(outer));
  };

  it('no WebAssembly at all: @noble/hashes gives every digest, and ready() resolves', async () => {
    vi.stubGlobal('WebAssembly', undefined);
    const h = await fresh();
    await h.ready();
    expect(h.hashBackend()).toBe('javascript');
    check(h);
  });

  it("a browser's main thread (synchronous compiling refused): @noble/hashes until ready, the module after", async () => {
    const real = Wasm;
    vi.stubGlobal('WebAssembly', {
      ...real,
      instantiate: real.instantiate,
      Instance: real.Instance,
      Module: class {
        constructor() {
          throw new RangeError(
            'WebAssembly.Compile is disallowed on the main thread, if the buffer size is larger than 4KB',
          );
        }
      },
    });
    const h = await fresh();
    expect(h.hashBackend()).toBe('javascript');
    check(h);
    await h.ready();
    expect(h.hashBackend()).toBe('webassembly');
    check(h);
  });

  it('a module that cannot load at all: ready() still resolves, and @noble/hashes keeps answering', async () => {
    vi.stubGlobal('WebAssembly', {
      Module: class {
        constructor() {
          throw new Error('no');
        }
      },
      instantiate: () => Promise.reject(new Error('no')),
    });
    const h = await fresh();
    await h.ready();
    expect(h.hashBackend()).toBe('javascript');
    check(h);
  });
});
