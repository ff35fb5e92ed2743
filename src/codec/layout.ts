import type { Codec } from './codec.js';
import type { ArrayCodec } from './combinators.js';
import type { StructCodec } from './struct.js';

// Where things lie inside an encoding, from the same declarations that encode and decode it: a hot path that reads
// bytes in place (the ledger hashes a transaction as received, slices out the outputs it stores) asks these instead
// of adding up sizes by hand, so a layout cannot drift from the codec.

/** A struct's fields in wire order, listed once per codec (a layout is asked on every accepted transaction). */
const fieldLists = new WeakMap<object, readonly [string, Codec<unknown>][]>();
function fieldsOf<T>(codec: StructCodec<T>): readonly [string, Codec<unknown>][] {
  let list = fieldLists.get(codec);
  if (list === undefined) {
    list = Object.entries(codec.fields);
    fieldLists.set(codec, list);
  }
  return list;
}

/** Where field `key` starts in the encoding of `value`: the sizes of the fields declared before it. */
export function fieldOffset<T>(codec: StructCodec<T>, value: T, key: keyof T & string): number {
  let at = 0;
  for (const [k, field] of fieldsOf(codec)) {
    if (k === key) return at;
    at += field.fixedSize ?? field.sizeOf((value as Record<string, unknown>)[k]);
  }
  throw new RangeError(`${codec.name} has no field ${key}`);
}

/**
 * Where field `key` starts in every encoding of the struct: the fields before it have fixed sizes.
 * @throws RangeError when one of them does not (then `fieldOffset` with a value is the answer)
 */
export function fixedOffset<T>(codec: StructCodec<T>, key: keyof T & string): number {
  let at = 0;
  for (const [k, field] of fieldsOf(codec)) {
    if (k === key) return at;
    if (field.fixedSize === undefined) throw new RangeError(`${codec.name}.${k} before ${key} has no fixed size`);
    at += field.fixedSize;
  }
  throw new RangeError(`${codec.name} has no field ${key}`);
}

/**
 * Where each element of `values` starts in the array's encoding placed at `at` (after its count prefix), then where
 * the last one ends.
 */
export function elementOffsets<T>(codec: ArrayCodec<T>, values: readonly T[], at = 0): number[] {
  const element: Codec<T> = codec.element;
  let next = at + codec.prefixWidth;
  const offsets = [next];
  for (const v of values) {
    next += element.fixedSize ?? element.sizeOf(v);
    offsets.push(next);
  }
  return offsets;
}
