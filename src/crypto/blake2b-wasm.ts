import { Code, I32, I64, type WasmFunction, wasmModule } from './wasm-encoder.js';

// BLAKE2b-256 (RFC 7693: 32-byte digest, no key, salt or personalisation) as a WebAssembly module, written out here
// from the RFC's definition at load time.
//
// Why not hash-wasm alone: every id of both protocols hashes a short input (a block, a header, two ids), and there
// hash-wasm's BLAKE2b spends more on each call than on the compression itself: its JavaScript wrapper allocates three
// views per call, and its module zeroes, pads and copies byte by byte (about 0.45 µs a call beside 0.24 µs for each
// 128-byte block, on the bench machine). TIP-46's block id hashes three inputs, so that cost is paid three times. Here
// a whole input is hashed by one call, the last block is padded with `memory.fill`, and the digest stays in memory
// until the caller copies it out. The result is checked against @noble/hashes on every length in the tests.

/** BLAKE2b's initialisation vector (RFC 7693 §2.6: SHA-512's). */
const IV = [
  0x6a09e667f3bcc908n,
  0xbb67ae8584caa73bn,
  0x3c6ef372fe94f82bn,
  0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n,
  0x9b05688c2b3e6c1fn,
  0x1f83d9abfb41bd6bn,
  0x5be0cd19137e2179n,
];

/** The message schedule of each of the 12 rounds (RFC 7693 §2.7; rounds 10 and 11 repeat 0 and 1). */
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/** Parameter block word 0 for a 32-byte digest, no key, fanout 1, depth 1 (RFC 7693 §2.5). */
const PARAMETERS = 0x01010020n;

/** Memory layout: the chaining value h, a digest, the padded last block, the caller's area, the input. */
const STATE = 0;
export const DIGEST = 64;
/** Nothing writes the 32 bytes after the digest: they stay zero, room for what a caller appends to a digest. */
export const ROOM_AFTER_DIGEST = 32;
const LAST_BLOCK = 128;
/** Where `parts` builds the input of its outer hash: two digests and the tail, up to 768 bytes. */
const SCRATCH = 256;
export const SCRATCH_LENGTH = 768;
export const INPUT = 1024;
/** Inputs up to this length are hashed by one call; longer ones in chunks of it (a multiple of the block). */
export const INPUT_LENGTH = 65536;
const PAGES = 2;

const BLOCK = 128;
const [COMPRESS, BEGIN, BLOCKS, END, HASH] = [0, 1, 2, 3, 4];

/** F (RFC 7693 §3.2) on the block at `ptr` with byte counter `t` and final flag `f`; h is updated in memory. */
function compress(): WasmFunction {
  const [ptr, t, f] = [0, 1, 2];
  const m = (i: number) => 3 + i;
  const v = (i: number) => 19 + i;
  const c = new Code();
  for (let i = 0; i < 16; i++)
    c.get(ptr)
      .i64Load(8 * i)
      .set(m(i));
  for (let i = 0; i < 8; i++)
    c.i32Const(STATE)
      .i64Load(8 * i)
      .set(v(i));
  for (let i = 0; i < 8; i++) {
    c.i64Const(IV[i]!);
    if (i === 4) c.get(t).i64Xor(); // the high word of the counter stays 0: inputs are below 2^32 bytes
    if (i === 6) c.get(f).i64Xor();
    c.set(v(8 + i));
  }
  // G: a += b + x; d = (d ^ a) >>> 32; c += d; b = (b ^ c) >>> 24; then the same with y and rotations 16, 63.
  const addTo = (a: number, b: number, x?: number) => {
    c.get(a).get(b).i64Add();
    if (x !== undefined) c.get(x).i64Add();
    c.set(a);
  };
  const xorRotate = (d: number, a: number, r: number) => c.get(d).get(a).i64Xor().i64Const(BigInt(r)).i64Rotr().set(d);
  const MIX = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
  ];
  for (let round = 0; round < 12; round++) {
    const s = SIGMA[round % 10]!;
    MIX.forEach((lanes, i) => {
      const [a, b, cc, d] = lanes.map(v) as [number, number, number, number];
      for (const [x, r1, r2] of [
        [m(s[2 * i]!), 32, 24],
        [m(s[2 * i + 1]!), 16, 63],
      ] as const) {
        addTo(a, b, x);
        xorRotate(d, a, r1);
        addTo(cc, d);
        xorRotate(b, cc, r2);
      }
    });
  }
  for (let i = 0; i < 8; i++) {
    c.i32Const(STATE)
      .i32Const(STATE)
      .i64Load(8 * i)
      .get(v(i))
      .i64Xor()
      .get(v(i + 8))
      .i64Xor()
      .i64Store(8 * i);
  }
  return { params: [I32, I64, I64], locals: { count: 32, type: I64 }, code: c };
}

