import { blake2b256 } from './hash.js';

// TIP-12 proof of work (TIP-5 b1t6, Curl-P-81):
//   digest = BLAKE2b-256(block without its 8 nonce bytes)
//   hash   = Curl-P-81( b1t6(digest) ‖ b1t6(nonce as 8 LE bytes) ‖ 0 0 0 )   — exactly 243 trits, one absorb
//   score  = 3^(trailing zero trits of hash) / length of the whole block

const HASH_TRITS = 243;
const STATE_TRITS = 729;
const ROUNDS = 81;
const NONCE_TRIT_OFFSET = 192; // 32 digest bytes × 6 trits

/** TIP-5 b1t6: each byte as a signed int8 v = t0 + 27·t1 (balanced trytes), each tryte as 3 balanced trits. */
export function b1t6(bytes: Uint8Array, out: Int8Array = new Int8Array(bytes.length * 6), offset = 0): Int8Array {
  for (let i = 0; i < bytes.length; i++) {
    const v = (bytes[i]! << 24) >> 24; // as int8
    const hi = Math.floor((v + 13) / 27);
    tryteToTrits(v - 27 * hi, out, offset + 6 * i);
    tryteToTrits(hi, out, offset + 6 * i + 3);
  }
  return out;
}

function tryteToTrits(t: number, out: Int8Array, at: number): void {
  for (let k = 0; k < 3; k++) {
    let r = t % 3; // in -2..2
    t = (t - r) / 3;
    if (r > 1) {
      r -= 3;
      t += 1;
    } else if (r < -1) {
      r += 3;
      t -= 1;
    }
    out[at + k] = r;
  }
}

const TRYTE_ALPHABET = '9ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Trits to the tryte alphabet (for tests against TIP-5/TIP-12 examples). */
export function tritsToTrytes(trits: Int8Array): string {
  let s = '';
  for (let i = 0; i + 2 < trits.length; i += 3) {
    const v = trits[i]! + 3 * trits[i + 1]! + 9 * trits[i + 2]!;
    s += TRYTE_ALPHABET[(v + 27) % 27];
  }
  return s;
}

const TRUTH_TABLE = Int8Array.from([1, 0, -1, 2, 1, -1, 0, 2, -1, 1, 0]);

/** Curl-P-81 of exactly 243 trits (one absorb), returning the 243-trit hash. */
export function curlP81(input: Int8Array): Int8Array {
  if (input.length !== HASH_TRITS) throw new RangeError(`curlP81: expected ${HASH_TRITS} trits`);
  let state = new Int8Array(STATE_TRITS);
  let scratch = new Int8Array(STATE_TRITS);
  state.set(input);
  for (let round = 0; round < ROUNDS; round++) {
    [state, scratch] = [scratch, state];
    let idx = 0;
    for (let i = 0; i < STATE_TRITS; i++) {
      const prev = idx;
      idx += idx < 365 ? 364 : -365;
      state[i] = TRUTH_TABLE[scratch[prev]! + (scratch[idx]! << 2) + 5]!;
    }
  }
  return state.slice(0, HASH_TRITS);
}

function trailingZeros(hash: Int8Array): number {
  let n = 0;
  for (let i = HASH_TRITS - 1; i >= 0 && hash[i] === 0; i--) n++;
  return n;
}

function curlInput(digest: Uint8Array, nonce: Uint8Array): Int8Array {
  const trits = new Int8Array(HASH_TRITS); // the last 3 stay 0
  b1t6(digest, trits, 0);
  b1t6(nonce, trits, NONCE_TRIT_OFFSET);
  return trits;
}

/** Trailing zero trits of the TIP-12 hash of a whole block (nonce in its last 8 bytes). */
export function powTrailingZeros(blockBytes: Uint8Array): number {
  if (!(blockBytes instanceof Uint8Array)) throw new TypeError('powScore: expected a Uint8Array');
  if (blockBytes.length < 8) throw new RangeError('powScore: a block ends with an 8-byte nonce');
  const body = blockBytes.subarray(0, blockBytes.length - 8);
  return trailingZeros(curlP81(curlInput(blake2b256(body), blockBytes.subarray(blockBytes.length - 8))));
}

/** TIP-12 score of a whole serialized block: 3^trailingZeros / block length. @throws TypeError, RangeError */
export function powScore(blockBytes: Uint8Array): number {
  return 3 ** powTrailingZeros(blockBytes) / blockBytes.length;
}

// ---- Nonce search: Curl bit-sliced over 32 nonces at once (the PearlDiver technique) --------------------------
// Each trit of 32 parallel states is two 32-bit words (lo, hi): -1 = (1, 0), 0 = (1, 1), +1 = (0, 1).

