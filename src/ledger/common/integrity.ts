import { crc32 } from 'node:zlib';
import { type Codec, decode, encode, toHex } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import {
  OUTPUT_CHECKSUM_AT,
  OUTPUT_RECORD_HEADER,
  type SlotDiff,
  slotDiff,
  slotDiffLayout,
} from '../../stardust/ledger-records.js';
import { MAX_OUTPUT_INDEX } from '../../stardust/limits.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { equalBytes } from '../../util/bytes.js';
import { LedgerError } from './errors.js';
import { OutputIdList } from './output-id-list.js';
import { keys } from './store-keys.js';

// What a store hands back is checked before it is served (issue 26): a flipped bit on disk, a row edited by hand, a
// truncated column must be an error the operator hears of (STORE_CORRUPT: 500, logged with the key), never an answer
// that looks right. Both stores, embedded and PostgreSQL, serve through these checks.

/** A stored record that is not what it must be: names the record and its key, for the log. */
export const corrupt = (what: string, why: string): LedgerError => new LedgerError('STORE_CORRUPT', `${what}: ${why}`);

/** Decodes a stored record; one that does not decode means a damaged store. */
export function readRecord<T>(codec: Codec<T>, bytes: Uint8Array, what: string): T {
  try {
    return decode(codec, bytes);
  } catch (e) {
    throw new LedgerError('STORE_CORRUPT', `a stored ${what} record does not decode: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

/**
 * An output record's checksum: CRC-32 of its key (table, creating slot, output ID: a record moved to another key by a
 * flipped bit no longer matches it) and of the record around the checksum field (the slots and the output). CRC-32
 * catches every burst of up to 32 flipped bits, natively, at about a tenth of a microsecond for a record.
 */
function outputChecksum(key: Uint8Array, record: Uint8Array): number {
  const head = crc32(record.subarray(0, OUTPUT_CHECKSUM_AT), crc32(key));
  return crc32(record.subarray(OUTPUT_CHECKSUM_AT + 4), head);
}

/** Writes the checksum of an output record stored under `key` into it (after it was written or changed in place). */
export function sealOutputRecord(key: Uint8Array, record: Uint8Array): void {
  writeChecksum(record, OUTPUT_CHECKSUM_AT, outputChecksum(key, record));
}

/**
 * `sealOutputRecord` for a record packed right after its key in one buffer (a commit's batch: key at `keyAt`, record
 * up to `end`): the key and the slots are one run of bytes there, so the same checksum takes one call fewer.
 */
export function sealPackedOutputRecord(bytes: Uint8Array, keyAt: number, recordAt: number, end: number): void {
  const at = recordAt + OUTPUT_CHECKSUM_AT;
  writeChecksum(bytes, at, crc32(bytes.subarray(at + 4, end), crc32(bytes.subarray(keyAt, at))));
}

function writeChecksum(target: Uint8Array, at: number, c: number): void {
  target[at] = c & 0xff;
  target[at + 1] = (c >>> 8) & 0xff;
  target[at + 2] = (c >>> 16) & 0xff;
  target[at + 3] = c >>> 24;
}

/**
 * An output record as the store handed it, checked against its key: the same bytes, or STORE_CORRUPT naming the
 * output (a record too short to hold its header is damaged too).
 * @throws LedgerError STORE_CORRUPT
 */
export function checkedOutputRecord(key: Uint8Array, record: Uint8Array): Uint8Array {
  const at = OUTPUT_CHECKSUM_AT;
  const stored =
    record.length < OUTPUT_RECORD_HEADER
      ? undefined
      : (record[at]! | (record[at + 1]! << 8) | (record[at + 2]! << 16) | (record[at + 3]! << 24)) >>> 0;
  if (stored === undefined || stored !== outputChecksum(key, record))
    throw corrupt(
      `the stored output ${toHex(key.subarray(5))} (slot ${new DataView(key.buffer, key.byteOffset).getUint32(1)})`,
      'its record does not match its checksum',
    );
  return record;
}

/**
 * A PostgreSQL output row's checksum (its `checksum` column, a signed int4): CRC-32 of the key the embedded store
 * would give it (creating slot, output ID) and of its bytes.
 */
export function rowChecksum(outputId: Uint8Array, createdSlot: number, raw: Uint8Array): number {
  return crc32(raw, crc32(keys.output(createdSlot, outputId))) | 0;
}

/**
 * What a row's spending slot adds to its checksum (by XOR, so that the spending UPDATE adds it without the row's
 * bytes: `checksum # mark`): CRC-32 of the slot's 4 bytes; 0 while unspent. An embedded store's record holds its
 * spending slot in the bytes its checksum covers.
 */
export function spentMark(spentSlot: number | null): number {
  if (spentSlot === null) return 0;
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, spentSlot, true);
  return crc32(b) | 0;
}

/**
 * An output row's bytes, checked against its checksum: of its id, creating slot and bytes and, where `spentSlot` is
 * given (a database whose spent rows carry their mark: `status.spent_marked`), of its spending slot too.
 * @throws LedgerError STORE_CORRUPT
 */
export function checkedOutputRow(
  outputId: Uint8Array,
  createdSlot: number,
  raw: Uint8Array,
  checksum: number | null,
  spentSlot?: number | null,
): Uint8Array {
  if (checksum === null)
    throw corrupt(`the stored output ${toHex(outputId)}`, 'its row has no checksum (restart its writer to add them)');
  if ((rowChecksum(outputId, createdSlot, raw) ^ spentMark(spentSlot ?? null)) !== checksum)
    throw corrupt(`the stored output ${toHex(outputId)} (slot ${createdSlot})`, 'its row does not match its checksum');
  return raw;
}

/**
 * What a slot diff record ends with, newest first: a CRC-32 of the SlotDiff (4 bytes, little-endian); in a store
 * written by 0.1 before it, the first 8 bytes of its BLAKE2b-256; before that, nothing. The record's length tells
 * them apart (the SlotDiff's own length follows from its counts). CRC-32 is what a checksum against damage needs (it
 * catches every burst of up to 32 flipped bits) and runs natively: 28 µs for a 178 KB record here, against 171 µs of
 * BLAKE2b (bench/RESULTS.md, "What does checking stored records cost?").
 */
const CRC = 4;
const LEGACY_DIGEST = 8;

/** A slot diff as the store keeps it: the SlotDiff, then its CRC-32. */
export function encodeDiff(diff: SlotDiff): Uint8Array {
  const size = slotDiff.sizeOf(diff);
  const record = new Uint8Array(size + CRC);
  record.set(encode(slotDiff, diff));
  new DataView(record.buffer).setUint32(size, crc32(record.subarray(0, size)), true);
  return record;
}

/**
 * A stored slot diff, checked: its checksum (a record written before there was one is checked by the rules alone),
 * and the rules of UTXO changes. The IDs are views of `bytes` (a copy the store handed out: nothing else holds it).
 * @throws LedgerError STORE_CORRUPT
 */
export function readDiff(
  bytes: Uint8Array,
  slot: number,
  genesisSlot: number,
  maxIndex = MAX_OUTPUT_INDEX,
): StoredDiff {
  const what = `the stored UTXO changes of slot ${slot} (key ${toHex(keys.diff(slot)).slice(2)})`;
  const layout = slotDiffLayout(bytes);
  if (layout === undefined) throw corrupt(what, `${bytes.length} bytes, not a diff of its counts`);
  const { end } = layout;
  const body = bytes.subarray(0, end);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length === end + CRC) {
    if (crc32(body) !== view.getUint32(end, true)) throw corrupt(what, 'its checksum does not match');
  } else if (bytes.length === end + LEGACY_DIGEST) {
    if (!equalBytes(blake2b256(body).subarray(0, LEGACY_DIGEST), bytes.subarray(end)))
      throw corrupt(what, 'its digest does not match');
  } else if (bytes.length !== end) throw corrupt(what, `${bytes.length} bytes, not a diff of its counts`);
  // The ID lists lie end to end in the record: checked there, in one array, rather than ID by ID.
  const [created, consumed, slots] = layout.lists;
  checkIdList(bytes.subarray(created!.at, created!.at + 34 * created!.count), 'created', what, maxIndex);
  checkIdList(bytes.subarray(consumed!.at, consumed!.at + 34 * consumed!.count), 'consumed', what, maxIndex);
  const consumedSlots = Array.from({ length: slots!.count }, (_, i) => view.getUint32(slots!.at + 4 * i, true));
  checkCreatingSlots(consumedSlots, consumed!.count, slot, genesisSlot, what);
  return { created: idList(bytes, created!), consumed: idList(bytes, consumed!), consumedSlots };
}

/** A slot's diff as read from its record: its ID lists as they lie there (views, not an object an ID). */
export interface StoredDiff {
  created: OutputIdList;
  consumed: OutputIdList;
  consumedSlots: number[];
}

const idList = (bytes: Uint8Array, list: { at: number; count: number }) =>
  new OutputIdList(bytes.subarray(list.at, list.at + 34 * list.count));

/**
 * The rules every served list of UTXO changes keeps, whichever store it came from, on the lists as they are stored
 * (output IDs end to end): IDs of 34 bytes with an output index below 128, each list in strictly ascending byte
 * order, a creating slot per consumed output, not after the slot and not before genesis. @throws STORE_CORRUPT
 */
export function checkUtxoChanges(
  created: Uint8Array,
  consumed: Uint8Array,
  consumedSlots: readonly number[],
  slot: number,
  genesisSlot: number,
  what: string,
  maxIndex = MAX_OUTPUT_INDEX,
): void {
  checkIdList(created, 'created', what, maxIndex);
  checkIdList(consumed, 'consumed', what, maxIndex);
  checkCreatingSlots(consumedSlots, consumed.length / 34, slot, genesisSlot, what);
}

/**
 * The bounds the stored UTXO changes of a ledger keep: outputs created from its genesis slot on, with an output index
 * below 128 (TIP-20). A ledger imported from a snapshot holds outputs booked from its network's genesis milestone on,
 * with the output IDs the snapshot gives (hornet's test snapshots have random ones).
 */
export function diffBounds(params: ProtocolParameters): [firstSlot: number, maxIndex: number] {
  return params.importedFrom === undefined ? [params.genesisSlot, MAX_OUTPUT_INDEX] : [params.importedFrom, 0xffff];
}

/**
 * 34-byte output IDs end to end: whole, each index below 128, strictly ascending. One loop over one array: checking
 * the decoded IDs one by one (views of many buffers, compared by a shared function) cost 180 µs a slot of 5,000 IDs
 * in the ledger benchmark, five times this.
 */
function checkIdList(ids: Uint8Array, name: string, what: string, maxIndex: number): void {
  if (ids.length % 34 !== 0) throw corrupt(what, `the ${name} outputs are ${ids.length} bytes, not IDs of 34`);
  for (let at = 0; at < ids.length; at += 34) {
    if ((ids[at + 32]! | (ids[at + 33]! << 8)) > maxIndex)
      throw corrupt(what, `${name} output ${at / 34} has an output index over ${maxIndex}`);
    if (at === 0) continue;
    let k = 0;
    while (k < 34 && ids[at - 34 + k] === ids[at + k]) k++;
    if (k === 34 || ids[at - 34 + k]! > ids[at + k]!)
      throw corrupt(what, `${name} outputs are not in ascending order at ${at / 34}`);
  }
}

function checkCreatingSlots(slots: readonly number[], count: number, slot: number, genesisSlot: number, what: string) {
  if (slots.length !== count) throw corrupt(what, `${count} consumed outputs but ${slots.length} creating slots`);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    if (s > slot || s < genesisSlot) throw corrupt(what, `consumed output ${i} was created in slot ${s}`);
  }
}