/** h = IV ^ parameter block. */
function begin(): WasmFunction {
  const c = new Code();
  IV.forEach((iv, i) =>
    c
      .i32Const(STATE)
      .i64Const(i === 0 ? iv ^ PARAMETERS : iv)
      .i64Store(8 * i),
  );
  return { params: [], locals: { count: 0, type: I32 }, code: c, export: 'begin' };
}

/** `n` blocks at `ptr`, none of them the last, after `t` bytes already hashed. */
function blocks(): WasmFunction {
  const [ptr, n, t] = [0, 1, 2];
  const c = new Code().block().loop().get(n).i32Eqz().brIf(1);
  c.get(t).i32Const(BLOCK).i32Add().set(t);
  c.get(ptr).get(t).i64ExtendI32U().i64Const(0n).call(COMPRESS);
  c.get(ptr).i32Const(BLOCK).i32Add().set(ptr);
  c.get(n).i32Const(1).i32Sub().set(n).br(0).end().end();
  return { params: [I32, I32, I32], locals: { count: 0, type: I32 }, code: c, export: 'blocks' };
}

/** The last `len` bytes at `ptr` (1..128; 0 only for the empty input), after `t` bytes: padded, flagged final. */
function end(): WasmFunction {
  const [ptr, len, t, out] = [0, 1, 2, 3];
  const c = new Code().i32Const(LAST_BLOCK).get(ptr).get(len).memoryCopy();
  c.i32Const(LAST_BLOCK).get(len).i32Add().i32Const(0).i32Const(BLOCK).get(len).i32Sub().memoryFill();
  c.i32Const(LAST_BLOCK).get(t).get(len).i32Add().i64ExtendI32U().i64Const(-1n).call(COMPRESS);
  for (let i = 0; i < 4; i++)
    c.get(out)
      .i32Const(STATE)
      .i64Load(8 * i)
      .i64Store(8 * i);
  return { params: [I32, I32, I32, I32], locals: { count: 0, type: I32 }, code: c, export: 'end' };
}

/** The whole input of `len` bytes at `ptr` (len < 2^32), its digest to `out`: begin, every block but the last, end. */
function hash(): WasmFunction {
  const [ptr, len, out, full] = [0, 1, 2, 3];
  const c = new Code().call(BEGIN);
  // full = len > 0 ? (len - 1) >> 7 << 7 : 0, the bytes before the last block (the empty input is one empty block)
  c.get(len).i32Const(1).i32Sub().i32Const(7).i32ShrU().i32Const(7).i32Shl();
  c.i32Const(0).get(len).select().set(full);
  c.get(ptr).get(full).i32Const(7).i32ShrU().i32Const(0).call(BLOCKS);
  c.get(ptr).get(full).i32Add().get(len).get(full).i32Sub().get(full).get(out).call(END);
  return { params: [I32, I32, I32], locals: { count: 1, type: I32 }, code: c, export: 'hash' };
}

/**
 * H(H(bytes[0, a)) ‖ H(bytes[a, b)) ‖ bytes[b, len)) of the `len` bytes at `ptr` (TIP-46's block identifier, whose
 * parts are a block's header, body and signature), to DIGEST; the caller's area holds the input of the outer hash.
 */
function parts(): WasmFunction {
  const [ptr, len, a, b] = [0, 1, 2, 3];
  const c = new Code().get(ptr).get(a).i32Const(SCRATCH).call(HASH);
  c.get(ptr)
    .get(a)
    .i32Add()
    .get(b)
    .get(a)
    .i32Sub()
    .i32Const(SCRATCH + 32)
    .call(HASH);
  c.i32Const(SCRATCH + 64)
    .get(ptr)
    .get(b)
    .i32Add()
    .get(len)
    .get(b)
    .i32Sub()
    .memoryCopy();
  c.i32Const(SCRATCH).i32Const(64).get(len).i32Add().get(b).i32Sub().i32Const(DIGEST).call(HASH);
  return { params: [I32, I32, I32, I32], locals: { count: 0, type: I32 }, code: c, export: 'parts' };
}

export interface Blake2bExports {
  memory: { buffer: ArrayBuffer };
  begin(): void;
  blocks(ptr: number, n: number, t: number): void;
  end(ptr: number, len: number, t: number, out: number): void;
  hash(ptr: number, len: number, out: number): void;
  parts(ptr: number, len: number, a: number, b: number): void;
}

/** The module's bytes; function indices follow COMPRESS, BEGIN, BLOCKS, END, HASH. */
export function blake2bModuleBytes(): Uint8Array {
  return wasmModule(PAGES, [compress(), begin(), blocks(), end(), hash(), parts()]);
}
