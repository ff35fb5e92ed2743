import type { Codec, Json } from './codec.js';
import { atPath, CodecError, describeValue } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

export type Fields<T> = { readonly [K in keyof T]-?: Codec<T[K]> };

/** The functions a struct is made of; the codec adds its name and sizes. */
export interface StructFunctions<T> {
  read(r: Reader): T;
  write(v: T, w: Writer): void;
  sizeOf(v: T): number;
  toJson(v: T): Json | undefined;
  fromJson(j: unknown): T;
  writeJson(j: unknown, w: Writer): void;
}

/** What generated code gets besides the field codecs: the names and error helpers it needs to report a path. */
export interface StructHelpers {
  readonly name: string;
  readonly keys: readonly string[];
  /** The serialized size of the fixed-size fields together. */
  readonly fixedPart: number;
  atPath(e: unknown, segment: string | undefined): unknown;
  notObject(v: unknown, pos: number | undefined, model: boolean): CodecError;
  unexpected(key: string): CodecError;
}

/**
 * Straight-line code for one struct, written by `scripts/gen-structs.mjs` into a `*.gen.ts` file beside the
 * definition. `keys` and `variable` are the shape it was generated from: a definition that no longer matches
 * them is refused when the module loads, so stale code can never run.
 */
export interface GeneratedStruct {
  readonly keys: readonly string[];
  /** One character per field: 1 when its size depends on the value (sizeOf calls it), 0 when fixed. */
  readonly variable: string;
  // biome-ignore lint/suspicious/noExplicitAny: generated code is checked against its definition at load, not by types
  compile(codecs: readonly Codec<any>[], h: StructHelpers): StructFunctions<any>;
}

export type GeneratedStructs = Readonly<Record<string, GeneratedStruct>>;

/** A struct's shape as the generator needs it. */
export interface StructShape {
  readonly name: string;
  readonly keys: readonly string[];
  readonly variable: string;
}

