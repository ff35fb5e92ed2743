import {
  type ArrayCodec,
  arrayOf,
  type Fields,
  fixedBytes,
  fixedOffset,
  generatedStruct,
  i64,
  optional,
  sized,
  u8,
  u16,
  u32,
  u64,
} from '../codec/index.js';
import { generated } from './ledger-records.gen.js';
import { type Output, output } from './output.js';
import { type MilestonePayload, milestonePayload } from './payload/milestone.js';
import {
  type SnapshotTreasuryOutput,
  type StardustProtocolParameters,
  snapshotTreasuryOutput,
  stardustProtocolParameters,
} from './snapshot.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// What the ledger keeps in its store, each record declared once like the wire types (encode, decode, size), and the
// layouts its hot path reads in place derived from those declarations. They live in the model beside the wire types
// because the ledger reads them as bytes; the keys they are stored under are the store's (ledger/common/store-keys.ts).

const BIG = 0x7fffffff; // list lengths in records are bounded by the store, not by the protocol
const id34 = fixedBytes(34);

/** Spent slot of an output that is still unspent. */
export const UNSPENT = 0xffffffff;
/** Destroyed slot of an account that still exists. */
export const LIVE = 0xffffffff;

export interface OutputRecord {
  createdSlot: number;
  spentSlot: number;
  /**
   * CRC-32 of the record's key (its creating slot and output ID) and of the rest of the record: a flipped bit in
   * either is a damaged store, never another output or another state served (ledger/common/integrity.ts seals and
   * checks).
   */
  checksum: number;
  output: Output;
}
export const outputRecord = struct<OutputRecord>('OutputRecord', {
  createdSlot: u32,
  spentSlot: u32,
  checksum: u32,
  output,
});
// The ledger's hot path reads and changes output records in place, without a model: where their fields lie, from
// the declaration above.

/** The serialized output starts here in a stored output record (its bytes enter inputs commitments as they are). */
export const OUTPUT_RECORD_HEADER = fixedOffset(outputRecord, 'output');
const SPENT_SLOT_AT = fixedOffset(outputRecord, 'spentSlot');
const CREATED_SLOT_AT = fixedOffset(outputRecord, 'createdSlot');
/** Where an output record's checksum lies: the bytes before it and after it are what it covers. */
export const OUTPUT_CHECKSUM_AT = fixedOffset(outputRecord, 'checksum');

/** A u32, little-endian, into `target` at `at` (a DataView per record cost more than the record). */
function setU32(target: Uint8Array, at: number, value: number): void {
  target[at] = value & 0xff;
  target[at + 1] = (value >>> 8) & 0xff;
  target[at + 2] = (value >>> 16) & 0xff;
  target[at + 3] = value >>> 24;
}
const getU32 = (source: Uint8Array, at: number): number =>
  (source[at]! | (source[at + 1]! << 8) | (source[at + 2]! << 16) | (source[at + 3]! << 24)) >>> 0;

/**
 * Writes a new output record (unspent) around an output's bytes as they were received into `target` at `at`; its
 * checksum is for the writer to seal once the record's key is known (ledger/common/integrity.ts sealOutputRecord).
 */
