import type { Codec, Json } from './codec.js';
import { atPath, CodecError, describeValue } from './errors.js';
import type { UintCodec } from './primitives.js';
import type { Reader } from './reader.js';
import type { StructCodec } from './struct.js';
import type { Writer } from './writer.js';

export interface ArrayOptions {
  prefix: UintCodec;
  min: number;
  max: number;
  /** Canonical JSON omits an empty list (nativeTokens, features); an absent key then reads as []. */
  omitEmptyInJson?: boolean;
}

/** An array codec, with what a layout needs of its declaration (layout.ts). */
export interface ArrayCodec<T> extends Codec<T[]> {
  readonly element: Codec<T>;
  /** Bytes of the count prefix. */
  readonly prefixWidth: number;
}

/** A count prefix, checked against `min..max` before any element is read, then the elements back to back. */
/* @__NO_SIDE_EFFECTS__ */
export function arrayOf<T>(elem: Codec<T>, opts: ArrayOptions): ArrayCodec<T> {
  const { prefix, min, max, omitEmptyInJson = false } = opts;
  const width = prefix.width;
  const readCount = prefix.read;
  const name = `${elem.name}[]`;
  const checkCount = (n: number, pos?: number) => {
    if (n < min || n > max)
      throw new CodecError('LENGTH_OUT_OF_RANGE', `count ${n} outside ${min}..${max}`, { offset: pos });
  };
  const elemFixed = elem.fixedSize;
  return Object.freeze({
    name,
    element: elem,
    prefixWidth: width,
    fixedSize: undefined,
    maxSize: width + max * elem.maxSize,
    sizeOf(v: T[]) {
      if (elemFixed !== undefined) return width + v.length * elemFixed;
      let s = width;
      for (let i = 0; i < v.length; i++) s += elem.sizeOf(v[i]!);
      return s;
    },
    write(v: T[], w: Writer) {
      if (!Array.isArray(v))
        throw new CodecError('VALUE_OUT_OF_RANGE', `expected an array, got ${describeValue(v)}`, { offset: w.pos });
      checkCount(v.length, w.pos);
      prefix.write(v.length, w);
      let i = 0;
      try {
        for (; i < v.length; i++) elem.write(v[i]!, w);
      } catch (e) {
        throw atPath(e, `[${i}]`);
      }
    },
    read(r: Reader) {
      const at = r.pos;
      const n = readCount(r);
      checkCount(n, at);
      const out: T[] = [];
      let i = 0;
      try {
        for (; i < n; i++) out.push(elem.read(r));
      } catch (e) {
        throw atPath(e, `[${i}]`);
      }
      return out;
    },
    toJson(v: T[]) {
      if (!Array.isArray(v)) throw new CodecError('VALUE_OUT_OF_RANGE', `expected an array, got ${describeValue(v)}`);
      checkCount(v.length);
      if (omitEmptyInJson && v.length === 0) return undefined;
      const out: Json[] = new Array(v.length);
      let i = 0;
      try {
        for (; i < v.length; i++) out[i] = elem.toJson(v[i]!) as Json;
      } catch (e) {
        throw atPath(e, `[${i}]`);
      }
      return out;
    },
    fromJson(j: unknown) {
      if (j === undefined && omitEmptyInJson) return [];
      if (j === undefined) throw new CodecError('MISSING_FIELD', 'required');
      if (!Array.isArray(j)) throw new CodecError('INVALID_VALUE', `expected an array, got ${describeValue(j)}`);
      checkCount(j.length);
      const out: T[] = [];
      let i = 0;
      try {
        for (; i < j.length; i++) out.push(elem.fromJson(j[i]));
      } catch (e) {
        throw atPath(e, `[${i}]`);
      }
      return out;
    },
    writeJson(j: unknown, w: Writer) {
      if (j === undefined && omitEmptyInJson) return prefix.write(0, w);
      if (j === undefined) throw new CodecError('MISSING_FIELD', 'required');
      if (!Array.isArray(j)) throw new CodecError('INVALID_VALUE', `expected an array, got ${describeValue(j)}`);
      checkCount(j.length);
      prefix.write(j.length, w);
      let i = 0;
      try {
        for (; i < j.length; i++) elem.writeJson(j[i], w);
      } catch (e) {
        throw atPath(e, `[${i}]`);
      }
    },
  });
}

