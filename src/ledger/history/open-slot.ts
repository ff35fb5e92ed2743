import { buildBlock } from '../../builders/index.js';
import { encodeBlock } from '../../serialize.js';
import { parentsOf } from '../../stardust/block.js';
import { blockId } from '../../stardust/ids.js';
import { type MilestonePayload, milestonePayload } from '../../stardust/payload/milestone.js';
import { PayloadType } from '../../stardust/type-codes.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { readRecord, slotEnd } from '../common/index.js';
import type { Ledger } from '../core/index.js';
import { type IssuedMilestone, issueMilestone } from './coordinator.js';

// A test network's coordinator over a ledger that takes blocks as they come (the demo's, and those posted to it:
// acceptBlock into the open slot, so they are served and attached to at once): at the slot's end its blocks are taken
// out and the slot's milestone issued over them, judged again in white-flag order as every node will judge them. A
// Stardust network's blocks, then: each milestone references the blocks since the one before, and its own block is
// the first of the next slot's.

/** A milestone has at most 8 parents (TIP-29), like any block (TIP-24). */
const MAX_PARENTS = 8;
const utf8 = new TextEncoder();

/** The block that carries a milestone: its parents the milestone's, no proof of work on a test network. */
export function milestoneBlock(ledger: Ledger, milestone: MilestonePayload): Uint8Array {
  return encodeBlock(buildBlock({ parents: milestone.parents, payload: milestone, params: ledger.params }));
}

export interface CloseSlotOptions {
  /** Blocks to reference besides the slot's (ones acceptBlock refuses: conflicting transactions). */
  extra?: readonly Uint8Array[];
  /** The coordinator's secret keys (the testnet preset's: `TESTNET_COORDINATOR_SECRET`). */
  secretKeys: readonly Uint8Array[];
}

/**
 * Issues the milestone of the open slot (the one after the latest committed), at the slot's end time, over the blocks
 * accepted into it and `extra`: a block whose parents are not all known (confirmed, or among these) is dropped, as a
 * node never references a block it cannot make solid; while more than 8 are tips, a block referencing 8 of them is
 * added. The milestone's block is then accepted into the next slot. If nothing is committed (a refusal, the store's
 * failure), the slot is left open as it was, to be closed again. @throws LedgerError MILESTONE_INVALID, STORE_FAILURE
 */
export function closeSlot(ledger: Ledger, o: CloseSlotOptions): IssuedMilestone {
  const writer = ledger.milestoneWriter();
  const slot = ledger.latestCommitment().slot + 1;
  const open = writer.takeOpenSlot(slot);
  try {
    return issueOver(ledger, slot, open.blocks, o);
  } catch (e) {
    // Nothing was committed (a refused milestone, a full disk): the slot is open again as it was, its blocks and
    // account events in place, so that closing it again later issues the same milestone.
    if (ledger.latestCommitment().slot < slot) open.restore();
    throw e;
  }
}

function issueOver(ledger: Ledger, slot: number, taken: Uint8Array[], o: CloseSlotOptions): IssuedMilestone {
  const writer = ledger.milestoneWriter();
  const given = [...taken, ...(o.extra ?? [])].map((bytes) => ({ bytes, id: blockId(bytes) }));
  // The previous milestone's block, if this slot did not take it (a coordinator restarted: what was open is gone).
  const latest = writer.latest();
  if (latest?.payload !== undefined) {
    const bytes = milestoneBlock(ledger, readRecord(milestonePayload, latest.payload, 'milestone'));
    const id = blockId(bytes);
    if (!given.some((b) => equalBytes(b.id, id))) given.unshift({ bytes, id });
  }

  const solid = new Map<string, { bytes: Uint8Array; id: Uint8Array; parents: Uint8Array[] }>();
  for (const { bytes, id } of given) {
    const parents = parentsOf(bytes);
    if (parents.every((p) => solid.has(bytesKey(p)) || writer.confirmedBefore(p)))
      solid.set(bytesKey(id), { bytes, id, parents });
  }
  const referenced = new Set<string>();
  for (const b of solid.values()) for (const p of b.parents) referenced.add(bytesKey(p));
  let tips = [...solid.values()].filter((b) => !referenced.has(bytesKey(b.id))).map((b) => b.id);
  const blocks = [...solid.values()].map((b) => b.bytes);
  for (let merge = 0; tips.length > MAX_PARENTS; merge++) {
    const payload = { type: PayloadType.TaggedData, tag: utf8.encode('merge'), data: utf8.encode(`${slot} ${merge}`) };
    const bytes = encodeBlock(buildBlock({ parents: tips.slice(0, MAX_PARENTS), payload, params: ledger.params }));
    blocks.push(bytes);
    tips = [...tips.slice(MAX_PARENTS), blockId(bytes)];
  }
  // An empty slot's milestone references the last one's block, or on a new network its genesis (the all-zero ID).
  const parents = tips.length > 0 ? tips : [new Uint8Array(32)];
  const issued = issueMilestone(ledger, {
    parents,
    blocks,
    timestamp: slotEnd(ledger.params, slot),
    secretKeys: o.secretKeys,
  });
  ledger.acceptBlock(milestoneBlock(ledger, issued.milestone), { slot: slot + 1 });
  return issued;
}
