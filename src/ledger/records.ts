import { arrayOf, fixedBytes, i64, structsOf, u16, u32, u64 } from '../codec/index.js';
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
/** The serialized output starts here in a stored output record (its bytes enter inputs commitments as they are). */
export const OUTPUT_RECORD_HEADER = 8;

// The ledger's hot path builds and changes output records from bytes, without a model: the layout above, by hand.

/** A new output record (unspent) around an output's bytes as they were received. */
export function outputRecordOf(createdSlot: number, output: Uint8Array): Uint8Array {
  const record = new Uint8Array(OUTPUT_RECORD_HEADER + output.length);
  const view = new DataView(record.buffer);
  view.setUint32(0, createdSlot, true);
  view.setUint32(4, UNSPENT, true);
  record.set(output, OUTPUT_RECORD_HEADER);
  return record;
}

/** Sets an output record's spent slot (the u32 after the created slot), in place. */
export function setSpentSlot(record: Uint8Array, slot: number): Uint8Array {
  new DataView(record.buffer, record.byteOffset, record.byteLength).setUint32(4, slot, true);
  return record;
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

/** The slot of a stored transaction record, read without decoding it; undefined if the record has not its size. */
export function transactionRecordSlot(record: Uint8Array): number | undefined {
  if (record.length !== 32 + 4 + 2) return undefined;
  return new DataView(record.buffer, record.byteOffset + 32, 4).getUint32(0, true);
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
} as const;

const prefixed = (table: number, body: Uint8Array) => {
  const k = new Uint8Array(1 + body.length);
  k[0] = table;
  k.set(body, 1);
  return k;
};
const concat = (a: Uint8Array, b: Uint8Array) => {
  const k = new Uint8Array(a.length + b.length);
  k.set(a);
  k.set(b, a.length);
  return k;
};
const slotKey = (table: number, slot: number) => {
  // Big-endian by hand: a DataView per key cost more than the rest of the key (profiled in the commit).
  return Uint8Array.of(table, slot >>> 24, (slot >>> 16) & 0xff, (slot >>> 8) & 0xff, slot & 0xff);
};

export const keys = {
  /**
   * Blocks are keyed by slot first: they are written in slot order, so LMDB appends them to full pages instead of
   * splitting pages at random hash positions (which left them half empty). Transaction records hold the slot.
   */
  block: (slot: number, blockId: Uint8Array) => concat(slotKey(TABLE.block, slot), blockId),
  /** Prefix of every block of a slot. */
  blocksOfSlot: (slot: number) => slotKey(TABLE.block, slot),
  /** blockId → slot, for blocks without a transaction (those with one are found through their transaction). */
  blockIndex: (blockId: Uint8Array) => prefixed(TABLE.blockIndex, blockId),
  transaction: (txId: Uint8Array) => prefixed(TABLE.transaction, txId),
  /**
   * Outputs are keyed by their creating slot first, for the same reason as blocks: written in slot order, they fill
   * LMDB pages densely. The slot is found through the transaction record (genesis outputs: the genesis slot).
   */
  output: (createdSlot: number, outputId: Uint8Array) => concat(slotKey(TABLE.output, createdSlot), outputId),
  diff: (slot: number) => slotKey(TABLE.diff, slot),
  commitment: (slot: number) => slotKey(TABLE.commitment, slot),
  account: (accountId: Uint8Array) => prefixed(TABLE.account, accountId),
  /** Chain id (an alias's or NFT's 32 bytes, a foundry's 38) → the 34-byte id of the chain's current output. */
  chain: (chainId: Uint8Array) => prefixed(TABLE.chain, chainId),
  meta: Uint8Array.of(TABLE.meta, 0), // one key in its table; LMDB keys cannot be empty
  tables: TABLE,
};
