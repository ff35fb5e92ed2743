import { crc32 } from 'node:zlib';
import { type Codec, encode, toHex } from '../../codec/index.js';
import { milestoneId as idOf } from '../../stardust/ids.js';
import { type MilestonePayload, milestonePayload } from '../../stardust/payload/milestone.js';
import { equalBytes } from '../../util/bytes.js';
import type { LedgerError } from './errors.js';
import { corrupt, readRecord } from './integrity.js';
import { keys } from './store-keys.js';

// The records of applied milestones, their analytics and the archive (issue 57): each is stored sealed — its bytes,
// then a CRC-32 of its key and its bytes — and checked against its key before it is read, as output records are
// (integrity.ts): a flipped bit, in the record or in the key it sits under, is STORE_CORRUPT naming the record, never
// an answer that looks right. The same sealed bytes go to PostgreSQL's bytea columns, under the same key.

/** The bytes a seal adds to a record: its CRC-32, little-endian, at the end. */
export const SEAL = 4;

/** CRC-32 of each one-byte table prefix, taken once: a range of a table checks thousands of records. */
const TABLE_CRC = Array.from({ length: 256 }, (_, t) => crc32(Uint8Array.of(t)));

/** A CRC-32 of `key` then `body`; a key without its table byte (a scan's) is given that byte as `table`. */
function checksum(key: Uint8Array, body: Uint8Array, table?: number): number {
  const head = table === undefined ? crc32(key) : crc32(key, TABLE_CRC[table]!);
  return crc32(body, head);
}

/** A record as stored under `key`: its bytes, then their seal. */
export function sealRecord(key: Uint8Array, body: Uint8Array): Uint8Array {
  const sealed = new Uint8Array(body.length + SEAL);
  sealed.set(body);
  // Byte by byte: a DataView moves a small array out of V8's heap (commits seal thousands of records).
  const crc = checksum(key, body);
  const end = body.length;
  sealed[end] = crc;
  sealed[end + 1] = crc >>> 8;
  sealed[end + 2] = crc >>> 16;
  sealed[end + 3] = crc >>> 24;
  return sealed;
}

/**
 * The value of an entry whose information is its key (the output index's, issue 57): the 4-byte seal of the key, a
 * record of no bytes sealed (sealRecord's form: the CRC-32 of the key, as a CRC of nothing more leaves it). An empty
 * value could not tell a key moved by a flipped bit from a key written there; its seal can (checkedEntry), for 4
 * bytes an entry and one CRC-32 of a key the read holds anyway: the cheapest sound check, a key being all it holds.
 */
export function entrySeal(key: Uint8Array): Uint8Array {
  const crc = crc32(key);
  return Uint8Array.of(crc, crc >>> 8, crc >>> 16, crc >>> 24);
}

/**
 * An entry of an index whose information is its key, checked against its value (`entrySeal`): one CRC-32 call, no
 * allocation (an indexer's page checks hundreds). `table`: the key is a scan's, without its table byte.
 * @throws LedgerError STORE_CORRUPT naming the entry and its key
 */
export function checkedEntry(key: Uint8Array, stored: Uint8Array, what: string, table?: number): void {
  const crc = table === undefined ? crc32(key) : crc32(key, TABLE_CRC[table]!);
  if (
    stored.length !== SEAL ||
    (stored[0]! | (stored[1]! << 8) | (stored[2]! << 16) | (stored[3]! << 24)) >>> 0 !== crc
  ) {
    checkedRecord(key, stored, what, table); // a damaged entry throws here, named as any record
    throw corrupt(`the stored ${what} (key ${fullKey(key, table)})`, 'its value is not the seal of its key');
  }
}

/** A key as the store holds it, in hex: a scan's (without its table byte) given that byte back. */
const fullKey = (key: Uint8Array, table?: number) =>
  table === undefined ? toHex(key) : `0x${table.toString(16).padStart(2, '0')}${toHex(key).slice(2)}`;

/**
 * A sealed record as the store handed it, checked against its key: its bytes (a view), or STORE_CORRUPT naming the
 * record and its key. `table`: the key is a scan's, without its table byte (store/kv.ts scan).
 * @throws LedgerError STORE_CORRUPT
 */
