import { arrayOf, fixedBytes, fixedOffset, i64, structsOf, u16, u32, u64 } from '../codec/index.js';
import { type Output, output } from '../model/output.js';
import { generated } from './records.gen.js';

const struct = structsOf(generated);

// What the ledger keeps in its store, each record declared once like the wire types (encode, decode, size).
// Keys are a one-byte table prefix and the record's id; slots are big-endian in keys so that they sort.

const BIG = 0x7fffffff; // list lengths in records are bounded by the store, not by the protocol
const id34 = fixedBytes(34);

/** Spent slot of an output that is still unspent. */
export const UNSPENT = 0xffffffff;
/** Destroyed slot of an account that still exists. */
export const LIVE = 0xffffffff;

export interface OutputRecord {
  createdSlot: number;
  spentSlot: number;
  output: Output;
}
export const outputRecord = struct<OutputRecord>('OutputRecord', { createdSlot: u32, spentSlot: u32, output });
// The ledger's hot path reads and changes output records in place, without a model: where their fields lie, from
// the declaration above.

/** The serialized output starts here in a stored output record (its bytes enter inputs commitments as they are). */
export const OUTPUT_RECORD_HEADER = fixedOffset(outputRecord, 'output');
const SPENT_SLOT_AT = fixedOffset(outputRecord, 'spentSlot');
const CREATED_SLOT_AT = fixedOffset(outputRecord, 'createdSlot');

/** A u32, little-endian, into `target` at `at` (a DataView per record cost more than the record). */
function setU32(target: Uint8Array, at: number, value: number): void {
  target[at] = value & 0xff;
  target[at + 1] = (value >>> 8) & 0xff;
  target[at + 2] = (value >>> 16) & 0xff;
  target[at + 3] = value >>> 24;
}
const getU32 = (source: Uint8Array, at: number): number =>
  (source[at]! | (source[at + 1]! << 8) | (source[at + 2]! << 16) | (source[at + 3]! << 24)) >>> 0;

/** Writes a new output record (unspent) around an output's bytes as they were received into `target` at `at`. */
export function writeOutputRecord(target: Uint8Array, at: number, createdSlot: number, output: Uint8Array): void {
  setU32(target, at + CREATED_SLOT_AT, createdSlot);
  setU32(target, at + SPENT_SLOT_AT, UNSPENT);
  target.set(output, at + OUTPUT_RECORD_HEADER);
}

/** Sets the spent slot of the output record at `at` in `target`, in place. */
export function setSpentSlot(target: Uint8Array, at: number, slot: number): void {
  setU32(target, at + SPENT_SLOT_AT, slot);
}

/** The spent slot of a stored output record (UNSPENT while it is not), read in place. */
export function spentSlotOf(record: Uint8Array): number {
  return getU32(record, SPENT_SLOT_AT);
}

/**
 * A transaction the ledger applied: its block, its slot, and how many of its outputs are still stored. The record
 * is also how an output is found (its key starts with the creating slot), so prune keeps it while any output remains.
 */
export interface TransactionRecord {
  blockId: Uint8Array;
  slot: number;
  storedOutputs: number;
}
export const transactionRecord = struct<TransactionRecord>('TransactionRecord', {
  blockId: fixedBytes(32),
  slot: u32,
  storedOutputs: u16,
});

/**
 * The transactions one committed slot applied, as their records will be once merged into the transaction index:
 * that index is keyed by transaction ID, a hash, so each insert lands on a random page of a table as large as the
 * ledger's history, and a commit's thousand inserts dirtied a thousand pages (7-11 µs of CPU each here, against one
 * for an append). A commit appends one of these per slot instead, keyed by slot; every `RECENT_SLOTS` slots they are
 * merged into the index in one write, sorted, where the pages they share are written once (transaction-index.ts).
 */
export interface RecentTransaction {
  transactionId: Uint8Array;
  blockId: Uint8Array;
  storedOutputs: number;
}
export const recentTransactions = arrayOf(
  struct<RecentTransaction>('RecentTransaction', {
    transactionId: fixedBytes(32),
    blockId: fixedBytes(32),
    storedOutputs: u16,
  }),
  { prefix: u32, min: 0, max: BIG },
);
/** Slots whose transactions wait in `recentTransactions` records before they are merged into the index. */
export const RECENT_SLOTS = 32;

const TRANSACTION_SLOT_AT = fixedOffset(transactionRecord, 'slot');
const TRANSACTION_RECORD_SIZE = transactionRecord.fixedSize!;

/** The slot of a stored transaction record, read without decoding it; undefined if the record has not its size. */
export function transactionRecordSlot(record: Uint8Array): number | undefined {
  return record.length === TRANSACTION_RECORD_SIZE ? getU32(record, TRANSACTION_SLOT_AT) : undefined;
}

/**
 * The UTXO changes of one committed slot, in byte order (intermediate outputs are in both lists). The slot's blocks
 * and transactions need no list: blocks are keyed by slot, and their transactions are in their bytes.
 */
export interface SlotDiff {
  created: Uint8Array[];
  consumed: Uint8Array[];
  /** The slot that created each consumed output (the API's Nova output ids carry it: no lookup per output). */
  consumedSlots: number[];
}
export const slotDiff = struct<SlotDiff>('SlotDiff', {
  created: arrayOf(id34, { prefix: u32, min: 0, max: BIG }),
  consumed: arrayOf(id34, { prefix: u32, min: 0, max: BIG }),
  consumedSlots: arrayOf(u32, { prefix: u32, min: 0, max: BIG }),
});

