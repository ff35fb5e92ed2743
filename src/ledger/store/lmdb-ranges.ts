import type { Database, Transaction } from 'lmdb';

// Range reads of one LMDB table beyond the plain one (lmdb.ts): down from a key, and a scan that lends each entry
// instead of copying it; and the conversions all of them share. Keys as the store gives them carry their table byte;
// lmdb-js keys do not.

type Options = { transaction?: Transaction };

export const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
export const view = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
/** Whether lmdb-js key `k` starts with `rest`. */
export const startsWith = (k: Buffer, rest: Buffer) =>
  k.compare(rest, 0, rest.length, 0, Math.min(k.length, rest.length)) === 0;

/** The least key after every key that starts with `prefix`; none when every byte is 0xff (or it is empty). */
function keyAfter(prefix: Buffer): Buffer | undefined {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return undefined;
  const k = Buffer.from(prefix.subarray(0, end));
  k[end - 1] = prefix[end - 1]! + 1;
  return k;
}

/** KeyValueStore.scan over one table: `prefix` and `start` with their table byte, the keys lent without it. */
export function scanRange(
  table: Database<Buffer, Buffer>,
  options: Options,
  prefix: Uint8Array,
  start: Uint8Array | undefined,
  visit: (key: Uint8Array, value: Uint8Array) => boolean,
): void {
  const rest = asBuffer(prefix.subarray(1));
  const from = start === undefined || start.length <= 1 ? rest : asBuffer(start.subarray(1));
  for (const { key, value } of table.getRange(from.length === 0 ? options : { ...options, start: from })) {
    const k = key as Buffer;
    if (rest.length > 0 && !startsWith(k, rest)) return;
    if (!visit(k, value as Buffer)) return; // a Buffer is a Uint8Array: lent as it is
  }
}

/** KeyValueStore.entriesDown over one table. */
export function* rangeDown(
  table: Database<Buffer, Buffer>,
  options: Options,
  prefix: Uint8Array,
  start: Uint8Array | undefined,
): Iterable<[Uint8Array, Uint8Array]> {
  const id = prefix[0]!;
  // A start of the table byte alone is below every key of the table.
  if (start !== undefined && start.length <= 1) return;
  const rest = asBuffer(prefix.subarray(1));
  // From `start`, else from the least key after every key of the prefix (the prefix's last byte below 0xff raised).
  const first = start === undefined ? keyAfter(rest) : asBuffer(start.subarray(1));
  const range = { ...options, reverse: true, ...(first === undefined ? {} : { start: first }) };
  for (const { key, value } of table.getRange(range)) {
    const k = key as Buffer;
    if (!startsWith(k, rest)) {
      if (k.compare(rest) > 0) continue; // above the prefix's keys (the key `first` itself)
      break;
    }
    const full = new Uint8Array(1 + k.length);
    full[0] = id;
    full.set(k, 1);
    yield [full, view(value).slice()];
  }
  // lmdb-js ends a reverse range before the one-byte key 0x00 (its lowest bound): read that key by itself.
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== 0)) return;
  const lowest = (table.getBinary as (k: Buffer, o?: Options) => Buffer | undefined).call(table, Buffer.of(0), options);
  if (lowest !== undefined) yield [Uint8Array.of(id, 0), view(lowest).slice()];
}
