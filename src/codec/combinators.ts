import type { Codec, Json } from './codec.js';
import { atPath, CodecError, describeValue } from './errors.js';
import type { UintCodec } from './primitives.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

type Fields<T> = { readonly [K in keyof T]-?: Codec<T[K]> };

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A model value that is not an object: VALUE_OUT_OF_RANGE when encoding a model, INVALID_VALUE when reading JSON. */
function notObject(name: string, v: unknown, pos?: number, model = pos !== undefined): CodecError {
  const code = model ? 'VALUE_OUT_OF_RANGE' : 'INVALID_VALUE';
  return new CodecError(code, `expected a ${name} object, got ${describeValue(v)}`, pos);
}

/**
 * A sequence of named fields, in wire order (= canonical JSON key order).
 *
 * The field list is data; the read/write/size/JSON functions are generated from it once, when the module loads,
 * as straight-line code (the avsc/protobufjs technique): a generic loop over fields costs several times more on
 * the hot path. Paths are added only when an error travels up (try/catch), so success pays nothing for them.
 */
export function struct<T extends object>(name: string, fields: Fields<T>): Codec<T> {
  const keys = Object.keys(fields) as (keyof T & string)[];
  for (const k of keys) if (!IDENT.test(k)) throw new Error(`struct ${name}: field name ${k} is not an identifier`);
  const codecs = keys.map((k) => fields[k] as Codec<unknown>);
  const n = keys.length;
  const c = (i: number) => `c${i}`;
  const decl = codecs.map((_, i) => `const ${c(i)} = codecs[${i}];`).join('\n');

  let fixed = 0;
  for (const cd of codecs) fixed = cd.fixedSize === undefined || fixed === -1 ? -1 : fixed + cd.fixedSize;
  const fixedSize = fixed === -1 ? undefined : fixed;
  const maxSize = codecs.reduce((s, cd) => s + cd.maxSize, 0);

  const readBody =
    `let i = 0; try {\n` +
    keys.map((_, i) => `const v${i} = ${c(i)}.read(r); i = ${i + 1};`).join('\n') +
    `\nreturn { ${keys.map((k, i) => `${k}: v${i}`).join(', ')} };\n} catch (e) { throw atPath(e, keys[i]); }`;

  const writeBody =
    `if (typeof v !== 'object' || v === null) throw notObject(name, v, w.pos);\nlet i = 0; try {\n` +
    keys.map((k, i) => `${c(i)}.write(v.${k}, w); i = ${i + 1};`).join('\n') +
    `\n} catch (e) { throw atPath(e, keys[i]); }`;

  const fixedPart = codecs.reduce((s, cd) => s + (cd.fixedSize ?? 0), 0);
  const sizeBody =
    `return ${fixedPart}` +
    keys.map((k, i) => (codecs[i]!.fixedSize === undefined ? ` + ${c(i)}.sizeOf(v.${k})` : '')).join('') +
    ';';

  const toJsonBody =
    `if (typeof v !== 'object' || v === null) throw notObject(name, v, undefined, true);\n` +
    `const o = {}; let j; let i = 0; try {\n` +
    keys.map((k, i) => `j = ${c(i)}.toJson(v.${k}); if (j !== undefined) o.${k} = j; i = ${i + 1};`).join('\n') +
    `\n} catch (e) { throw atPath(e, keys[i]); }\nreturn o;`;

  const fromJsonBody =
    `if (typeof j !== 'object' || j === null || Array.isArray(j)) throw notObject(name, j);\n` +
    // for-in allocates nothing (Object.keys would); parsed JSON has only own, enumerable keys.
    `for (const k in j) switch (k) { ${keys.map((k) => `case '${k}':`).join(' ')} break; default: throw unexpected(k); }\n` +
    `let i = 0; try {\n` +
    keys.map((k, i) => `const v${i} = ${c(i)}.fromJson(j.${k}); i = ${i + 1};`).join('\n') +
    `\nreturn { ${keys.map((k, i) => `${k}: v${i}`).join(', ')} };\n} catch (e) { throw atPath(e, keys[i]); }`;

  const factory = new Function(
    'codecs',
    'keys',
    'name',
    'atPath',
    'notObject',
    'unexpected',
    `${decl}
     return {
       read(r) { ${readBody} },
       write(v, w) { ${writeBody} },
       sizeOf(v) { ${sizeBody} },
       toJson(v) { ${toJsonBody} },
       fromJson(j) { ${fromJsonBody} },
     };`,
  ) as (...args: unknown[]) => Pick<Codec<T>, 'read' | 'write' | 'sizeOf' | 'toJson' | 'fromJson'>;

  const unexpected = (k: string) =>
    new CodecError('UNEXPECTED_FIELD', `${name} has no field ${JSON.stringify(k.slice(0, 40))}`).prefix(k.slice(0, 40));
  const fns = factory(codecs, keys, name, atPath, notObject, unexpected);
  return Object.freeze({ name, fixedSize, maxSize, ...fns });
}

export interface ArrayOptions {
  prefix: UintCodec;
  min: number;
  max: number;
  /** Canonical JSON omits an empty list (nativeTokens, features); an absent key then reads as []. */
  omitEmptyInJson?: boolean;
}

