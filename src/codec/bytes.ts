import { type Codec, viaModel } from './codec.js';
import { CodecError, describeValue } from './errors.js';
import { fromHex, hexInto, toHex } from './hex.js';
import { missing, type UintCodec } from './primitives.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

// Byte fields: fixed-length (ids, keys, signatures), length-prefixed (tags, data, metadata) and UTF-8 text behind a
// length. In JSON, bytes are 0x-hex and text is a string.

function checkBytes(v: unknown, pos: number | undefined): asserts v is Uint8Array {
  if (!(v instanceof Uint8Array)) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a Uint8Array, got ${describeValue(v)}`, { offset: pos });
  }
}

/** `ByteArray[n]`: exactly n raw bytes; JSON: 0x hex. Decoding returns a view into the input. */
/* @__NO_SIDE_EFFECTS__ */
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
    writeJson(j: unknown, w: Writer) {
      if (j === undefined) throw missing();
      const m = hexInto(j, w, w.pos);
      if (m !== n) throw new CodecError('LENGTH_OUT_OF_RANGE', `expected ${n} bytes, got ${m}`);
      w.pos += m;
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
/* @__NO_SIDE_EFFECTS__ */
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
    writeJson(j: unknown, w: Writer) {
      if (j === undefined) {
        if (!omitEmptyInJson) throw missing();
        prefix.write(0, w);
        return;
      }
      const m = hexInto(j, w, w.pos + width); // the digits after the room for the length, checked as fromJson does
      checkLen(m, undefined);
      prefix.write(m, w);
      w.pos += m;
    },
  });
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** A UTF-8 string with a length prefix in bytes (`max` bounds it); JSON: the string. */
/* @__NO_SIDE_EFFECTS__ */
export function text(opts: { prefix: UintCodec; max: number }): Codec<string> {
  const bytes = varBytes(opts);
  const check = (v: unknown, pos: number | undefined): string => {
    if (typeof v !== 'string')
      throw new CodecError('VALUE_OUT_OF_RANGE', `expected a string, got ${describeValue(v)}`, { offset: pos });
    return v;
  };
  return viaModel({
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
