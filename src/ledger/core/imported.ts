import { toHex, u32 } from '../../codec/index.js';
import { milestoneId } from '../../stardust/ids.js';
import {
  type ImportedMilestone,
  type ImportedNetwork,
  importedMilestone,
  importedNetwork,
} from '../../stardust/ledger-records.js';
import { MilestoneOptionType, type MilestonePayload } from '../../stardust/payload/milestone.js';
import {
  PROTOCOL_PARAMETERS,
  type ProtocolParameters,
  protocolParameters,
} from '../../stardust/protocol-parameters.js';
import type { SnapshotTreasuryOutput } from '../../stardust/snapshot.js';
import { checkedMilestone, checkedValue, corrupt, keys, missingRecord, readRecord } from '../common/index.js';
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

/** A real milestone a ledger knows: its index, ID and time, and its payload's bytes where they are kept. */
export interface MilestoneRef {
  index: number;
  milestoneId: Uint8Array;
  timestamp: number;
  /** The payload as the network issued it (TIP-29 bytes): kept for a milestone history/ applied. */
  payload?: Uint8Array;
}

/**
 * A real milestone by index or ID: one history/ applied (found by either), a delta snapshot's or the full snapshot's
 * target (by index); undefined for any other, or in a ledger tangle-core built. An applied one's record is checked
 * (sealed, of its index, hashing to the ID asked): STORE_CORRUPT where it is not, or where `isApplied` says the slot
 * is a milestone history/ applied and its record is missing (core/applied-records.ts).
 */
export function milestoneOf(
  store: KeyValueStore,
  ref: number | Uint8Array,
  isApplied?: (slot: number) => boolean,
): MilestoneRef | undefined {
  let slot: number;
  if (typeof ref === 'number') slot = ref;
  else {
    const entry = store.get(keys.milestoneSlot(ref));
    if (entry === undefined) return undefined;
    slot = readRecord(u32, entry, 'milestone index entry');
  }
  const key = keys.milestone(slot);
  const applied = store.get(key);
  if (applied !== undefined) {
    const asked = typeof ref === 'number' ? undefined : ref;
    const { payload, milestone, milestoneId: id } = checkedMilestone(applied, slot, asked);
    return { index: slot, milestoneId: id, timestamp: milestone.timestamp, payload };
  }
  if (typeof ref !== 'number')
    throw corrupt(`the stored index entry of milestone ${toHex(ref)}`, `it names ${slot}, where no milestone is kept`);
  if (isApplied?.(slot)) throw missingRecord(`milestone ${slot}`, key);
  const kept = importedMilestoneAt(store, slot);
  if (kept !== undefined) {
    const { milestone } = kept;
    return { index: slot, milestoneId: milestoneId(milestone), timestamp: milestone.timestamp };
  }
  const n = importedNetworkOf(store);
  if (n === undefined) return undefined;
  return slot === n.targetMilestoneIndex
    ? { index: slot, milestoneId: n.targetMilestoneId, timestamp: n.targetMilestoneTimestamp }
    : undefined;
}

/**
 * The network a ledger imported from a snapshot keeps (undefined: one tangle-core built), checked against its seal;
 * `unsealed`: of a store of a layout before the snapshot's records were sealed (core/upgrade.ts), read as it is.
 * @throws LedgerError STORE_CORRUPT
 */
export function importedNetworkOf(store: KeyValueStore, unsealed = false): ImportedNetwork | undefined {
  const bytes = store.get(keys.importedNetwork);
  if (bytes === undefined) return undefined;
  return unsealed
    ? readRecord(importedNetwork, bytes, 'imported network')
    : checkedValue(importedNetwork, keys.importedNetwork, bytes, 'imported network');
}

/** The milestone a delta snapshot gave for `slot` (and its treasury input), checked. @throws STORE_CORRUPT */
export function importedMilestoneAt(store: KeyValueStore, slot: number): ImportedMilestone | undefined {
  const key = keys.importedMilestone(slot);
  const bytes = store.get(key);
  return bytes === undefined ? undefined : checkedValue(importedMilestone, key, bytes, 'imported milestone');
}

/** The treasury output after a milestone with a receipt (TIP-34: the receipt's transaction makes it), else none. */
export function treasuryAfter(milestone: MilestonePayload): SnapshotTreasuryOutput | undefined {
  const receipt = milestone.options.find((x) => x.type === MilestoneOptionType.Receipt);
  return receipt?.type === MilestoneOptionType.Receipt
    ? { milestoneId: milestoneId(milestone), amount: receipt.transaction.output.amount }
    : undefined;
}