function bitslicedTransform(lo: Int32Array, hi: Int32Array, lo2: Int32Array, hi2: Int32Array): void {
  for (let round = 0; round < ROUNDS; round++) {
    lo2.set(lo);
    hi2.set(hi);
    let idx = 0;
    for (let i = 0; i < STATE_TRITS; i++) {
      const alpha = lo2[idx]!;
      const beta = hi2[idx]!;
      idx += idx < 365 ? 364 : -365;
      const gamma = hi2[idx]!;
      const delta = (alpha | ~gamma) & (lo2[idx]! ^ beta);
      lo[i] = ~delta;
      hi[i] = (alpha ^ gamma) | delta;
    }
  }
}

const LANES = 32;

/** Curl-P-81 of 32 inputs at once (exported for the test that pins it to the scalar version). */
export function curlP81x32(inputs: readonly Int8Array[]): Int8Array[] {
  const lo = new Int32Array(STATE_TRITS).fill(-1);
  const hi = new Int32Array(STATE_TRITS).fill(-1);
  inputs.forEach((trits, lane) => setLane(lo, hi, trits, 0, HASH_TRITS, lane));
  bitslicedTransform(lo, hi, new Int32Array(STATE_TRITS), new Int32Array(STATE_TRITS));
  return inputs.map((_, lane) => {
    const out = new Int8Array(HASH_TRITS);
    for (let i = 0; i < HASH_TRITS; i++) {
      const l = (lo[i]! >>> lane) & 1;
      const h = (hi[i]! >>> lane) & 1;
      out[i] = l & h ? 0 : l ? -1 : 1;
    }
    return out;
  });
}

function setLane(lo: Int32Array, hi: Int32Array, trits: Int8Array, from: number, to: number, lane: number): void {
  const bit = 1 << lane;
  for (let i = from; i < to; i++) {
    const t = trits[i]!;
    lo[i] = t === 1 ? lo[i]! & ~bit : lo[i]! | bit; // lo bit set for -1 and 0
    hi[i] = t === -1 ? hi[i]! & ~bit : hi[i]! | bit; // hi bit set for 0 and +1
  }
}

export interface FindNonceOptions {
  /** First nonce tried (default 0). */
  start?: bigint;
  /** Give up after this many nonces (default: unbounded). */
  maxAttempts?: number;
}

/**
 * Finds a nonce that gives `blockWithoutNonce ‖ nonce` a TIP-12 score ≥ `targetScore`. Returns the nonce, or
 * undefined if `maxAttempts` ran out. Runs 32 candidates per Curl transform.
 */
export function findNonce(
  blockWithoutNonce: Uint8Array,
  targetScore: number,
  options: FindNonceOptions = {},
): bigint | undefined {
  if (!(blockWithoutNonce instanceof Uint8Array)) throw new TypeError('findNonce: expected a Uint8Array');
  if (!(targetScore >= 0)) throw new RangeError('findNonce: targetScore must be a non-negative number');
  const length = blockWithoutNonce.length + 8;
  let needed = 0;
  while (3 ** needed < targetScore * length) needed++;
  if (needed > HASH_TRITS) throw new RangeError('findNonce: target score unreachable');
  const base = curlInput(blake2b256(blockWithoutNonce), new Uint8Array(8));
  const baseLo = new Int32Array(STATE_TRITS).fill(-1);
  const baseHi = new Int32Array(STATE_TRITS).fill(-1);
  for (let lane = 0; lane < LANES; lane++) setLane(baseLo, baseHi, base, 0, HASH_TRITS, lane);
  const lo = new Int32Array(STATE_TRITS);
  const hi = new Int32Array(STATE_TRITS);
  const lo2 = new Int32Array(STATE_TRITS);
  const hi2 = new Int32Array(STATE_TRITS);
  const nonceBytes = new Uint8Array(8);
  const nonceView = new DataView(nonceBytes.buffer);
  const nonceTrits = new Int8Array(HASH_TRITS);
  const max = options.maxAttempts ?? Infinity;
  let nonce = options.start ?? 0n;
  for (let tried = 0; tried < max; tried += LANES) {
    lo.set(baseLo);
    hi.set(baseHi);
    for (let lane = 0; lane < LANES; lane++) {
      nonceView.setBigUint64(0, (nonce + BigInt(lane)) & 0xffffffffffffffffn, true);
      b1t6(nonceBytes, nonceTrits, NONCE_TRIT_OFFSET);
      setLane(lo, hi, nonceTrits, NONCE_TRIT_OFFSET, NONCE_TRIT_OFFSET + 48, lane);
    }
    bitslicedTransform(lo, hi, lo2, hi2);
    let lanes = -1;
    for (let i = HASH_TRITS - needed; i < HASH_TRITS && lanes !== 0; i++) lanes &= lo[i]! & hi[i]!;
    if (lanes !== 0) {
      const lane = 31 - Math.clz32(lanes & -lanes);
      return (nonce + BigInt(lane)) & 0xffffffffffffffffn;
    }
    nonce += BigInt(LANES);
  }
  return undefined;
}
