import { crc32 } from 'node:zlib';
import { toHex } from '../../codec/index.js';
import { decodeBlock } from '../../serialize.js';
import { type Block, transactionPayloadBytes } from '../../stardust/block.js';
import { equalBytes } from '../../util/bytes.js';
import { corrupt } from './integrity.js';

// A committed block as the embedded store keeps it (issue 57), under keys.block(slot, block ID):
//
//   checksum u32 | transaction at u32 | transaction length u32 | [transaction ID, 32 bytes] | the block's bytes
//
// all little-endian; the transaction's place (the payload's offset in the block's bytes and its length, both 0 for a
// block without a transaction) and its ID are there only for a block that carries one. The checksum is a CRC-32 of
// the key and of the record after the checksum field, as an output record's is (integrity.ts): a flipped bit in the
// record or a record moved to another key fails it. The block ID and the transaction ID are hashes of the bytes when
// the block is accepted; a read trusts the checksum instead of hashing again (hashing the block and re-encoding its
// transaction on every included-block read cost 2 workers 18 % of their requests a second against 4743942).

/** The fixed part of a block record: checksum, transaction offset, transaction length. */
export const BLOCK_RECORD_HEADER = 12;
const TX_ID = 32;

/** A stored block, proven by its record's checksum: the block's bytes and, where it carries one, its transaction. */
export interface StoredBlock {
  /** The block's bytes, a view of the record. */
  bytes: Uint8Array;
  /** The transaction's ID (a view of the record), or undefined for a block without a transaction. */
  transactionId: Uint8Array | undefined;
  /** The transaction payload's offset in `bytes` and its length (0 and 0 without a transaction). */
  transactionAt: number;
  transactionLength: number;
}

/** The size of the record of a block of these bytes (with a transaction: `hasTransaction`). */
export const blockRecordSize = (blockLength: number, hasTransaction: boolean): number =>
  BLOCK_RECORD_HEADER + (hasTransaction ? TX_ID : 0) + blockLength;

const getU32 = (b: Uint8Array, at: number): number =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
function setU32(b: Uint8Array, at: number, value: number): void {
  b[at] = value & 0xff;
  b[at + 1] = (value >>> 8) & 0xff;
  b[at + 2] = (value >>> 16) & 0xff;
  b[at + 3] = value >>> 24;
}

/**
 * Writes the record of a well-formed block (its bytes as accepted; `transactionId` the hash of its transaction
 * payload, undefined for a block without one) into `target` at `recordAt`, sealed with its key, which lies at `keyAt`
 * of `target` right before the record (a commit's batch packs them so: one CRC run over both). Its length: the size
 * blockRecordSize gives.
 */
export function writeBlockRecord(
  target: Uint8Array,
  keyAt: number,
  recordAt: number,
  block: Uint8Array,
  transactionId: Uint8Array | undefined,
): number {
  const payload = transactionId === undefined ? undefined : transactionPayloadBytes(block);
  if (transactionId !== undefined && payload === undefined)
    throw new TypeError('a block record for a transaction needs a block that carries one');
  setU32(target, recordAt + 4, payload === undefined ? 0 : payload.byteOffset - block.byteOffset);
  setU32(target, recordAt + 8, payload?.length ?? 0);
  let at = recordAt + BLOCK_RECORD_HEADER;
  if (transactionId !== undefined) {
    target.set(transactionId, at);
    at += TX_ID;
  }
  target.set(block, at);
  const end = at + block.length;
  const key = target.subarray(keyAt, recordAt);
  setU32(target, recordAt, crc32(target.subarray(recordAt + 4, end), crc32(key)));
  return end - recordAt;
}

/** The record of a block stored under `key` (writeBlockRecord into a buffer of its own). */
export function blockRecord(key: Uint8Array, block: Uint8Array, transactionId: Uint8Array | undefined): Uint8Array {
  const packed = new Uint8Array(key.length + blockRecordSize(block.length, transactionId !== undefined));
  packed.set(key);
  writeBlockRecord(packed, 0, key.length, block, transactionId);
  return packed.subarray(key.length);
}

/**
 * A block record as the store handed it, checked against its key (the checksum, then that the transaction's place
 * lies inside the block): its parts, views of `record`. `transactionId`: the transaction the caller found this block
 * through, which it must carry. @throws LedgerError STORE_CORRUPT naming the block
 */
export function checkedBlockRecord(key: Uint8Array, record: Uint8Array, transactionId?: Uint8Array): StoredBlock {
  const what = () => `the stored block ${toHex(key.subarray(5))}`;
  if (record.length < BLOCK_RECORD_HEADER || getU32(record, 0) !== crc32(record.subarray(4), crc32(key)))
    throw corrupt(what(), 'its record does not match its checksum');
  const transactionAt = getU32(record, 4);
  const transactionLength = getU32(record, 8);
  const start = BLOCK_RECORD_HEADER + (transactionLength === 0 ? 0 : TX_ID);
  // A checksum that matches is a record as written; these guard against a writer's bug, not against damage.
  if (start > record.length || transactionAt + transactionLength > record.length - start)
    throw corrupt(what(), 'its transaction lies outside its bytes');
  const stored = transactionLength === 0 ? undefined : record.subarray(BLOCK_RECORD_HEADER, start);
  if (transactionId !== undefined && (stored === undefined || !equalBytes(stored, transactionId)))
    throw corrupt(what(), `does not carry transaction ${toHex(transactionId)}`);
  return { bytes: record.subarray(start), transactionId: stored, transactionAt, transactionLength };
}

/**
 * The model of a stored block's bytes (proven by its record's checksum, or a pending block's as accepted): they
 * decode, unless a writer wrote a record it should not have. @throws LedgerError STORE_CORRUPT
 */
export function storedBlockModel(bytes: Uint8Array, blockId: Uint8Array): Block {
  try {
    return decodeBlock(bytes);
  } catch (e) {
    throw corrupt(`the stored block ${toHex(blockId)}`, `does not decode (${(e as Error).message})`);
  }
}
