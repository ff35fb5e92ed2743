import { toHex } from '../../codec/hex.js';
import { encode } from '../../codec/index.js';
import { TangleError } from '../../errors.js';
import { parentsOf } from '../../model/block.js';
import { blockId as computeBlockId, milestoneId } from '../../model/ids.js';
import { InclusionState, type WhiteFlagEntry, whiteFlagRecord } from '../../model/ledger-records.js';
import { MilestoneOptionType, type MilestonePayload, milestonePayload } from '../../model/payload/milestone.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { validateMilestonePayload, verifyMilestoneSignatures } from '../../validate/milestone.js';
import { type CommittedSlot, keys, LedgerError, merkleRoot } from '../common/index.js';
import type { Ledger, MilestoneWriter } from '../core/index.js';
import { whiteFlagOrder } from './white-flag.js';

// A real milestone applied as hornet applies it (TIP-2, TIP-4, TIP-29; hornet's pkg/whiteflag is the reference, the
// code is our own): the payload's rules and signatures, its place right after the ledger's latest milestone, its cone
// in white-flag order with each transaction judged against the ledger as the earlier ones left it (applied, or kept
// as conflicting with hornet's reason), and its two Merkle roots. Any failure refuses the whole milestone and leaves
// the ledger as it was; success is one atomic commit of the milestone's slot.

/** A milestone and the blocks of its cone (any order). */
export interface MilestoneInput {
  milestone: MilestonePayload;
  blocks: readonly Uint8Array[];
}

export interface AppliedMilestone {
  index: number;
  milestoneId: Uint8Array;
  /** Blocks referenced, and of them: transactions applied, and conflicting. */
  referenced: number;
  included: number;
  conflicting: number;
  committed: CommittedSlot;
}

const refuse = (index: number, why: string) => new LedgerError('MILESTONE_INVALID', `milestone ${index}: ${why}`);

/** A rule of the payload broken (a ValidationError), as the milestone's refusal naming the rule and its field. */
function payloadRule(index: number, check: () => void): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof TangleError)) throw e;
    throw refuse(index, `${e.code}${e.path === '' ? '' : ` at ${e.path}`}: ${e.detail}`);
  }
}

/**
 * Applies the next milestone to the ledger.
 * @throws LedgerError MILESTONE_INVALID (nothing written) naming the milestone and the rule it breaks; the store's
 * own errors
 */
export function applyMilestone(ledger: Ledger, input: MilestoneInput): AppliedMilestone {
  const { milestone: m, blocks } = input;
  const writer = ledger.milestoneWriter();
  checkPlace(ledger, writer, m);
  const byId = new Map<string, { id: Uint8Array; bytes: Uint8Array }>();
  for (const bytes of blocks) {
    const id = computeBlockId(bytes);
    const key = bytesKey(id);
    if (byId.has(key)) throw refuse(m.index, `block ${toHex(id)} is given twice`);
    byId.set(key, { id, bytes });
  }
  const parents = new Map<string, Uint8Array[]>();
  const order = whiteFlagOrder(m.parents, {
    parents(id) {
      const key = bytesKey(id);
      const given = byId.get(key);
      if (given === undefined) return undefined;
      let of = parents.get(key);
      if (of === undefined) {
        payloadRule(m.index, () => {
          of = parentsOf(given.bytes);
        });
        parents.set(key, of!);
      }
      return of;
    },
    confirmedBefore: (id) => writer.confirmedBefore(id),
  });
  if (order.length !== byId.size) {
    const inCone = new Set(order.map((id) => bytesKey(id)));
    const extra = [...byId.values()].find((b) => !inCone.has(bytesKey(b.id)))!;
    throw refuse(m.index, `block ${toHex(extra.id)} is not in its cone`);
  }
  try {
    return applyCone(writer, m, order, byId);
  } catch (e) {
    writer.discard(m.index);
    if (e instanceof TangleError && !(e instanceof LedgerError)) throw refuse(m.index, e.message);
    throw e;
  }
}

