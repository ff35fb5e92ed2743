import { CodecError } from './errors.js';
import { pooledCopy } from './pooled.js';
import { Reader } from './reader.js';
import { Writer } from './writer.js';

/** JSON values as produced by `toJson` (plain data, safe for `JSON.stringify`). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * One wire type, declared once: binary read/write, size and JSON both ways all come from the same object, so
 * they cannot drift apart (the iota.js failure mode). Codecs are frozen plain objects built by the
 * constructors in `primitives.ts`, `bytes.ts` and `combinators.ts`.
 */
export interface Codec<T> {
  readonly name: string;
  /** Serialized size when it does not depend on the value. */
  readonly fixedSize: number | undefined;
  /** Upper bound of the serialized size implied by the declared limits. */
  readonly maxSize: number;
  sizeOf(value: T): number;
  write(value: T, w: Writer): void;
  read(r: Reader): T;
  /** Canonical JSON; `undefined` means "omit this key" (empty optional lists, absent payloads). */
  toJson(value: T): Json | undefined;
  /** Parses JSON; receives `undefined` for an absent key and decides whether that is allowed. */
  fromJson(json: unknown): T;
  /**
   * JSON straight to bytes: exactly `write(fromJson(json), w)` (the same bytes, the same first error), without
   * building the model where the codec knows how (hex digits decode into the output, structs and lists pass each
   * field on). Block ids from JSON spend their time here.
   */
  writeJson(json: unknown, w: Writer): void;
}

/** A codec (frozen) whose JSON goes to bytes through its model: `write(fromJson(json))`. */
/* @__NO_SIDE_EFFECTS__ */
// biome-ignore lint/suspicious/noExplicitAny: any codec; the caller's declared type decides which
export function viaModel<C extends Codec<any>>(c: Omit<C, 'writeJson'>): C {
  return Object.freeze({ ...c, writeJson: (j: unknown, w: Writer) => c.write(c.fromJson(j), w) }) as C;
}

export type Infer<C> = C extends Codec<infer T> ? T : never;

/** The initial scratch size covers the largest block; larger (invalid) values grow it, and it shrinks back after. */
const SCRATCH_SIZE = 64 * 1024;
let scratch = new Writer(SCRATCH_SIZE);

export function assertBytes(bytes: unknown, what: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: expected a Uint8Array, got ${typeof bytes}`);
}

/** The models are plain objects; anything else is a caller's mistake (TypeError), not bad data. */
export function assertModel(value: unknown, what: string): asserts value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new TypeError(
      `${what}: expected a ${what} object, got ` +
        `${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
}

/** Strict decode: the whole input must be consumed. */
export function decode<T>(codec: Codec<T>, bytes: Uint8Array): T {
  assertBytes(bytes, `decode ${codec.name}`);
  const r = new Reader(bytes);
  const value = codec.read(r);
  if (r.pos !== bytes.length) {
    throw new CodecError('TRAILING_BYTES', `${bytes.length - r.pos} byte(s) after the end of the ${codec.name}`, {
      offset: r.pos,
    });
  }
  return value;
}

/**
 * Encodes `value` and hands `use` a view of the bytes in the shared scratch buffer, valid only during the call:
 * hashing an encoding (IDs) then needs no copy.
 */
export function withEncoding<T, R>(codec: Codec<T>, value: T, use: (bytes: Uint8Array) => R): R {
  return inScratch((w) => codec.write(value, w), use);
}

/** `withEncoding` of JSON, through `codec.writeJson`: the bytes of `fromJson(json)` without the model. */
export function withJsonEncoding<R>(codec: Codec<unknown>, json: unknown, use: (bytes: Uint8Array) => R): R {
  return inScratch((w) => codec.writeJson(json, w), use);
}

function inScratch<R>(fill: (w: Writer) => void, use: (bytes: Uint8Array) => R): R {
  const w = scratch;
  w.pos = 0;
  try {
    fill(w);
    return use(w.buf.subarray(0, w.pos));
  } finally {
    if (w.buf.length > SCRATCH_SIZE) scratch = new Writer(SCRATCH_SIZE);
  }
}

/**
 * Encodes `value` into a new Uint8Array of exactly its serialized size. Small results share an ArrayBuffer with
 * others (codec/pooled.ts): their `byteOffset` may be non-zero.
 */
export function encode<T>(codec: Codec<T>, value: T): Uint8Array {
  return withEncoding(codec, value, pooledCopy);
}

/** The bytes of `codec.fromJson(json)`, written straight from the JSON (`Codec.writeJson`). */
export function encodeJson(codec: Codec<unknown>, json: unknown): Uint8Array {
  return withJsonEncoding(codec, json, pooledCopy);
}
