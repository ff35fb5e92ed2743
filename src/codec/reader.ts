import { CodecError } from './errors.js';

/**
 * Bounds-checked cursor over a byte array. Every read checks the bytes left against `end` before it touches
 * memory, so a length prefix is never trusted before it is compared with what remains. Byte fields are
 * returned as `subarray` views (no copy); callers that keep them beyond the input's life copy them once.
 */
export class Reader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  pos: number;
  /** Exclusive read limit; narrowed temporarily while a length-prefixed payload is read. */
  end: number;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
    this.end = bytes.length;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  truncated(need: number): CodecError {
    return new CodecError('TRUNCATED', `need ${need} byte(s), ${this.end - this.pos} left`, { offset: this.pos });
  }

  u8(): number {
    if (this.pos >= this.end) throw this.truncated(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    const p = this.pos;
    if (p + 2 > this.end) throw this.truncated(2);
    this.pos = p + 2;
    return this.bytes[p]! | (this.bytes[p + 1]! << 8);
  }

  u32(): number {
    const p = this.pos;
    if (p + 4 > this.end) throw this.truncated(4);
    this.pos = p + 4;
    return this.view.getUint32(p, true);
  }

  u64(): bigint {
    const p = this.pos;
    if (p + 8 > this.end) throw this.truncated(8);
    this.pos = p + 8;
    return this.view.getBigUint64(p, true);
  }

  /** uint256, little-endian on the wire: four LE 64-bit words, least significant first. */
  u256(): bigint {
    const p = this.pos;
    if (p + 32 > this.end) throw this.truncated(32);
    this.pos = p + 32;
    const v = this.view;
    const w0 = v.getBigUint64(p, true);
    const w1 = v.getBigUint64(p + 8, true);
    const w2 = v.getBigUint64(p + 16, true);
    const w3 = v.getBigUint64(p + 24, true);
    if ((w1 | w2 | w3) === 0n) return w0; // the common case: small token amounts
    return w0 | (w1 << 64n) | (w2 << 128n) | (w3 << 192n);
  }

  /** A view of the next `n` bytes (no copy). */
  take(n: number): Uint8Array {
    const p = this.pos;
    if (n > this.end - p) throw this.truncated(n);
    this.pos = p + n;
    return this.bytes.subarray(p, p + n);
  }
}
