import { u32 } from '../../codec/index.js';
import { equalBytes } from '../../util/bytes.js';
import type { AppliedChecks } from '../archive/index.js';
import { checkedValue, keys, missingRecord, sealedValue } from '../common/index.js';
import type { CommittedState } from './committed-state.js';

// A record moved by a flipped bit of its key is gone from where every read looks (issue 57): the read finds nothing,
// and answered as for a slot that never had one — a made-up slot "milestone", a block's metadata without its
// white-flag index, a booking time from the slot clock, a range of analytics with a hole. So where a record must be
// there, its absence is damage too. The rule, the cheapest that is sound: in a ledger imported from a network's
// snapshots, every committed slot past the snapshots' milestones (the full snapshot's target, each delta's) is a
// milestone history/ applied, and its commit wrote its payload, its white-flag record (kept until a prune takes its
// blocks), its time and its analytics. Their absence is STORE_CORRUPT naming the key (common's missingRecord). A
// ledger tangle-core built (no imported network) has none of them to miss.

/** Whether committed `slot` is a milestone history/ applied, so that its records must all be there. */
export function isAppliedSlot(committed: CommittedState, slot: number): boolean {
  const { params, meta, store } = committed;
  return (
    params.importedFrom !== undefined &&
    slot > params.genesisSlot &&
    slot <= meta.latestSlot &&
    store.get(keys.importedMilestone(slot)) === undefined && // a delta snapshot's milestone: no blocks, no records
    !committedPlain(store.get(keys.plainSlotsFrom), slot)
  );
}

/**
 * Whether `slot` is at or past the first slot committed without a milestone (the record of keys.plainSlotsFrom,
 * sealed as the others: a flip would move where damage is presumed). @throws LedgerError STORE_CORRUPT
 */
const committedPlain = (from: Uint8Array | undefined, slot: number): boolean =>
  from !== undefined && slot >= checkedValue(u32, keys.plainSlotsFrom, from, 'first slot without a milestone');

/**
 * The record a commit of `slot` adds where it is the first of an imported ledger without a milestone: a testnet
 * writer's slot clock (or an embedding node) over a store the demo seeded from its genesis snapshot. Its slots have
 * no milestone records to miss.
 */
export function plainSlotRecord(
  committed: CommittedState,
  slot: number,
  records: readonly [Uint8Array, Uint8Array | undefined][],
): [Uint8Array, Uint8Array] | undefined {
  if (committed.params.importedFrom === undefined) return undefined;
  const milestone = keys.milestone(slot);
  if (records.some(([key]) => equalBytes(key, milestone))) return undefined;
  if (committed.store.get(keys.plainSlotsFrom) !== undefined) return undefined;
  return [keys.plainSlotsFrom, sealedValue(u32, keys.plainSlotsFrom, slot)];
}

/**
 * Whether the store holds committed `slot`'s blocks, so that one a record names and the store lacks is damage: not
 * pruned, and not a slot of the snapshots a ledger was imported from (the full snapshot's target and before, each
 * delta's milestone), whose outputs are held without their blocks (hornet answers 404 for them too).
 */
export function holdsBlocksOf(committed: CommittedState, slot: number): boolean {
  const { params, meta, store } = committed;
  return (
    slot >= meta.prunedUntil &&
    (params.importedFrom === undefined ||
      (slot > params.genesisSlot && store.get(keys.importedMilestone(slot)) === undefined))
  );
}

/** Whether `slot` is an applied milestone whose white-flag record is kept (a prune takes it with the blocks). */
export const keepsWhiteFlag = (committed: CommittedState, slot: number): boolean =>
  slot >= committed.meta.prunedUntil && isAppliedSlot(committed, slot);

/**
 * Whether the analytics records of `from` to `to` as the store handed them (in order) hold every applied milestone's
 * in the range. @throws LedgerError STORE_CORRUPT naming the first missing record's key
 */
function wholeAnalytics(committed: CommittedState, from: number, to: number, found: readonly { index: number }[]) {
  const last = Math.min(to, committed.meta.latestSlot);
  // Only where one is missing (fewer records than slots) is each slot asked whether it is an applied milestone's.
  if (committed.params.importedFrom === undefined || found.length >= last - from + 1) return;
  let at = 0;
  for (let slot = Math.max(from, committed.params.genesisSlot + 1); slot <= last; slot++) {
    while (at < found.length && found[at]!.index < slot) at++;
    if (found[at]?.index === slot) continue;
    if (isAppliedSlot(committed, slot)) throw missingRecord(`analytics of milestone ${slot}`, keys.analytics(slot));
  }
}

/** The checks the explorer of `committed` makes of an applied milestone's records (archive/store-explorer.ts). */
export const appliedChecks = (committed: CommittedState): AppliedChecks => ({
  keepsWhiteFlag: (slot) => keepsWhiteFlag(committed, slot),
  wholeAnalytics: (from, to, found) => wholeAnalytics(committed, from, to, found),
});
