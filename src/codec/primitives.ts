import type { Codec, Json } from './codec.js';
import { CodecError, describeValue } from './errors.js';
import { fromHex, toHex } from './hex.js';
import { parseDecimal, parseInteger, parseMinimalHex } from './json-numbers.js';
import type { Reader } from './reader.js';
import { checkU64, checkU256, MAX_U64, MAX_U256, type Writer } from './writer.js';

function missing(): CodecError {
  return new CodecError('MISSING_FIELD', 'required');
}

function checkInt(v: unknown, max: number, pos: number | undefined): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected an integer in 0..${max}, got ${describeValue(v)}`, {
      offset: pos,
    });
  }
}

/** Unsigned little-endian integer that fits a JavaScript number (u8, u16, u32), optionally range-limited. */
export interface UintCodec extends Codec<number> {
  readonly width: 1 | 2 | 4;
  readonly max: number;
}

function uint(width: 1 | 2 | 4, max: number, min = 0): UintCodec {
  const name = `u${width * 8}`;
  const read = width === 1 ? (r: Reader) => r.u8() : width === 2 ? (r: Reader) => r.u16() : (r: Reader) => r.u32();
  const put =
    width === 1
      ? (w: Writer, v: number) => w.u8(v)
      : width === 2
        ? (w: Writer, v: number) => w.u16(v)
        : (w: Writer, v: number) => w.u32(v);
  const full = 2 ** (width * 8) - 1;
  const bounded = max !== full || min !== 0;
  return Object.freeze({
    name,
    width,
    max,
    fixedSize: width,
    maxSize: width,
    sizeOf: () => width,
    write(v: number, w: Writer) {
      checkInt(v, max, w.pos);
      if (v < min) throw new CodecError('VALUE_OUT_OF_RANGE', `expected at least ${min}, got ${v}`, { offset: w.pos });
      put(w, v);
    },
    read: bounded
      ? (r: Reader) => {
          const at = r.pos;
          const v = read(r);
          if (v > max || v < min)
            throw new CodecError('VALUE_OUT_OF_RANGE', `expected ${min}..${max}, got ${v}`, { offset: at });
          return v;
        }
      : read,
    toJson(v: number) {
      checkInt(v, max, undefined);
      return v;
    },
    fromJson(j: unknown) {
      if (j === undefined) throw missing();
      const v = parseInteger(j, max);
      if (v < min) throw new CodecError('VALUE_OUT_OF_RANGE', `expected at least ${min}, got ${v}`);
      return v;
    },
  });
}

export const u8 = uint(1, 0xff);
export const u16 = uint(2, 0xffff);
export const u32 = uint(4, 0xffffffff);

/** A u8/u16/u32 restricted to `min..max` on decode, encode and JSON. */
export function uintRange(base: UintCodec, min: number, max: number): UintCodec {
  return uint(base.width, max, min);
}

/** uint64 as bigint; JSON: decimal string. */
export const u64: Codec<bigint> = Object.freeze({
  name: 'u64',
  fixedSize: 8,
  maxSize: 8,
  sizeOf: () => 8,
  write(v: bigint, w: Writer) {
    checkU64(v, w.pos);
    w.u64(v);
  },
  read: (r: Reader) => r.u64(),
  toJson(v: bigint) {
    checkU64(v, undefined);
    return v.toString();
  },
  fromJson(j: unknown) {
    if (j === undefined) throw missing();
    return parseDecimal(j, MAX_U64);
  },
});

/** A boolean as one byte (0 or 1; other bytes refused); JSON: true/false. */
export const bool: Codec<boolean> = Object.freeze({
  name: 'bool',
  fixedSize: 1,
  maxSize: 1,
  sizeOf: () => 1,
  write(v: boolean, w: Writer) {
    if (typeof v !== 'boolean')
      throw new CodecError('VALUE_OUT_OF_RANGE', `expected a boolean, got ${describeValue(v)}`, { offset: w.pos });
    w.u8(v ? 1 : 0);
  },
  read(r: Reader) {
    const at = r.pos;
    const b = r.u8();
    if (b > 1) throw new CodecError('VALUE_OUT_OF_RANGE', `expected 0 or 1, got ${b}`, { offset: at });
    return b === 1;
  },
  toJson(v: boolean) {
    if (typeof v !== 'boolean')
      throw new CodecError('VALUE_OUT_OF_RANGE', `expected a boolean, got ${describeValue(v)}`);
    return v;
  },
  fromJson(j: unknown) {
    if (j === undefined) throw missing();
    if (typeof j !== 'boolean')
      throw new CodecError('INVALID_VALUE', `expected true or false, got ${describeValue(j)}`);
    return j;
  },
});

const MIN_I64 = -(1n << 63n);
const MAX_I64 = (1n << 63n) - 1n;
const I64_RE = /^-?(?:0|[1-9][0-9]*)$/;

function checkI64(v: unknown, pos: number | undefined): asserts v is bigint {
  if (typeof v !== 'bigint' || v < MIN_I64 || v > MAX_I64) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a bigint in -2^63..2^63-1, got ${describeValue(v)}`, {
      offset: pos,
    });
  }
}