type ModelOf<C> = C extends StructCodec<infer T> ? T : never;
/** The model union of a list of variant codecs. */
// biome-ignore lint/suspicious/noExplicitAny: a codec is invariant in its model; any list of variants fits here
export type VariantOf<V extends readonly StructCodec<any>[]> = ModelOf<V[number]>;

/** Types the protocol has that a position does not allow, each with the reason shown in the error. */
export type NotAllowed = Readonly<Record<number, string>>;

/**
 * A tagged union. Each variant is a struct whose first field is its `type` tag, so the union only peeks at the
 * tag to dispatch and the variant reads it again (and can be used on its own); the tags come from the variants
 * themselves. Tags not listed are refused: `TYPE_NOT_ALLOWED` for the types the protocol has elsewhere (listed in
 * `notAllowed` with the reason), `UNKNOWN_TYPE` for the rest.
 */
/* @__NO_SIDE_EFFECTS__ */
// biome-ignore lint/suspicious/noExplicitAny: a codec is invariant in its model; any list of variants fits here
export function union<const V extends readonly StructCodec<any>[]>(
  name: string,
  prefix: UintCodec,
  variants: V,
  notAllowed: NotAllowed = {},
): Codec<VariantOf<V>> {
  type T = VariantOf<V>;
  const table = new Map<number, Codec<T>>();
  for (const v of variants) {
    if (v.tag === undefined) throw new Error(`union ${name}: variant ${v.name} does not start with a tag`);
    if (table.has(v.tag)) throw new Error(`union ${name}: two variants with tag ${v.tag}`);
    table.set(v.tag, v);
  }
  const small = prefix.width === 1;
  const byte: (Codec<T> | undefined)[] = small ? Array.from({ length: 256 }, (_, t) => table.get(t)) : [];
  const refuse = (t: unknown, pos?: number): CodecError => {
    const reason = typeof t === 'number' ? notAllowed[t] : undefined;
    return reason !== undefined
      ? new CodecError('TYPE_NOT_ALLOWED', `${name} type ${t} is not allowed here: ${reason}`, { offset: pos })
      : new CodecError('UNKNOWN_TYPE', `${describeValue(t)} is not a valid ${name} type here`, { offset: pos });
  };
  const pick = (t: unknown, pos?: number): Codec<T> => {
    const v = typeof t === 'number' ? table.get(t) : undefined;
    if (v === undefined) throw refuse(t, pos);
    return v;
  };
  const fixed = variants.every((v) => v.fixedSize !== undefined && v.fixedSize === variants[0]!.fixedSize)
    ? variants[0]!.fixedSize
    : undefined;
  const peek = small
    ? (r: Reader) => {
        if (r.pos >= r.end) throw r.truncated(1);
        const v = byte[r.bytes[r.pos]!];
        if (v === undefined) throw refuse(r.bytes[r.pos], r.pos);
        return v;
      }
    : (r: Reader) => {
        if (r.pos + 4 > r.end) throw r.truncated(4);
        return pick(r.view.getUint32(r.pos, true), r.pos);
      };
  const typeOf = (v: unknown, pos?: number, model = true): Codec<T> => {
    if (typeof v !== 'object' || v === null) {
      throw new CodecError(
        model ? 'VALUE_OUT_OF_RANGE' : 'INVALID_VALUE',
        `expected a ${name} object, got ${describeValue(v)}`,
        { offset: pos },
      );
    }
    return pick((v as { type?: unknown }).type, pos);
  };
  /** The variant a JSON object names by its `type`. */
  const jsonVariant = (j: unknown): Codec<T> => {
    if (j === undefined) throw new CodecError('MISSING_FIELD', 'required');
    try {
      return typeOf(j, undefined, false);
    } catch (e) {
      throw j !== null && typeof j === 'object' && !Array.isArray(j) ? atPath(e, 'type') : e;
    }
  };
  return Object.freeze({
    name,
    fixedSize: fixed,
    maxSize: Math.max(...variants.map((v) => v.maxSize)),
    sizeOf: (v: T) => typeOf(v).sizeOf(v),
    write: (v: T, w: Writer) => typeOf(v, w.pos).write(v, w),
    read: (r: Reader) => peek(r).read(r),
    toJson: (v: T) => typeOf(v).toJson(v),
    fromJson: (j: unknown) => jsonVariant(j).fromJson(j),
    writeJson: (j: unknown, w: Writer) => jsonVariant(j).writeJson(j, w),
  });
}