export function checkedRecord(key: Uint8Array, stored: Uint8Array, what: string, table?: number): Uint8Array {
  const end = stored.length - SEAL;
  // Read byte by byte: a DataView a record cost as much as its CRC.
  const sound =
    end >= 0 &&
    (stored[end]! | (stored[end + 1]! << 8) | (stored[end + 2]! << 16) | (stored[end + 3]! << 24)) >>> 0 ===
      checksum(key, stored.subarray(0, end), table);
  if (!sound)
    throw corrupt(`the stored ${what} (key ${fullKey(key, table)})`, 'its record does not match its checksum');
  return stored.subarray(0, end);
}

/**
 * The damage a record missing where it must be is (core/applied-records.ts: a milestone history/ applied wrote it, and
 * a flipped bit of its key moved it where no read finds it): STORE_CORRUPT naming the record and its key. `why`: what
 * says it must be there, where that is not the milestone of its slot (a commit, an index entry naming it).
 */
export const missingRecord = (
  what: string,
  key: Uint8Array,
  why = 'it is missing, where the milestone applied in its slot wrote it',
): LedgerError => corrupt(`the stored ${what} (key ${toHex(key)})`, why);

/** A value sealed under `key`: its encoding, then its seal (the snapshot's own records: milestone times, …). */
export const sealedValue = <T>(codec: Codec<T>, key: Uint8Array, value: T): Uint8Array =>
  sealRecord(key, encode(codec, value));

/**
 * A sealed record's value: checked against its key (`checkedRecord`), then decoded.
 * @throws LedgerError STORE_CORRUPT naming the record and its key
 */
export function checkedValue<T>(codec: Codec<T>, key: Uint8Array, stored: Uint8Array, what: string, table?: number): T {
  return readRecord(codec, checkedRecord(key, stored, what, table), what);
}

/**
 * An applied milestone's payload as stored at its index (sealed under keys.milestone; a PostgreSQL row likewise),
 * checked: sealed, decoding, of that index, and — where an ID is known (asked for by it, or a row's) — hashing to that
 * ID (a milestone's ID is the BLAKE2b-256 of its essence: the entry that led to it named the right one). The
 * payload's bytes, the milestone and its ID. @throws LedgerError STORE_CORRUPT
 */
export function checkedMilestone(
  stored: Uint8Array,
  index: number,
  id?: Uint8Array,
): { payload: Uint8Array; milestone: MilestonePayload; milestoneId: Uint8Array } {
  const what = `milestone ${index}`;
  const payload = checkedRecord(keys.milestone(index), stored, what);
  const milestone = readRecord(milestonePayload, payload, what);
  if (milestone.index !== index) throw corrupt(`the stored ${what}`, `its payload is of milestone ${milestone.index}`);
  const milestoneId = idOf(milestone);
  if (id !== undefined && !equalBytes(milestoneId, id))
    throw corrupt(`the stored ${what}`, `its payload hashes to ${toHex(milestoneId)}, not the ID ${toHex(id)} asked`);
  return { payload, milestone, milestoneId };
}

/** A field of a row that holds values, not a record: its bytes, or a number (amounts, counts, times). */
export type RowField = Uint8Array | bigint | number;

const TEXT = new TextEncoder();

/**
 * The seal of a PostgreSQL row that holds values a statement may change in place (an address's balance, a ledger
 * update): a CRC-32 of the key the embedded store gives the record, then each field — bytes after their length, a
 * number as its decimal digits after theirs — as a signed 32-bit integer (the column's type). Computed by the writer,
 * the only one to write such rows, from the values it writes; checked by every read against the values it read.
 */
export function rowSeal(key: Uint8Array, fields: readonly RowField[]): number {
  let crc = crc32(key);
  for (const field of fields) {
    const bytes = field instanceof Uint8Array ? field : TEXT.encode(field.toString());
    crc = crc32(bytes, crc32(Uint8Array.of(bytes.length & 0xff, bytes.length >> 8), crc));
  }
  return crc | 0;
}

/**
 * A row's values checked against its seal (`rowSeal`; null: the row was never sealed).
 * @throws LedgerError STORE_CORRUPT naming the record and its key
 */
export function checkRow(key: Uint8Array, fields: readonly RowField[], seal: unknown, what: string): void {
  if (seal === null || seal === undefined || Number(seal) !== rowSeal(key, fields))
    throw corrupt(`the stored ${what} (key ${toHex(key)})`, 'its row does not match its seal');
}
