import { decode } from '../../codec/index.js';
import { type StagedSnapshotFile, stageSnapshotFile } from '../../snapshot/index.js';
import { type ImportedMilestone, type ImportedNetwork, solidEntryPoints } from '../../stardust/ledger-records.js';
import { output } from '../../stardust/output.js';
import { MilestoneOptionType, milestonePayload } from '../../stardust/payload/milestone.js';
import {
  type ConsumedOutput,
  type DeltaSnapshotHeader,
  type FullSnapshotHeader,
  type MilestoneDiff,
  SNAPSHOT_VERSION,
  type SnapshotOutput,
  SnapshotType,
} from '../../stardust/snapshot.js';
import { bookingTime, checkedValue, keys, LedgerError, readRecord } from '../common/index.js';
import {
  type CommittedReads,
  importedMilestoneAt,
  importedNetworkOf,
  type Ledger,
  milestoneIdOf,
  slotMilestone,
} from '../core/index.js';

// Writing a ledger as TIP-35 snapshots, the way hornet does: a full snapshot whose outputs are the unspent outputs of
// the latest committed slot (its ledger milestone) with the diffs back to its target milestone, and optionally a
// delta with the diffs from that target on. A slot is a milestone: a milestone imported from a snapshot is written
// as it was read (its payload, ID, time, treasury input, solid entry points); a slot tangle-core committed is written
// as the API shows it (docs/api.md: its "milestone" payload and ID, the slot's end as its time).

export interface SnapshotExportOptions {
  /** The full snapshot's target slot (default: the latest; with a delta, the earliest whose changes are kept). */
  target?: number;
}

/** What was written. */
export interface SnapshotExportResult {
  full: FullSnapshotHeader;
  delta?: DeltaSnapshotHeader;
}

/**
 * Writes the ledger's committed state to `fullPath` (and the slots after the target to `deltaPath`), each file whole
 * or not at all. @throws LedgerError INVALID_ARGUMENT (a target outside the kept history)
 */
export async function exportSnapshot(
  ledger: Ledger,
  fullPath: string,
  deltaPath?: string,
  options: SnapshotExportOptions = {},
): Promise<SnapshotExportResult> {
  // Every read of the export is of one committed state, however long the writing awaits: a reader beside a writer
  // would otherwise renew its snapshot on each query, and end the read transaction under the open range of unspent
  // outputs. The hold comes first, so that the committed state read next is the held snapshot's.
  const release = ledger.holdSnapshot();
  try {
    return await exportFrom(ledger, ledger.committedReads(), fullPath, deltaPath, options);
  } finally {
    release?.();
  }
}