/**
 * Reads `inner` from the next `len` bytes (its length prefix began at `at`): the length is checked against the
 * inner type's largest size and the bytes left, the reader is limited to it, and the value must fill it exactly.
 */
function readWithin<T>(r: Reader, inner: Codec<T>, len: number, at: number): T {
  if (len > inner.maxSize) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `length ${len} exceeds the largest ${inner.name} (${inner.maxSize})`, {
      offset: at,
    });
  }
  if (len > r.end - r.pos) {
    throw new CodecError('TRUNCATED', `length ${len} exceeds the ${r.end - r.pos} byte(s) left`, { offset: at });
  }
  const outerEnd = r.end;
  const end = r.pos + len;
  r.end = end;
  let v: T;
  try {
    v = inner.read(r);
  } catch (e) {
    // The declared length was within the input, so running out of bytes means the length was too short.
    if (e instanceof CodecError && e.code === 'TRUNCATED') {
      throw new CodecError('LENGTH_MISMATCH', `${inner.name} needs more than its declared length ${len}`, {
        offset: at,
        path: e.path,
      });
    }
    throw e;
  } finally {
    r.end = outerEnd;
  }
  if (r.pos !== end) {
    throw new CodecError(
      'LENGTH_MISMATCH',
      `${inner.name} occupies ${r.pos - (end - len)} byte(s), its length says ${len}`,
      {
        offset: at,
      },
    );
  }
  return v;
}

/**
 * A value behind its own length (TIP-35's outputs and milestone payloads, its protocol parameters option): the
 * prefix, then exactly that many bytes holding the value. JSON: the value itself.
 */
/* @__NO_SIDE_EFFECTS__ */
export function sized<T>(prefix: UintCodec, inner: Codec<T>): Codec<T> {
  const width = prefix.width;
  const name = inner.name;
  const put = (w: Writer, at: number) => {
    const len = w.pos - at - width;
    if (len > prefix.max)
      throw new CodecError('LENGTH_OUT_OF_RANGE', `${name} of ${len} bytes exceeds its length prefix`, { offset: at });
    if (width === 1) w.view.setUint8(at, len);
    else if (width === 2) w.view.setUint16(at, len, true);
    else w.view.setUint32(at, len, true);
  };
  return Object.freeze({
    name,
    fixedSize: inner.fixedSize === undefined ? undefined : width + inner.fixedSize,
    maxSize: width + Math.min(inner.maxSize, prefix.max),
    sizeOf: (v: T) => width + inner.sizeOf(v),
    write(v: T, w: Writer) {
      const at = w.pos;
      prefix.write(0, w);
      inner.write(v, w);
      put(w, at);
    },
    read(r: Reader) {
      const at = r.pos;
      return readWithin(r, inner, prefix.read(r), at);
    },
    toJson: (v: T) => inner.toJson(v),
    fromJson: (j: unknown) => inner.fromJson(j),
    writeJson(j: unknown, w: Writer) {
      const at = w.pos;
      prefix.write(0, w);
      inner.writeJson(j, w);
      put(w, at);
    },
  });
}

