import { milestoneId } from '../../model/ids.js';
import { type ImportedNetwork, importedMilestone, importedNetwork } from '../../model/ledger-records.js';
import { MilestoneOptionType, type MilestonePayload } from '../../model/payload/milestone.js';
import { PROTOCOL_PARAMETERS, type ProtocolParameters, protocolParameters } from '../../model/protocol-parameters.js';
import type { SnapshotTreasuryOutput } from '../../model/snapshot.js';
import { keys, readRecord } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';

// What a ledger imported from a network's snapshots (snapshot-import.ts) keeps of its network, shared by the embedded
// store and the PostgreSQL store that mirrors it.

/** The protocol parameters of a ledger imported from a snapshot (its network's preset where it has one). */
export function importedParams(n: ImportedNetwork): ProtocolParameters {
  const preset =
    Object.values(PROTOCOL_PARAMETERS).find((p) => p.networkName === n.params.networkName) ??
    PROTOCOL_PARAMETERS.testnet;
  return protocolParameters(preset, {
    networkName: n.params.networkName,
    bech32Hrp: n.params.bech32Hrp,
    minPowScore: n.params.minPowScore,
    tokenSupply: n.params.tokenSupply,
    rentStructure: n.params.rentStructure,
    genesisSlot: n.targetMilestoneIndex,
    // The genesis slot ends at the target milestone's time.
    genesisUnixTime: Math.max(0, n.targetMilestoneTimestamp - n.slotDurationSeconds),
    slotDurationSeconds: n.slotDurationSeconds,
    importedFrom: n.genesisMilestoneIndex,
  });
}

/** A milestone of the snapshots a ledger was imported from: its real ID and time. */
export interface ImportedMilestoneRef {
  milestoneId: Uint8Array;
  timestamp: number;
}

/**
 * The real milestone at `slot` of a ledger imported from snapshots: a delta's milestone (its payload is kept) or the
 * full snapshot's target (its ID and time are kept with the network); undefined for any other slot, or a ledger
 * tangle-core built.
 */
export function importedMilestoneOf(store: KeyValueStore, slot: number): ImportedMilestoneRef | undefined {
  const kept = store.get(keys.importedMilestone(slot));
  if (kept !== undefined) {
    const { milestone } = readRecord(importedMilestone, kept, 'imported milestone');
    return { milestoneId: milestoneId(milestone), timestamp: milestone.timestamp };
  }
  const network = store.get(keys.importedNetwork);
  if (network === undefined) return undefined;
  const n = readRecord(importedNetwork, network, 'imported network');
  return slot === n.targetMilestoneIndex
    ? { milestoneId: n.targetMilestoneId, timestamp: n.targetMilestoneTimestamp }
    : undefined;
}

/** The treasury output after a milestone with a receipt (TIP-34: the receipt's transaction makes it), else none. */
export function treasuryAfter(milestone: MilestonePayload): SnapshotTreasuryOutput | undefined {
  const receipt = milestone.options.find((x) => x.type === MilestoneOptionType.Receipt);
  return receipt?.type === MilestoneOptionType.Receipt
    ? { milestoneId: milestoneId(milestone), amount: receipt.transaction.output.amount }
    : undefined;
}
