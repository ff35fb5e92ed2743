import { toHex } from '../codec/hex.js';
import { type Codec, decode, encode } from '../codec/index.js';
import { blake2b256 } from '../crypto/hash.js';
import type { Block } from '../model/block.js';
import { transactionId } from '../model/ids.js';
import { MAX_OUTPUT_INDEX } from '../model/limits.js';
import { PayloadType } from '../model/type-codes.js';
import { decodeBlock } from '../serialize.js';
import { equalBytes } from '../util/bytes.js';
import { LedgerError } from './errors.js';
import { keys, type SlotDiff, slotDiff } from './records.js';

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
 * A stored block as served for `ids`: it decodes, hashes to its block ID, and (for a transaction) carries the
 * transaction with that ID. Block IDs and transaction IDs are hashes of the bytes, so any change to them is caught.
 * @throws LedgerError STORE_CORRUPT
 */
export function checkedBlock(bytes: Uint8Array, ids: { blockId: Uint8Array; transactionId?: Uint8Array }): Block {
  const what = `the stored block ${toHex(ids.blockId)}`;
  let block: Block;
  try {
    block = decodeBlock(bytes);
  } catch (e) {
    throw corrupt(what, `does not decode (${(e as Error).message})`);
  }
  if (!equalBytes(blake2b256(bytes), ids.blockId)) throw corrupt(what, 'its bytes hash to another block ID');
  if (ids.transactionId !== undefined) {
    const payload = block.payload;
    if (payload?.type !== PayloadType.Transaction || !equalBytes(transactionId(payload), ids.transactionId))
      throw corrupt(what, `does not carry transaction ${toHex(ids.transactionId)}`);
  }
  return block;
}

/** Bytes of the digest a slot diff record ends with. */
const DIFF_DIGEST = 8;

/**
 * A slot diff as the store keeps it: the SlotDiff, then the first 8 bytes of its BLAKE2b-256. An output ID changed
 * in place would otherwise pass every other rule (sorted, 34 bytes, a small index) and list an output that does not
 * exist.
 */
export function encodeDiff(diff: SlotDiff): Uint8Array {
  const body = encode(slotDiff, diff);
  const record = new Uint8Array(body.length + DIFF_DIGEST);
  record.set(body);
  record.set(blake2b256(body).subarray(0, DIFF_DIGEST), body.length);
  return record;
}

/**
 * A stored slot diff, checked: its digest (a record written before the digest existed has none, and is checked by
 * the rules alone), and the rules of UTXO changes. @throws LedgerError STORE_CORRUPT
 */
export function readDiff(bytes: Uint8Array, slot: number, genesisSlot: number): SlotDiff {
  const what = `the stored UTXO changes of slot ${slot} (key ${toHex(keys.diff(slot)).slice(2)})`;
  // Where the SlotDiff ends, from its three counts read in place (u32 LE each, before 34-, 34- and 4-byte items):
  // the record is that long (an older store's, no digest), or 8 bytes longer. One decode either way.
  const end = diffLength(bytes);
  let body = bytes;
  if (end === bytes.length - DIFF_DIGEST) {
    body = bytes.subarray(0, end);
    if (!equalBytes(blake2b256(body).subarray(0, DIFF_DIGEST), bytes.subarray(end)))
      throw corrupt(what, 'its digest does not match');
  } else if (end !== bytes.length) throw corrupt(what, `${bytes.length} bytes, not a diff of its counts`);
  let diff: SlotDiff;
  try {
    diff = decode(slotDiff, body);
  } catch (e) {
    throw corrupt(what, `does not decode (${(e as Error).message})`);
  }
  // The ID lists lie end to end in the record: checked there, in one array, rather than ID by ID.
  const created = 4 + 34 * diff.created.length;
  checkIdList(body.subarray(4, created), 'created', what);
  checkIdList(body.subarray(created + 4, created + 4 + 34 * diff.consumed.length), 'consumed', what);
  checkCreatingSlots(diff.consumedSlots, diff.consumed.length, slot, genesisSlot, what);
  return diff;
}

/** The length of the SlotDiff at the start of `bytes` by its counts, or -1 when they run past its end. */
function diffLength(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (const size of [34, 34, 4]) {
    if (at + 4 > bytes.length) return -1;
    at += 4 + view.getUint32(at, true) * size;
  }
  return at <= bytes.length ? at : -1;
}

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
): void {
  checkIdList(created, 'created', what);
  checkIdList(consumed, 'consumed', what);
  checkCreatingSlots(consumedSlots, consumed.length / 34, slot, genesisSlot, what);
}

/**
 * 34-byte output IDs end to end: whole, each index below 128, strictly ascending. One loop over one array: checking
 * the decoded IDs one by one (views of many buffers, compared by a shared function) cost 180 µs a slot of 5,000 IDs
 * in the ledger benchmark, five times this.
 */
function checkIdList(ids: Uint8Array, name: string, what: string): void {
  if (ids.length % 34 !== 0) throw corrupt(what, `the ${name} outputs are ${ids.length} bytes, not IDs of 34`);
  for (let at = 0; at < ids.length; at += 34) {
    if ((ids[at + 32]! | (ids[at + 33]! << 8)) > MAX_OUTPUT_INDEX)
      throw corrupt(what, `${name} output ${at / 34} has an output index over ${MAX_OUTPUT_INDEX}`);
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