/**
 * An optional payload: `uint32 length`, then (if non-zero) exactly `length` bytes holding the payload with its
 * own uint32 type. The length is checked against the bytes left, the payload is read with the reader limited to
 * it, and it must fill it exactly (iota.js skips this check; GO and the SDK enforce it). JSON: absent or null.
 */
/* @__NO_SIDE_EFFECTS__ */
export function optionalPayload<T extends { type: number }>(payload: Codec<T>): Codec<T | undefined> {
  return Object.freeze({
    name: `${payload.name}?`,
    fixedSize: undefined,
    maxSize: 4 + payload.maxSize,
    sizeOf: (v: T | undefined) => (v === undefined ? 4 : 4 + payload.sizeOf(v)),
    write(v: T | undefined, w: Writer) {
      if (v === undefined) return w.u32(0);
      const lengthAt = w.pos;
      w.u32(0);
      payload.write(v, w);
      w.view.setUint32(lengthAt, w.pos - lengthAt - 4, true);
    },
    read(r: Reader) {
      const at = r.pos;
      const len = r.u32();
      return len === 0 ? undefined : readWithin(r, payload, len, at);
    },
    toJson: (v: T | undefined) => (v === undefined ? undefined : payload.toJson(v)),
    fromJson: (j: unknown) => (j === undefined || j === null ? undefined : payload.fromJson(j)),
    writeJson(j: unknown, w: Writer) {
      if (j === undefined || j === null) return w.u32(0);
      const lengthAt = w.pos;
      w.u32(0);
      payload.writeJson(j, w);
      w.view.setUint32(lengthAt, w.pos - lengthAt - 4, true);
    },
  });
}

/** A value that may be absent: a u8 presence flag (0 or 1) then the value; JSON: the key is omitted when absent. */
/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(inner: Codec<T>): Codec<T | undefined> {
  return Object.freeze({
    name: `${inner.name}?`,
    fixedSize: undefined,
    maxSize: 1 + inner.maxSize,
    sizeOf: (v: T | undefined) => (v === undefined ? 1 : 1 + inner.sizeOf(v)),
    write(v: T | undefined, w: Writer) {
      w.u8(v === undefined ? 0 : 1);
      if (v !== undefined) inner.write(v, w);
    },
    read(r: Reader) {
      const at = r.pos;
      const flag = r.u8();
      if (flag > 1)
        throw new CodecError('VALUE_OUT_OF_RANGE', `presence flag must be 0 or 1, got ${flag}`, { offset: at });
      return flag === 0 ? undefined : inner.read(r);
    },
    toJson: (v: T | undefined) => (v === undefined ? undefined : inner.toJson(v)),
    fromJson: (j: unknown) => (j === undefined ? undefined : inner.fromJson(j)),
    writeJson(j: unknown, w: Writer) {
      w.u8(j === undefined ? 0 : 1);
      if (j !== undefined) inner.writeJson(j, w);
    },
  });
}

/**
 * A payload that must be there, behind the same `uint32 length` as an optional one (a receipt's treasury
 * transaction): a length of 0 is refused. JSON: the payload object, required.
 */
/* @__NO_SIDE_EFFECTS__ */
export function requiredPayload<T extends { type: number }>(payload: Codec<T>): Codec<T> {
  const inner = optionalPayload(payload);
  return Object.freeze({
    ...inner,
    name: payload.name,
    read(r: Reader) {
      const at = r.pos;
      const v = inner.read(r);
      if (v === undefined)
        throw new CodecError('LENGTH_OUT_OF_RANGE', `a ${payload.name} is required here`, { offset: at });
      return v;
    },
    fromJson(j: unknown) {
      if (j === undefined || j === null) throw new CodecError('MISSING_FIELD', 'required');
      return payload.fromJson(j);
    },
    writeJson(j: unknown, w: Writer) {
      if (j === undefined || j === null) throw new CodecError('MISSING_FIELD', 'required');
      inner.writeJson(j, w);
    },
  }) as Codec<T>;
}