export interface CreditEntry {
  slot: number;
  blockIssuanceCredits: bigint;
}
/** A block-issuing account: its credits now, and their recent history (for queries at older commitments). */
export interface AccountRecord {
  createdSlot: number;
  destroyedSlot: number;
  blockIssuanceCredits: bigint;
  history: CreditEntry[];
}
export const accountRecord = struct<AccountRecord>('AccountRecord', {
  createdSlot: u32,
  destroyedSlot: u32,
  blockIssuanceCredits: i64,
  history: arrayOf(struct<CreditEntry>('CreditEntry', { slot: u32, blockIssuanceCredits: i64 }), {
    prefix: u32,
    min: 0,
    max: BIG,
  }),
});

/** The store's identity and progress. */
export interface Meta {
  networkId: bigint;
  genesisSlot: number;
  genesisUnixTime: number;
  latestSlot: number;
  latestCommitmentId: Uint8Array;
  /** Slots below this have been pruned. */
  prunedUntil: number;
}
export const meta = struct<Meta>('Meta', {
  networkId: u64,
  genesisSlot: u32,
  genesisUnixTime: u32,
  latestSlot: u32,
  latestCommitmentId: fixedBytes(36),
  prunedUntil: u32,
});

const TABLE = {
  block: 0x42,
  blockIndex: 0x49,
  transaction: 0x54,
  output: 0x4f,
  diff: 0x44,
  commitment: 0x43,
  account: 0x41,
  chain: 0x63,
  meta: 0x4d,
  recent: 0x52,
} as const;

const prefixed = (table: number, body: Uint8Array) => {
  const k = new Uint8Array(1 + body.length);
  k[0] = table;
  k.set(body, 1);
  return k;
};
/** A key of a table keyed by slot first: the table byte, the slot big-endian (so that keys sort by slot), an id. */
function writeSlotKey(target: Uint8Array, at: number, table: number, slot: number, id: Uint8Array): number {
  target[at] = table;
  target[at + 1] = slot >>> 24;
  target[at + 2] = (slot >>> 16) & 0xff;
  target[at + 3] = (slot >>> 8) & 0xff;
  target[at + 4] = slot & 0xff;
  target.set(id, at + 5);
  return 5 + id.length;
}
const slotKey = (table: number, slot: number, id: Uint8Array = new Uint8Array(0)) => {
  const k = new Uint8Array(5 + id.length);
  writeSlotKey(k, 0, table, slot, id);
  return k;
};

export const keys = {
  /**
   * Blocks are keyed by slot first: they are written in slot order, so LMDB appends them to full pages instead of
   * splitting pages at random hash positions (which left them half empty). Transaction records hold the slot.
   */
  block: (slot: number, blockId: Uint8Array) => slotKey(TABLE.block, slot, blockId),
  /** Prefix of every block of a slot. */
  blocksOfSlot: (slot: number) => slotKey(TABLE.block, slot),
  /** blockId → slot, for blocks without a transaction (those with one are found through their transaction). */
  blockIndex: (blockId: Uint8Array) => prefixed(TABLE.blockIndex, blockId),
  transaction: (txId: Uint8Array) => prefixed(TABLE.transaction, txId),
  /**
   * The transaction key of an output's creator (the output ID's first 32 bytes), copied byte by byte: a subarray of
   * an ID would move it out of V8's heap (a malloc'd backing store per lookup).
   */
  transactionOfOutput: (outputId: Uint8Array) => {
    const k = new Uint8Array(33);
    k[0] = TABLE.transaction;
    for (let i = 0; i < 32; i++) k[i + 1] = outputId[i]!;
    return k;
  },
  /**
   * Outputs are keyed by their creating slot first, for the same reason as blocks: written in slot order, they fill
   * LMDB pages densely. The slot is found through the transaction record (genesis outputs: the genesis slot).
   */
  output: (createdSlot: number, outputId: Uint8Array) => slotKey(TABLE.output, createdSlot, outputId),
  diff: (slot: number) => slotKey(TABLE.diff, slot),
  commitment: (slot: number) => slotKey(TABLE.commitment, slot),
  account: (accountId: Uint8Array) => prefixed(TABLE.account, accountId),
  /** Chain id (an alias's or NFT's 32 bytes, a foundry's 38) → the 34-byte id of the chain's current output. */
  chain: (chainId: Uint8Array) => prefixed(TABLE.chain, chainId),
  meta: Uint8Array.of(TABLE.meta, 0), // LMDB keys cannot be empty
  /**
   * The first slot whose transactions are not merged into the index yet (u32); absent in a store written before
   * there were recent records: all of its transactions are in the index.
   */
  recentFrom: Uint8Array.of(TABLE.meta, 1),
  /** The transactions a committed slot applied, until they are merged into the index. */
  recent: (slot: number) => slotKey(TABLE.recent, slot),
  tables: TABLE,
};

/**
 * Some of the keys above, written into a buffer at an offset (a commit packs thousands into its batch): their length.
 */
export const keysInto = {
  block: (target: Uint8Array, at: number, slot: number, blockId: Uint8Array) =>
    writeSlotKey(target, at, TABLE.block, slot, blockId),
  output: (target: Uint8Array, at: number, createdSlot: number, outputId: Uint8Array) =>
    writeSlotKey(target, at, TABLE.output, createdSlot, outputId),
};
