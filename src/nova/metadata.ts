import {
  type Codec,
  CodecError,
  describeValue,
  fromHex,
  type Json,
  type Reader,
  toHex,
  type Writer,
} from '../codec/index.js';
import { MAX_METADATA_MAP_SIZE } from './limits.js';

/**
 * The entries of a TIP-38 metadata or TIP-54 state metadata feature: a map from printable-ASCII keys to bytes.
 * Wire: u8 count (≥ 1), then per entry a u8-prefixed key (1..255 bytes, each 33..126) and a u16-prefixed value, keys
 * in ascending byte order, each once; the whole map (count included) at most 8192 bytes. Model: a `Map`, so that a
 * key like `__proto__` is data; encoding writes the keys sorted whatever the Map's order. JSON: an object of 0x-hex.
 */
export type MetadataEntries = Map<string, Uint8Array>;

const MAX_ENTRIES = 255;

function checkKey(key: string, pos: number | undefined): void {
  if (key.length < 1 || key.length > 255) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `a metadata key has 1..255 characters, got ${key.length}`, {
      offset: pos,
    });
  }
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 33 || c > 126) {
      throw new CodecError('VALUE_OUT_OF_RANGE', `metadata key character ${c} at ${i} is not printable ASCII`, {
        offset: pos,
      });
    }
  }
}

/** Keys in wire order; ASCII keys sort by UTF-16 unit exactly as by byte. */
function sortedKeys(m: MetadataEntries): string[] {
  return [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function checkMap(v: unknown, pos: number | undefined): asserts v is MetadataEntries {
  if (!(v instanceof Map)) {
    throw new CodecError('VALUE_OUT_OF_RANGE', `expected a Map of metadata entries, got ${describeValue(v)}`, {
      offset: pos,
    });
  }
}

function sizeOfEntries(m: MetadataEntries): number {
  let size = 1;
  for (const [k, v] of m) size += 1 + k.length + 2 + v.length;
  return size;
}

function checkSize(m: MetadataEntries, pos: number | undefined): void {
  if (m.size < 1 || m.size > MAX_ENTRIES) {
    throw new CodecError('LENGTH_OUT_OF_RANGE', `a metadata map has 1..${MAX_ENTRIES} entries, got ${m.size}`, {
      offset: pos,
    });
  }
  const size = sizeOfEntries(m);
  if (size > MAX_METADATA_MAP_SIZE) {
    throw new CodecError(
      'LENGTH_OUT_OF_RANGE',
      `a metadata map takes ${size} bytes, at most ${MAX_METADATA_MAP_SIZE}`,
      {
        offset: pos,
      },
    );
  }
}

function write(m: MetadataEntries, w: Writer): void {
  checkMap(m, w.pos);
  const at = w.pos;
  for (const [k, v] of m) {
    checkKey(k, at);
    if (!(v instanceof Uint8Array)) {
      throw new CodecError('VALUE_OUT_OF_RANGE', `expected a Uint8Array, got ${describeValue(v)}`, {
        offset: at,
      }).prefix(k);
    }
  }
  checkSize(m, at);
  w.u8(m.size);
  for (const k of sortedKeys(m)) {
    const v = m.get(k)!;
    w.u8(k.length);
    for (let i = 0; i < k.length; i++) w.u8(k.charCodeAt(i));
    w.u16(v.length);
    w.bytes(v);
  }
}

function read(r: Reader): MetadataEntries {
  const start = r.pos;
  const n = r.u8();
  if (n < 1) throw new CodecError('LENGTH_OUT_OF_RANGE', 'a metadata map has at least 1 entry', { offset: start });
  const m: MetadataEntries = new Map();
  let previous: string | undefined;
  for (let i = 0; i < n; i++) {
    const at = r.pos;
    const keyBytes = r.take(r.u8());
    const key = String.fromCharCode(...keyBytes);
    checkKey(key, at);
    if (previous !== undefined && key <= previous) {
      throw new CodecError('NOT_SORTED', `metadata key ${describeValue(key)} is not after ${describeValue(previous)}`, {
        offset: at,
      });
    }
    previous = key;
    m.set(key, r.take(r.u16()));
    if (r.pos - start > MAX_METADATA_MAP_SIZE) {
      throw new CodecError('LENGTH_OUT_OF_RANGE', `a metadata map takes more than ${MAX_METADATA_MAP_SIZE} bytes`, {
        offset: start,
      });
    }
  }
  return m;
}

function fromJson(j: unknown): MetadataEntries {
  if (j === undefined) throw new CodecError('MISSING_FIELD', 'required');
  if (typeof j !== 'object' || j === null || Array.isArray(j)) {
    throw new CodecError('INVALID_VALUE', `expected an object of metadata entries, got ${describeValue(j)}`);
  }
  const m: MetadataEntries = new Map();
  for (const k in j) {
    try {
      checkKey(k, undefined);
      m.set(k, fromHex((j as Record<string, unknown>)[k]));
    } catch (e) {
      throw e instanceof CodecError ? e.prefix(k.slice(0, 40)) : e;
    }
  }
  checkSize(m, undefined);
  return m;
}

export const metadataEntries: Codec<MetadataEntries> = Object.freeze({
  name: 'metadata entries',
  fixedSize: undefined,
  maxSize: MAX_METADATA_MAP_SIZE,
  sizeOf: sizeOfEntries,
  write,
  read,
  toJson(m: MetadataEntries): Json {
    checkMap(m, undefined);
    const o: { [key: string]: Json } = {};
    for (const k of sortedKeys(m)) {
      checkKey(k, undefined);
      const v = m.get(k);
      if (!(v instanceof Uint8Array)) throw new CodecError('VALUE_OUT_OF_RANGE', 'expected a Uint8Array').prefix(k);
      Object.defineProperty(o, k, { value: toHex(v), enumerable: true, writable: true, configurable: true });
    }
    return o;
  },
  fromJson,
  writeJson: (j: unknown, w: Writer) => write(fromJson(j), w),
});