/** A struct codec: a codec that also exposes its declaration, and the tag of its first field when it has one. */
export interface StructCodec<T> extends Codec<T> {
  readonly fields: Readonly<Record<string, Codec<unknown>>>;
  /** The value of the leading `tag` field: how a union finds its variants (no parallel list of tags). */
  readonly tag: number | undefined;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/**
 * `TANGLE_GENERIC_STRUCTS=1` runs every struct on the generic loop instead of its generated code: the tests run the
 * vectors both ways, and the bench compares the two. Read once, when the package loads.
 */
const GENERIC_ONLY =
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.TANGLE_GENERIC_STRUCTS ===
  '1';
const shapes = new Map<string, StructShape>();

/** Every struct defined so far, by name (what `scripts/gen-structs.mjs` generates code for). */
export function structShapes(): readonly StructShape[] {
  return [...shapes.values()];
}

/** A model value that is not an object: VALUE_OUT_OF_RANGE when encoding a model, INVALID_VALUE when reading JSON. */
function notObject(name: string, v: unknown, pos: number | undefined, model: boolean): CodecError {
  const code = model ? 'VALUE_OUT_OF_RANGE' : 'INVALID_VALUE';
  return new CodecError(code, `expected a ${name} object, got ${describeValue(v)}`, { offset: pos });
}

/**
 * A sequence of named fields, in wire order (= canonical JSON key order).
 *
 * The field list is data. With `generated` (the straight-line functions `npm run gen` wrote for this struct) the
 * hot paths run without a loop over fields; without it they run the generic loop below (same behaviour, slower:
 * see the bench). Nothing is compiled from strings at run time, so the package loads where code generation is
 * forbidden (a strict Content-Security-Policy, `--disallow-code-generation-from-strings`). Paths are added only
 * when an error travels up, so success pays nothing for them.
 */
/* @__NO_SIDE_EFFECTS__ */
export function struct<T extends object>(name: string, fields: Fields<T>, generated?: GeneratedStruct): StructCodec<T> {
  const keys = Object.keys(fields) as (keyof T & string)[];
  for (const k of keys) if (!IDENT.test(k)) throw new Error(`struct ${name}: field name ${k} is not an identifier`);
  const codecs = keys.map((k) => fields[k] as Codec<unknown>);
  const variable = codecs.map((c) => (c.fixedSize === undefined ? '1' : '0')).join('');
  const known = shapes.get(name);
  if (known !== undefined && (known.keys.join() !== keys.join() || known.variable !== variable)) {
    throw new Error(`struct ${name} is defined twice with different fields`);
  }
  shapes.set(name, { name, keys, variable });

  const fixedSize = variable.includes('1') ? undefined : codecs.reduce((s, c) => s + c.fixedSize!, 0);
  const maxSize = codecs.reduce((s, c) => s + c.maxSize, 0);
  const fixedPart = codecs.reduce((s, c) => s + (c.fixedSize ?? 0), 0);
  const unexpected = (k: string) =>
    new CodecError('UNEXPECTED_FIELD', `${name} has no field ${JSON.stringify(k.slice(0, 40))}`).prefix(k.slice(0, 40));
  const helpers: StructHelpers = {
    name,
    keys,
    fixedPart,
    atPath: (e, segment) => atPath(e, segment ?? ''),
    notObject: (v, pos, model) => notObject(name, v, pos, model),
    unexpected,
  };
  let fns: StructFunctions<T>;
  if (generated === undefined || GENERIC_ONLY) {
    fns = genericStruct<T>(codecs, helpers);
  } else {
    if (generated.keys.join() !== keys.join() || generated.variable !== variable) {
      throw new Error(`the generated code of struct ${name} is stale: run npm run gen`);
    }
    fns = generated.compile(codecs, helpers) as StructFunctions<T>;
  }
  const first = codecs[0] as (Codec<unknown> & { tagValue?: number }) | undefined;
  return Object.freeze({
    name,
    fixedSize,
    maxSize,
    fields: fields as Readonly<Record<string, Codec<unknown>>>,
    tag: first?.tagValue,
    ...fns,
  });
}

/**
 * `struct` with its generated code taken from one source file's table. A model file binds it once, as a function the
 * bundler is told has no side effects (so that a page's bundler drops the structs a page never uses):
 *   /* @__NO_SIDE_EFFECTS__ *\/
 *   const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);
 */
/* @__NO_SIDE_EFFECTS__ */
export function generatedStruct<T extends object>(
  generated: GeneratedStructs,
  name: string,
  fields: Fields<T>,
): StructCodec<T> {
  return struct<T>(name, fields, generated[name]);
}

/** The same behaviour as generated code, as loops over the fields. */
function genericStruct<T>(codecs: readonly Codec<unknown>[], h: StructHelpers): StructFunctions<T> {
  const { keys, fixedPart } = h;
  const n = keys.length;
  const sized = codecs.flatMap((c, i) => (c.fixedSize === undefined ? [i] : []));
  const known = new Set(keys);
  type Obj = Record<string, unknown>;
  return {
    read(r) {
      const o: Obj = {};
      let i = 0;
      try {
        for (; i < n; i++) o[keys[i]!] = codecs[i]!.read(r);
      } catch (e) {
        throw h.atPath(e, keys[i]);
      }
      return o as T;
    },
    write(v, w) {
      if (typeof v !== 'object' || v === null) throw h.notObject(v, w.pos, true);
      let i = 0;
      try {
        for (; i < n; i++) codecs[i]!.write((v as Obj)[keys[i]!], w);
      } catch (e) {
        throw h.atPath(e, keys[i]);
      }
    },
    sizeOf(v) {
      let s = fixedPart;
      for (const i of sized) s += codecs[i]!.sizeOf((v as Obj)[keys[i]!]);
      return s;
    },
    toJson(v) {
      if (typeof v !== 'object' || v === null) throw h.notObject(v, undefined, true);
      const o: { [key: string]: Json } = {};
      let i = 0;
      try {
        for (; i < n; i++) {
          const j = codecs[i]!.toJson((v as Obj)[keys[i]!]);
          if (j !== undefined) o[keys[i]!] = j;
        }
      } catch (e) {
        throw h.atPath(e, keys[i]);
      }
      return o;
    },
    fromJson(j) {
      if (typeof j !== 'object' || j === null || Array.isArray(j)) throw h.notObject(j, undefined, false);
      for (const k in j) if (!known.has(k)) throw h.unexpected(k);
      const o: Obj = {};
      let i = 0;
      try {
        for (; i < n; i++) o[keys[i]!] = codecs[i]!.fromJson((j as Obj)[keys[i]!]);
      } catch (e) {
        throw h.atPath(e, keys[i]);
      }
      return o as T;
    },
    writeJson(j, w) {
      if (typeof j !== 'object' || j === null || Array.isArray(j)) throw h.notObject(j, undefined, false);
      for (const k in j) if (!known.has(k)) throw h.unexpected(k);
      let i = 0;
      try {
        for (; i < n; i++) codecs[i]!.writeJson((j as Obj)[keys[i]!], w);
      } catch (e) {
        throw h.atPath(e, keys[i]);
      }
    },
  };
}
