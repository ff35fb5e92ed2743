import { type Codec, type Json, viaModel } from './codec.js';
import { CodecError, describeValue } from './errors.js';
import { parseDecimal, parseInteger, parseMinimalHex, writeDecimalU64, writeMinimalHexU256 } from './json-numbers.js';
import type { Reader } from './reader.js';
import { checkU64, checkU256, MAX_U64, MAX_U256, type Writer } from './writer.js';

export function missing(): CodecError {
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
  return viaModel({
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
/* @__NO_SIDE_EFFECTS__ */
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
  writeJson(j: unknown, w: Writer) {
    if (j === undefined) throw missing();
    writeDecimalU64(j, w);
  },
});

/** A boolean as one byte (0 or 1; other bytes refused); JSON: true/false. */
export const bool: Codec<boolean> = viaModel({
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
export const i64: Codec<bigint> = viaModel({
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
/* @__NO_SIDE_EFFECTS__ */
export function u64WithJsonDefault(fallback: bigint): Codec<bigint> {
  return Object.freeze({
    ...u64,
    fromJson: (j: unknown) => (j === undefined ? fallback : u64.fromJson(j)),
    writeJson: (j: unknown, w: Writer) => (j === undefined ? w.u64(fallback) : u64.writeJson(j, w)),
  });
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
  writeJson(j: unknown, w: Writer) {
    if (j === undefined) throw missing();
    writeMinimalHexU256(j, w);
  },
});

/**
 * A type tag that must equal `value`: the first field of every union variant, so each variant decodes on its own
 * and the model carries its `type` exactly as the JSON does.
 */
/* @__NO_SIDE_EFFECTS__ */
export function tag<V extends number>(
  prefix: UintCodec,
  value: V,
  typeName: string,
): Codec<V> & { readonly tagValue: V } {
  const width = prefix.width;
  const readTag = prefix.read;
  const wrong = (got: unknown, pos?: number) =>
    new CodecError('UNKNOWN_TYPE', `expected ${typeName} type ${value}, got ${describeValue(got)}`, { offset: pos });
  return viaModel({
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
/* @__NO_SIDE_EFFECTS__ */
export function constant<V extends string>(value: V): Codec<V> {
  const wrong = (got: unknown, pos?: number) =>
    new CodecError('UNKNOWN_TYPE', `expected ${JSON.stringify(value)}, got ${describeValue(got)}`, { offset: pos });
  return viaModel({
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
