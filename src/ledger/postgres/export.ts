import { decode, encode } from '../../codec/index.js';
import { milestoneId } from '../../stardust/ids.js';
import { type ImportedMilestone, LIVE, OUTPUT_RECORD_HEADER } from '../../stardust/ledger-records.js';
import { output as outputCodec } from '../../stardust/output.js';
import { snapshotTreasuryOutput } from '../../stardust/snapshot.js';
import { bytesKey, keyBytes } from '../../util/bytes.js';
import { type AnalyticsColumn, chunkOf, closesChunk } from '../analytics/index.js';
import { type ArchiveRows, archiveRowsOf } from '../archive/index.js';
import {
  checkedBlockRecord,
  checkedMilestone,
  checkedOutputRecord,
  checkedRecord,
  commitmentId,
  diffBounds,
  keys,
  LedgerError,
  readDiff,
  type StoredDiff,
  sealedValue,
  slotCommitment,
} from '../common/index.js';
import { type CommittedReads, importedMilestoneAt, treasuryAfter } from '../core/index.js';
import { type AccountRows, accountRowsOf } from './account-tables.js';
import { type HoldingRows, holdingRowsOf } from './holding-tables.js';

// One committed slot as rows for the PostgreSQL mirror (issue 15): the commitment, the slot's blocks with their
// transaction ids, the outputs it created (their bytes as stored), the outputs it spent, and the credits of the
// accounts it changed. Read from one committed state (`Ledger.committedReads`), so it is the slot whole.

export interface SlotExport {
  slot: number;
  commitmentId: Uint8Array;
  commitment: Uint8Array;
  /** Its blocks; for a milestone imported from a snapshot, the blocks of its transactions, known by ID only. */
  blocks: { blockId: Uint8Array; transactionId: Uint8Array | undefined; bytes: Uint8Array | null }[];
  created: { outputId: Uint8Array; output: Uint8Array }[];
  consumed: Uint8Array[];
  /** The transaction that spent each consumed output where the slot has no blocks (an imported milestone), or null. */
  spenders: (Uint8Array | null)[];
  /** An imported milestone's time and ID, and the treasury output after it where it had a receipt (encoded). */
  milestoneTime?: number;
  milestoneId?: Uint8Array;
  treasury?: Uint8Array;
  /** A milestone history/ applied: its payload as issued, its white-flag record (WhiteFlagEntry list), analytics. */
  milestone?: Uint8Array;
  whiteFlag?: Uint8Array;
  analytics?: Uint8Array | undefined;
  /** The archive its commit kept (ledger/archive/), as rows; none where it kept none. */
  archive?: ArchiveRows | undefined;
  /** The account states its commit kept (issue 61: account-tables.ts); none where it kept none. */
  accounts?: AccountRows | undefined;
  /** The holdings and richest checkpoint its commit kept (issue 61: holding-tables.ts); none where it kept none. */
  holdings?: HoldingRows | undefined;
  /** The analytics columns its commit wrote (the last milestone of a chunk: ledger/analytics/columns.ts). */
  columns?: AnalyticsColumn[];
  /** Accounts whose credits have an entry for this slot (in the window of history the ledger keeps). */
  credits: { accountId: Uint8Array; blockIssuanceCredits: bigint; destroyed: boolean }[];
}

export function exportSlot(committed: CommittedReads, slot: number): SlotExport {
  const c = committed.commitment(slot);
  const diffBytes = committed.store.get(keys.diff(slot));
  if (c === undefined || diffBytes === undefined)
    throw new LedgerError('NOT_FOUND', `slot ${slot} is not committed, or is pruned`);
  const diff = readDiff(diffBytes, slot, ...diffBounds(committed.params));
  const blocks: SlotExport['blocks'] = [];
  for (const [key, record] of committed.store.entries(keys.blocksOfSlot(slot))) {
    const { bytes, transactionId } = checkedBlockRecord(key, record);
    blocks.push({ blockId: key.subarray(5), transactionId, bytes });
  }
  const created = diff.created.map((outputId) => {
    const key = keys.output(slot, outputId);
    const record = committed.store.get(key);
    if (record === undefined) throw new LedgerError('STORE_CORRUPT', `slot ${slot}: a created output is missing`);
    return { outputId, output: checkedOutputRecord(key, record).slice(OUTPUT_RECORD_HEADER) };
  });
  const credits = creditsAt(committed, slot);
  const x: SlotExport = {
    slot,
    commitmentId: commitmentId(c),
    commitment: encode(slotCommitment, c),
    blocks,
    created,
    consumed: diff.consumed.toArray(),
    spenders: diff.consumed.map(() => null),
    credits,
  };
  const applied = committed.store.get(keys.milestone(slot));
  if (applied !== undefined)
    return {
      ...withAppliedMilestone(committed, x, applied),
      archive: archiveOf(committed, slot, diff),
      accounts: accountRowsOf(committed.store, slot),
      holdings: holdingRowsOf(committed.store, slot),
    };
  const imported = importedMilestoneAt(committed.store, slot);
  return imported === undefined ? x : withImportedMilestone(committed, x, imported);
}