async function exportFrom(
  ledger: Ledger,
  reads: CommittedReads,
  fullPath: string,
  deltaPath: string | undefined,
  options: SnapshotExportOptions,
): Promise<SnapshotExportResult> {
  const { store, params } = reads;
  const latest = reads.meta.latestSlot;
  const first = Math.max(params.genesisSlot, reads.meta.prunedUntil - 1);
  const target = options.target ?? (deltaPath === undefined ? latest : first);
  if (!Number.isInteger(target) || target < first || target > latest)
    throw new LedgerError('INVALID_ARGUMENT', `the target must be a slot from ${first} to ${latest}, got ${target}`);
  const imported: ImportedNetwork | undefined = importedNetworkOf(store);
  const importedAt = (slot: number): ImportedMilestone | undefined => importedMilestoneAt(store, slot);
  const timeOf = (slot: number): number => bookingTime((key) => store.get(key), params, slot);
  /** A real milestone's ID (applied, imported, the target of the snapshot imported); else the slot's. */
  const idOf = (slot: number): Uint8Array =>
    ledger.milestone(slot)?.milestoneId ?? milestoneIdOf(ledger.commitmentOf(slot)!.commitmentId);
  const applied = (slot: number) => ledger.milestone(slot)?.payload;
  /**
   * The solid entry points at `slot`: the blocks a later milestone's cone may stop at. A ledger of real milestones
   * gives the blocks of the milestones within hornet's below-max-depth (15) of it, and the entry points the snapshot
   * it was imported from gave; else the slot's blocks (or the entry points kept for it).
   */
  const seps = (slot: number): Uint8Array[] => {
    const kept = (s: number) => {
      const key = keys.solidEntryPoints(s);
      const bytes = store.get(key);
      return bytes === undefined ? undefined : checkedValue(solidEntryPoints, key, bytes, 'solid entry points');
    };
    if (applied(slot) === undefined) return kept(slot) ?? ledger.blockIdsOfSlot(slot, 0xffff);
    const ids: Uint8Array[] = [];
    for (let s = slot; s > Math.max(first - 1, slot - BELOW_MAX_DEPTH) && ids.length < 0xffff; s--)
      ids.push(...(kept(s) ?? ledger.blockIdsOfSlot(s, 0xffff - ids.length)));
    return ids.slice(0, 0xffff);
  };
  const booked = (outputId: Uint8Array): SnapshotOutput & { spender?: Uint8Array } => {
    const o = ledger.outputWithMetadata(outputId);
    return {
      outputId: o.outputId,
      blockId: o.blockId,
      milestoneIndexBooked: o.createdSlot,
      milestoneTimestampBooked: o.createdAt ?? timeOf(o.createdSlot),
      output: decode(output, o.output),
      ...(o.spent === undefined ? {} : { spender: o.spent.transactionId }),
    };
  };
  const diffOf = (slot: number): MilestoneDiff => {
    const changes = ledger.utxoChanges(slot);
    const created = changes.createdOutputs.map((id) => withoutSpender(booked(id)));
    const consumed = changes.consumedOutputs.map((id): ConsumedOutput => {
      const { spender, ...o } = booked(id);
      return { ...o, targetTransactionId: spender! };
    });
    const m = importedAt(slot);
    const real = applied(slot);
    const milestone =
      m?.milestone ??
      (real === undefined
        ? slotMilestone(params, ledger.commitmentOf(slot)!, ledger.blockIdsOfSlot(slot, 8))
        : readRecord(milestonePayload, real, 'milestone'));
    const receipt = milestone.options.some((o) => o.type === MilestoneOptionType.Receipt);
    if (receipt && m?.treasuryInput === undefined)
      throw new LedgerError('STORE_CORRUPT', `milestone ${slot} has a receipt, and the store no treasury input for it`);
    return m?.treasuryInput === undefined
      ? { milestone, created, consumed }
      : { milestone, treasuryInput: m.treasuryInput, created, consumed };
  };
  function* unspent(): Generator<SnapshotOutput> {
    for (const [id] of ledger.unspentOutputs()) yield withoutSpender(booked(id));
  }
  function* diffs(from: number, to: number, step: 1 | -1): Generator<MilestoneDiff> {
    for (let s = from; step > 0 ? s <= to : s >= to; s += step) yield diffOf(s);
  }

  const p = imported?.params;
  const treasury = ledger.treasury();
  const full = await stageSnapshotFile(
    fullPath,
    {
      version: SNAPSHOT_VERSION,
      type: SnapshotType.Full,
      genesisMilestoneIndex: imported?.genesisMilestoneIndex ?? params.genesisSlot,
      targetMilestoneIndex: target,
      targetMilestoneTimestamp: timeOf(target),
      targetMilestoneId: idOf(target),
      ledgerMilestoneIndex: latest,
      treasuryOutput: treasury,
      protocolParameters: {
        type: MilestoneOptionType.ProtocolParameters,
        targetMilestoneIndex: imported?.parametersMilestoneIndex ?? params.genesisSlot,
        protocolVersion: imported?.parametersProtocolVersion ?? params.protocolVersion,
        params: {
          protocolVersion: p?.protocolVersion ?? params.protocolVersion,
          networkName: params.networkName,
          bech32Hrp: params.bech32Hrp,
          minPowScore: params.minPowScore,
          belowMaxDepth: p?.belowMaxDepth ?? BELOW_MAX_DEPTH,
          rentStructure: params.rentStructure,
          tokenSupply: p?.tokenSupply ?? heldSupply(ledger, treasury.amount),
        },
      },
    },
    { outputs: unspent(), milestoneDiffs: diffs(latest, target + 1, -1), solidEntryPoints: seps(target) },
  );
  if (deltaPath === undefined) {
    await full.commit();
    return { full: full.header as FullSnapshotHeader };
  }
  let delta: StagedSnapshotFile;
  try {
    delta = await stageSnapshotFile(
      deltaPath,
      {
        version: SNAPSHOT_VERSION,
        type: SnapshotType.Delta,
        targetMilestoneIndex: latest,
        targetMilestoneTimestamp: timeOf(latest),
        fullSnapshotTargetMilestoneId: idOf(target),
      },
      { milestoneDiffs: diffs(target + 1, latest, 1), solidEntryPoints: seps(latest) },
    );
  } catch (e) {
    // The pair appears together or not at all.
    await full.discard();
    throw e;
  }
  await full.commit();
  await delta.commit();
  return { full: full.header as FullSnapshotHeader, delta: delta.header as DeltaSnapshotHeader };
}

/**
 * The supply a ledger tangle-core built holds: its unspent outputs and treasury. A preset's token supply is its real
 * network's; a simulated or demo ledger holds what its genesis gave, and a snapshot must add up (hornet checks it).
 */
function heldSupply(ledger: Ledger, treasury: bigint): bigint {
  let sum = treasury;
  for (const [, record] of ledger.unspentOutputs()) sum += record.output.amount;
  return sum;
}

/** hornet's default below-max-depth (protocol parameters of the Stardust networks). */
const BELOW_MAX_DEPTH = 15;

function withoutSpender<T extends { spender?: Uint8Array }>(o: T): Omit<T, 'spender'> {
  const { spender, ...rest } = o;
  return rest;
}