export function writeOutputRecord(target: Uint8Array, at: number, createdSlot: number, output: Uint8Array): void {
  setU32(target, at + CREATED_SLOT_AT, createdSlot);
  setU32(target, at + SPENT_SLOT_AT, UNSPENT);
  setU32(target, at + OUTPUT_CHECKSUM_AT, 0);
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

/** The SlotDiff's lists of fixed-size items, in their declared order. */
const DIFF_LISTS = Object.values(slotDiff.fields) as ArrayCodec<unknown>[];

/**
 * Where the lists of the SlotDiff at the start of `bytes` lie (after each count prefix) and where it ends, from its
 * counts read in place and its declaration; undefined when they run past the end of `bytes`.
 */
export function slotDiffLayout(bytes: Uint8Array): { lists: { at: number; count: number }[]; end: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lists: { at: number; count: number }[] = [];
  let at = 0;
  for (const list of DIFF_LISTS) {
    if (at + list.prefixWidth > bytes.length) return undefined;
    const count = view.getUint32(at, true);
    at += list.prefixWidth;
    lists.push({ at, count });
    at += count * list.element.fixedSize!;
  }
  return at <= bytes.length ? { lists, end: at } : undefined;
}

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

/** What a ledger imported from a TIP-35 full snapshot keeps of it: its network, and the milestone it stands at. */
export interface ImportedNetwork {
  params: StardustProtocolParameters;
  /** The slot length the ledger's clock uses after the snapshot's milestones. */
  slotDurationSeconds: number;
  genesisMilestoneIndex: number;
  /** The full snapshot's target milestone: the ledger's genesis slot. */
  targetMilestoneIndex: number;
  targetMilestoneTimestamp: number;
  targetMilestoneId: Uint8Array;
  /** The snapshot's protocol parameters option: the milestone its parameters apply from, and its version. */
  parametersMilestoneIndex: number;
  parametersProtocolVersion: number;
}
export const importedNetwork = struct<ImportedNetwork>('ImportedNetwork', {
  params: stardustProtocolParameters,
  slotDurationSeconds: u32,
  genesisMilestoneIndex: u32,
  targetMilestoneIndex: u32,
  targetMilestoneTimestamp: u32,
  targetMilestoneId: fixedBytes(32),
  parametersMilestoneIndex: u32,
  parametersProtocolVersion: u8,
});
export const solidEntryPoints = arrayOf(fixedBytes(32), { prefix: u16, min: 0, max: 0xffff });

/** A milestone imported from a delta snapshot: its payload, and the treasury output its receipt spent (if any). */
export interface ImportedMilestone {
  milestone: MilestonePayload;
  treasuryInput: SnapshotTreasuryOutput | undefined;
}
export const importedMilestone = struct<ImportedMilestone>('ImportedMilestone', {
  milestone: sized(u32, milestonePayload),
  treasuryInput: optional(snapshotTreasuryOutput),
});

/** What hornet's white flag decided of a block a milestone referenced (TIP-2, TIP-25's block metadata). */
export const InclusionState = { NoTransaction: 0, Included: 1, Conflicting: 2 } as const;
export type InclusionState = (typeof InclusionState)[keyof typeof InclusionState];

/** A block a milestone referenced, at its place in the white-flag order. */
export interface WhiteFlagEntry {
  blockId: Uint8Array;
  /** `InclusionState`. */
  inclusion: number;
  /** hornet's conflict reason (TIP-25 `conflictReason`): 0 unless the transaction conflicts. */
  conflict: number;
  /** The index of the milestone the block carries, if it carries a valid one (0: none). */
  milestoneIndex: number;
}
/**
 * An applied milestone's cone in white-flag order (history/): the entry's place in it is the block's white-flag index,
 * and the inclusion Merkle root can be taken again from it.
 */
export const whiteFlagRecord = arrayOf(
  struct<WhiteFlagEntry>('WhiteFlagEntry', {
    blockId: fixedBytes(32),
    inclusion: u8,
    conflict: u8,
    milestoneIndex: u32,
  }),
  { prefix: u32, min: 0, max: BIG },
);

/**
 * One analytic's value at a milestone (ledger/analytics/): which measurement (its place in the analytics' list of
 * names, ledger/analytics/record.ts), and the count or token amount.
 */
export interface MeasurementEntry {
  name: number;
  value: bigint;
}

/** A milestone's analytics, stored in its commit: every measurement. */
export const measurementsRecord = arrayOf(struct<MeasurementEntry>('MeasurementEntry', { name: u16, value: u64 }), {
  prefix: u16,
  min: 0,
  max: 1024,
});

/**
 * What an address holds (ledger/archive/), kept at each milestone's commit: the tokens of the unspent outputs it owns
 * as inx-chronicle counts owners (richest addresses, token distribution); of them, net of storage deposit returns,
 * those no expiration or timelock touches (the part of its balance the time never changes); how many outputs it owns,
 * and how many name it as an expiration's return address.
 */
export interface AddressBalance {
  amount: bigint;
  plain: bigint;
  outputs: number;
  returns: number;
}

export const addressBalanceRecord = struct<AddressBalance>('AddressBalance', {
  amount: u64,
  plain: u64,
  outputs: u32,
  returns: u32,
});

/**
 * An unspent output whose part of an address's balance depends on the time: its amount net of a storage deposit
 * return, and the times of its expiration and timelock (0: none).
 */
export interface HeldOutput {
  value: bigint;
  expiration: number;
  timelock: number;
}

export const heldOutputRecord = struct<HeldOutput>('HeldOutput', { value: u64, expiration: u32, timelock: u32 });

/**
 * A milestone's ledger update (inx-chronicle's): the address it is listed under (a spent output's owner at the
 * milestone's time), the owner its balance counts it for, and its amount.
 */
export interface MilestoneUpdate {
  address: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
}

export const milestoneUpdateRecord = struct<MilestoneUpdate>('MilestoneUpdate', {
  address: fixedBytes(33),
  owner: fixedBytes(33),
  amount: u64,
});