/** A count prefix, checked against `min..max` before any element is read, then the elements back to back. */
export function arrayOf<T>(elem: Codec<T>, opts: ArrayOptions): Codec<T[]> {
  const { prefix, min, max, omitEmptyInJson = false } = opts;
  const width = prefix.width;
  const readCount = prefix.read;
  const name = `${elem.name}[]`;
  const checkCount = (n: number, pos?: number) => {
    if (n < min || n > max) throw new CodecError('LENGTH_OUT_OF_RANGE', `count ${n} outside ${min}..${max}`, pos);
  };
  const elemFixed = elem.fixedSize;
  return Object.freeze({
    name,
    fixedSize: undefined,
    maxSize: width + max * elem.maxSize,
    sizeOf(v: T[]) {
      if (elemFixed !== undefined) return width + v.length * elemFixed;
      let s = width;
      for (let i = 0; i < v.length; i++) s += elem.sizeOf(v[i]!);
      return s;
    },
    write(v: T[], w: Writer) {
      if (!Array.isArray(v)) throw new CodecError('VALUE_OUT_OF_RANGE', `expected an array, got ${describeValue(v)}`, w.pos);
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
  });
}

/** A Stardust type that is valid at a position but not implemented here yet, with the reason shown in the error. */
export type Unsupported = Readonly<Record<number, string>>;

/**
 * A tagged union. Each variant is a struct whose first field is its `type` tag, so the union only peeks at the
 * tag to dispatch and the variant reads it again (and can be used on its own). Tags not listed are refused:
 * `UNSUPPORTED_TYPE` for the known-but-unimplemented ones in `unsupported`, `UNKNOWN_TYPE` for the rest.
 */
export function union<T extends { type: number }>(
  name: string,
  prefix: UintCodec,
  variants: readonly Codec<T>[],
  tags: readonly number[],
  unsupported: Unsupported = {},
): Codec<T> {
  if (variants.length !== tags.length) throw new Error(`union ${name}: one tag per variant`);
  const table = new Map<number, Codec<T>>();
  variants.forEach((v, i) => table.set(tags[i]!, v));
  const small = prefix.width === 1;
  const byte: (Codec<T> | undefined)[] = small ? Array.from({ length: 256 }, (_, t) => table.get(t)) : [];
  const refuse = (t: unknown, pos?: number): CodecError => {
    const reason = typeof t === 'number' ? unsupported[t] : undefined;
    return reason !== undefined
      ? new CodecError('UNSUPPORTED_TYPE', `${name} type ${t} (${reason}) is not supported yet`, pos)
      : new CodecError('UNKNOWN_TYPE', `${describeValue(t)} is not a valid ${name} type here`, pos);
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
    if (typeof v !== 'object' || v === null) throw notObject(name, v, pos, model);
    return pick((v as { type?: unknown }).type, pos);
  };
  return Object.freeze({
    name,
    fixedSize: fixed,
    maxSize: Math.max(...variants.map((v) => v.maxSize)),
    sizeOf: (v: T) => typeOf(v).sizeOf(v),
    write: (v: T, w: Writer) => typeOf(v, w.pos).write(v, w),
    read: (r: Reader) => peek(r).read(r),
    toJson: (v: T) => typeOf(v).toJson(v),
    fromJson(j: unknown) {
      if (j === undefined) throw new CodecError('MISSING_FIELD', 'required');
      let variant: Codec<T>;
      try {
        variant = typeOf(j, undefined, false);
      } catch (e) {
        throw j !== null && typeof j === 'object' && !Array.isArray(j) ? atPath(e, 'type') : e;
      }
      return variant.fromJson(j);
    },
  });
}

/**
 * An optional payload: `uint32 length`, then (if non-zero) exactly `length` bytes holding the payload with its
 * own uint32 type. The length is checked against the bytes left, the payload is read with the reader limited to
 * it, and it must fill it exactly (iota.js skips this check; GO and the SDK enforce it). JSON: absent or null.
 */
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
      if (len === 0) return undefined;
      if (len > payload.maxSize) {
        throw new CodecError('LENGTH_OUT_OF_RANGE', `payload length ${len} exceeds the largest ${payload.name} (${payload.maxSize})`, at);
      }
      if (len > r.end - r.pos) {
        throw new CodecError('TRUNCATED', `payload length ${len} exceeds the ${r.end - r.pos} byte(s) left`, at);
      }
      const outerEnd = r.end;
      const end = r.pos + len;
      r.end = end;
      let v: T;
      try {
        v = payload.read(r);
      } catch (e) {
        // The declared length was within the input, so running out of bytes means the length was too short.
        if (e instanceof CodecError && e.code === 'TRUNCATED') {
          throw new CodecError('LENGTH_MISMATCH', `payload needs more than its declared length ${len}`, at, e.path);
        }
        throw e;
      } finally {
        r.end = outerEnd;
      }
      if (r.pos !== end) {
        throw new CodecError('LENGTH_MISMATCH', `payload occupies ${r.pos - (at + 4)} byte(s), its length says ${len}`, at);
      }
      return v;
    },
    toJson: (v: T | undefined) => (v === undefined ? undefined : payload.toJson(v)),
    fromJson: (j: unknown) => (j === undefined || j === null ? undefined : payload.fromJson(j)),
  });
}