/** The payload's rules, and its place: the next index, after the latest milestone (its ID, a later time). */
function checkPlace(ledger: Ledger, writer: MilestoneWriter, m: MilestonePayload): void {
  const index = typeof m?.index === 'number' ? m.index : 0;
  payloadRule(index, () => validateMilestonePayload(m));
  const latest = writer.latest();
  if (latest === undefined)
    throw refuse(index, 'the ledger does not stand at a milestone of its network (import its snapshot first)');
  if (index !== latest.index + 1) throw refuse(index, `the ledger stands at milestone ${latest.index}: a gap`);
  if (!equalBytes(m.previousMilestoneId, latest.milestoneId))
    throw refuse(
      index,
      `its previous milestone ID is not ${toHex(latest.milestoneId)}, the ledger's milestone ${latest.index}`,
    );
  if (m.timestamp <= latest.timestamp)
    throw refuse(index, `its time ${m.timestamp} is not after milestone ${latest.index}'s (${latest.timestamp})`);
  if (m.options.some((o) => o.type === MilestoneOptionType.Receipt))
    throw refuse(index, 'it carries a receipt (TIP-34), which tangle-core does not apply yet');
  const keySet = ledger.params.milestoneKeys;
  if (keySet === undefined) throw refuse(index, `no milestone keys are configured for ${ledger.params.networkName}`);
  payloadRule(index, () => verifyMilestoneSignatures(m, keySet.keyRanges, keySet.threshold));
}

/** The cone's blocks into the milestone's slot in white-flag order, the roots compared, the slot committed. */
function applyCone(
  writer: MilestoneWriter,
  m: MilestonePayload,
  order: readonly Uint8Array[],
  byId: ReadonlyMap<string, { id: Uint8Array; bytes: Uint8Array }>,
): AppliedMilestone {
  const entries: WhiteFlagEntry[] = [];
  const applied: Uint8Array[] = [];
  let conflicting = 0;
  // hornet: a network's first milestone (after its genesis milestone) has no previous one; any other names one, and
  // holds it in its cone (a milestone is referenced by the next one).
  const first = m.index === (writer.genesisMilestoneIndex ?? -1) + 1;
  if (first !== m.previousMilestoneId.every((b) => b === 0))
    throw refuse(m.index, first ? 'the first milestone names a previous one' : 'it names no previous milestone');
  let previousSeen = first;
  for (const id of order) {
    const { bytes } = byId.get(bytesKey(id))!;
    const outcome = writer.accept(bytes, id, m.index, m.timestamp);
    let inclusion: number = InclusionState.NoTransaction;
    if (outcome.conflict !== undefined) {
      inclusion = InclusionState.Conflicting;
      conflicting++;
    } else if (outcome.transaction) {
      inclusion = InclusionState.Included;
      applied.push(id);
    }
    const carried = outcome.milestone;
    if (carried !== undefined && equalBytes(milestoneId(carried), m.previousMilestoneId)) previousSeen = true;
    entries.push({
      blockId: id,
      inclusion,
      conflict: outcome.conflict?.reason ?? 0,
      milestoneIndex: carried?.index ?? 0,
    });
  }
  if (!previousSeen)
    throw refuse(m.index, `its cone does not hold the previous milestone ${toHex(m.previousMilestoneId)}`);
  const inclusionRoot = merkleRoot(order);
  if (!equalBytes(inclusionRoot, m.inclusionMerkleRoot))
    throw refuse(m.index, `its inclusion Merkle root is not the cone's (${toHex(inclusionRoot)})`);
  const appliedRoot = merkleRoot(applied);
  if (!equalBytes(appliedRoot, m.appliedMerkleRoot))
    throw refuse(m.index, `its applied Merkle root is not that of the transactions applied (${toHex(appliedRoot)})`);
  const committed = writer.commit(m, encode(milestonePayload, m), [
    [keys.whiteFlag(m.index), encode(whiteFlagRecord, entries)],
  ]);
  return {
    index: m.index,
    milestoneId: milestoneId(m),
    referenced: order.length,
    included: applied.length,
    conflicting,
    committed,
  };
}