/** int64 (two's complement LE) as bigint; JSON: signed decimal string (block issuance credits may be negative). */
export const i64: Codec<bigint> = Object.freeze({
  name: 'i64',
  fixedSize: 8,
  maxSize: 8,
  sizeOf: () => 8,
  write(v: bigint, w: Writer) {
    checkI64(v, w.pos);
    w.u64(BigInt.asUintN(64, v));
  },
  read: (r: Reader) => BigInt.asIntN(64, r.u64()),
  toJson(v: bigint) {
    checkI64(v, undefined);
    return v.toString();
  },
  fromJson(j: unknown) {
    if (j === undefined) throw missing();
    if (typeof j !== 'string' || j.length > 21 || !I64_RE.test(j) || j === '-0') {
      throw new CodecError('INVALID_VALUE', `expected a signed decimal string, got ${describeValue(j)}`);
    }
    const v = BigInt(j);
    checkI64(v, undefined);
    return v;
  },
});

/** A u64 that JSON may omit, reading as `fallback` (GO decodes a missing block nonce as 0). */
export function u64WithJsonDefault(fallback: bigint): Codec<bigint> {
  return Object.freeze({ ...u64, fromJson: (j: unknown) => (j === undefined ? fallback : u64.fromJson(j)) });
}

/** uint256 as bigint (32 bytes LE); JSON: 0x + minimal big-endian hex (GO hexutil.EncodeBig). */
export const u256: Codec<bigint> = Object.freeze({
  name: 'u256',
  fixedSize: 32,
  maxSize: 32,
  sizeOf: () => 32,
  write(v: bigint, w: Writer) {
    checkU256(v, w.pos);
    w.u256(v);
  },
  read: (r: Reader) => r.u256(),
  toJson(v: bigint) {
    checkU256(v, undefined);
    return `0x${v.toString(16)}`;
  },
  fromJson(j: unknown) {
    if (j === undefined) throw missing();
    return parseMinimalHex(j, MAX_U256);
  },
});

function checkBytes(v: unknown, pos: number | undefined): asserts v is Uint8Array {
  if (!(v instanceof Uint8Array)) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a Uint8Array, got ${describeValue(v)}`, { offset: pos });
  }
}

/** `ByteArray[n]`: exactly n raw bytes; JSON: 0x hex. Decoding returns a view into the input. */
export function fixedBytes(n: number): Codec<Uint8Array> {
  return Object.freeze({
    name: `bytes${n}`,
    fixedSize: n,
    maxSize: n,
    sizeOf: () => n,
    write(v: Uint8Array, w: Writer) {
      checkBytes(v, w.pos);
      if (v.length !== n)
        throw new CodecError('LENGTH_OUT_OF_RANGE', `expected ${n} bytes, got ${v.length}`, { offset: w.pos });
      w.bytes(v);
    },
    read: (r: Reader) => r.take(n),
    toJson(v: Uint8Array) {
      checkBytes(v, undefined);
      if (v.length !== n) throw new CodecError('LENGTH_OUT_OF_RANGE', `expected ${n} bytes, got ${v.length}`);
      return toHex(v);
    },
    fromJson(j: unknown) {
      if (j === undefined) throw missing();
      const b = fromHex(j);
      if (b.length !== n) throw new CodecError('LENGTH_OUT_OF_RANGE', `expected ${n} bytes, got ${b.length}`);
      return b;
    },
  });
}

export interface VarBytesOptions {
  prefix: UintCodec;
  min?: number;
  max: number;
  /** Canonical JSON omits the key when empty (tagged-data tag/data); absent then reads as empty. */
  omitEmptyInJson?: boolean;
}

/**
 * `(uintX)ByteArray`: a length prefix then that many bytes. The length is checked against `min..max` and
 * against the bytes left before anything is read.
 */
export function varBytes(opts: VarBytesOptions): Codec<Uint8Array> {
  const { prefix, max, omitEmptyInJson = false } = opts;
  const min = opts.min ?? 0;
  const width = prefix.width;
  const readLen = prefix.read;
  const EMPTY = new Uint8Array(0);
  const checkLen = (len: number, pos: number | undefined) => {
    if (len < min || len > max)
      throw new CodecError('LENGTH_OUT_OF_RANGE', `length ${len} outside ${min}..${max}`, { offset: pos });
  };
  return Object.freeze({
    name: `bytes<${min}..${max}>`,
    fixedSize: undefined,
    maxSize: width + max,
    sizeOf: (v: Uint8Array) => width + v.length,
    write(v: Uint8Array, w: Writer) {
      checkBytes(v, w.pos);
      checkLen(v.length, w.pos);
      prefix.write(v.length, w);
      w.bytes(v);
    },
    read(r: Reader) {
      const at = r.pos;
      const len = readLen(r);
      checkLen(len, at);
      return r.take(len);
    },
    toJson(v: Uint8Array) {
      checkBytes(v, undefined);
      checkLen(v.length, undefined);
      return omitEmptyInJson && v.length === 0 ? undefined : toHex(v);
    },
    fromJson(j: unknown) {
      if (j === undefined) {
        if (omitEmptyInJson) return EMPTY;
        throw missing();
      }
      const b = fromHex(j);
      checkLen(b.length, undefined);
      return b;
    },
  });
}

/**
 * A type tag that must equal `value`: the first field of every union variant, so each variant decodes on its own
 * and the model carries its `type` exactly as the JSON does.
 */
export function tag<V extends number>(
  prefix: UintCodec,
  value: V,
  typeName: string,
): Codec<V> & { readonly tagValue: V } {
  const width = prefix.width;
  const readTag = prefix.read;
  const wrong = (got: unknown, pos?: number) =>
    new CodecError('UNKNOWN_TYPE', `expected ${typeName} type ${value}, got ${describeValue(got)}`, { offset: pos });
  return Object.freeze({
    name: `${typeName}#${value}`,
    tagValue: value,
    fixedSize: width,
    maxSize: width,
    sizeOf: () => width,
    write(v: V, w: Writer) {
      if (v !== value) throw wrong(v, w.pos);
      prefix.write(v, w);
    },
    read(r: Reader) {
      const at = r.pos;
      const v = readTag(r);
      if (v !== value) throw wrong(v, at);
      return value;
    },
    toJson(v: V) {
      if (v !== value) throw wrong(v);
      return value as Json;
    },
    fromJson(j: unknown) {
      if (j === undefined) throw missing();
      if (j !== value) throw wrong(j);
      return value;
    },
  });
}