/**
 * A slot that is a real milestone history/ applied: its payload, ID, time and white-flag record go beside it. The
 * payload and analytics records go as stored, sealed under their keys (common/record-checks.ts): the reader checks
 * a row as the embedded store checks its record.
 */
function withAppliedMilestone(committed: CommittedReads, x: SlotExport, sealed: Uint8Array): SlotExport {
  const { milestone, milestoneId: id } = checkedMilestone(sealed, x.slot);
  const whiteFlag = committed.store.get(keys.whiteFlag(x.slot));
  if (whiteFlag === undefined)
    throw new LedgerError('STORE_CORRUPT', `slot ${x.slot}: its white-flag record is missing`);
  return {
    ...x,
    milestoneTime: milestone.timestamp,
    milestoneId: id,
    milestone: sealed,
    whiteFlag,
    analytics: committed.store.get(keys.analytics(x.slot)),
    columns: columnsOf(committed, x.slot),
  };
}

/** The archive rows of a slot's commit alone (a database that lacks them: write-archive.ts fillArchive). */
export function exportSlotArchive(committed: CommittedReads, slot: number): ArchiveRows | undefined {
  const diffBytes = committed.store.get(keys.diff(slot));
  if (diffBytes === undefined) throw new LedgerError('NOT_FOUND', `slot ${slot} is not committed, or is pruned`);
  return archiveOf(committed, slot, readDiff(diffBytes, slot, ...diffBounds(committed.params)));
}

/** The analytics columns a slot's commit wrote: those of its chunk, if it is the chunk's last. */
function columnsOf(committed: CommittedReads, slot: number): AnalyticsColumn[] {
  if (!closesChunk(slot)) return [];
  const chunk = chunkOf(slot);
  const found: AnalyticsColumn[] = [];
  for (let place = 0; ; place++) {
    const column = committed.store.get(keys.analyticsColumn(place, chunk));
    if (column === undefined) return found;
    found.push({ place, chunk, column });
  }
}

/**
 * The archive rows of a milestone's commit. An update's output was booked at its milestone, or is one the slot spent
 * (its diff names the slot that booked it).
 */
function archiveOf(committed: CommittedReads, slot: number, diff: StoredDiff): ArchiveRows | undefined {
  const spentFrom = new Map(diff.consumed.map((id, i) => [bytesKey(id), diff.consumedSlots[i]!]));
  return archiveRowsOf(committed.store, slot, (index, outputId, spent) => {
    const booked = spent ? spentFrom.get(bytesKey(outputId)) : index;
    const key = booked === undefined ? undefined : keys.output(booked, outputId);
    const record = key && committed.store.get(key);
    return record && decode(outputCodec, checkedOutputRecord(key!, record).subarray(OUTPUT_RECORD_HEADER));
  });
}

/** A slot that is a milestone of an imported delta snapshot: what the import kept in place of its blocks. */
function withImportedMilestone(committed: CommittedReads, x: SlotExport, { milestone }: ImportedMilestone): SlotExport {
  const blocks = new Map<string, SlotExport['blocks'][number]>();
  for (const { outputId } of x.created) {
    const transactionId = outputId.slice(0, 32);
    const blockId = committed.transactions.get(transactionId)?.blockId;
    if (blockId !== undefined) blocks.set(bytesKey(transactionId), { blockId, transactionId, bytes: null });
  }
  const treasury = treasuryAfter(milestone);
  return {
    ...x,
    blocks: [...blocks.values()],
    spenders: x.consumed.map((id) => {
      const key = keys.spentBy(id);
      const kept = committed.store.get(key);
      return kept === undefined ? null : checkedRecord(key, kept, 'spender an imported milestone kept');
    }),
    milestoneTime: milestone.timestamp,
    milestoneId: milestoneId(milestone),
    ...(treasury === undefined ? {} : { treasury: sealedValue(snapshotTreasuryOutput, keys.treasury, treasury) }),
  };
}

/** The genesis state as rows: its outputs (spent or not since) and the credits of the genesis accounts. */
export function exportGenesis(committed: CommittedReads): Pick<SlotExport, 'created' | 'credits'> {
  const genesisSlot = committed.params.genesisSlot;
  const created: SlotExport['created'] = [];
  for (const [key, record] of committed.store.entries(keys.output(genesisSlot, new Uint8Array(0))))
    created.push({ outputId: key.subarray(5), output: checkedOutputRecord(key, record).slice(OUTPUT_RECORD_HEADER) });
  return { created, credits: creditsAt(committed, genesisSlot) };
}

/** The accounts with a credit entry for `slot`, as the ledger's history window keeps them. */
function creditsAt(committed: CommittedReads, slot: number): SlotExport['credits'] {
  const credits: SlotExport['credits'] = [];
  for (const [id, r] of committed.accounts) {
    const entry = r.history.find((e) => e.slot === slot);
    if (entry === undefined) continue;
    const destroyed = r.destroyedSlot !== LIVE && r.destroyedSlot <= slot;
    credits.push({ accountId: keyBytes(id), blockIssuanceCredits: entry.blockIssuanceCredits, destroyed });
  }
  return credits;
}
