import { CodecError, describeValue } from './errors.js';

const MAX_U64 = (1n << 64n) - 1n;
const MAX_U256 = (1n << 256n) - 1n;
const MASK64 = MAX_U64;

/**
 * Growable output buffer. Encoders write straight into it; `encode` copies out exactly the bytes written.
 * The module keeps one instance for all top-level encodes (encoding is synchronous and never re-entered), so
 * steady-state encoding allocates only the result.
 */
export class Writer {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    this.ensure(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  u64(v: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, true);
    this.pos += 8;
  }

  u256(v: bigint): void {
    this.ensure(32);
    const d = this.view;
    const p = this.pos;
    d.setBigUint64(p, v & MASK64, true);
    d.setBigUint64(p + 8, (v >> 64n) & MASK64, true);
    d.setBigUint64(p + 16, (v >> 128n) & MASK64, true);
    d.setBigUint64(p + 24, v >> 192n, true);
    this.pos = p + 32;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
}

export function checkU64(v: unknown, pos: number | undefined): asserts v is bigint {
  if (typeof v !== 'bigint' || v < 0n || v > MAX_U64) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a bigint in 0..2^64-1, got ${describeValue(v)}`, {
      offset: pos,
    });
  }
}

export function checkU256(v: unknown, pos: number | undefined): asserts v is bigint {
  if (typeof v !== 'bigint' || v < 0n || v > MAX_U256) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a bigint in 0..2^256-1, got ${describeValue(v)}`, {
      offset: pos,
    });
  }
}

export { MAX_U64, MAX_U256 };