/**
 * A constant string: nothing on the wire (the position implies it), the string itself in JSON. The `type` of a line
 * in a history file ("block", "commit") is one.
 */
export function constant<V extends string>(value: V): Codec<V> {
  const wrong = (got: unknown, pos?: number) =>
    new CodecError('UNKNOWN_TYPE', `expected ${JSON.stringify(value)}, got ${describeValue(got)}`, { offset: pos });
  return Object.freeze({
    name: JSON.stringify(value),
    fixedSize: 0,
    maxSize: 0,
    sizeOf: () => 0,
    write(v: V, w: Writer) {
      if (v !== value) throw wrong(v, w.pos);
    },
    read: () => value,
    toJson(v: V) {
      if (v !== value) throw wrong(v);
      return value;
    },
    fromJson(j: unknown) {
      if (j === undefined) throw missing();
      if (j !== value) throw wrong(j);
      return value;
    },
  });
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** A UTF-8 string with a length prefix in bytes (`max` bounds it); JSON: the string. */
export function text(opts: { prefix: UintCodec; max: number }): Codec<string> {
  const bytes = varBytes(opts);
  const check = (v: unknown, pos: number | undefined): string => {
    if (typeof v !== 'string')
      throw new CodecError('VALUE_OUT_OF_RANGE', `expected a string, got ${describeValue(v)}`, { offset: pos });
    return v;
  };
  return Object.freeze({
    name: `text<${opts.max}>`,
    fixedSize: undefined,
    maxSize: bytes.maxSize,
    sizeOf: (v: string) => bytes.sizeOf(utf8Encoder.encode(v)),
    write: (v: string, w: Writer) => bytes.write(utf8Encoder.encode(check(v, w.pos)), w),
    read(r: Reader) {
      const at = r.pos;
      try {
        return utf8Decoder.decode(bytes.read(r));
      } catch (e) {
        if (e instanceof CodecError) throw e;
        throw new CodecError('INVALID_VALUE', 'not UTF-8', { offset: at });
      }
    },
    toJson: (v: string) => check(v, undefined),
    fromJson(j: unknown) {
      if (j === undefined) throw missing();
      if (typeof j !== 'string') throw new CodecError('INVALID_VALUE', `expected a string, got ${describeValue(j)}`);
      if (utf8Encoder.encode(j).length > opts.max)
        throw new CodecError('LENGTH_OUT_OF_RANGE', `longer than ${opts.max} bytes`);
      return j;
    },
  });
}
