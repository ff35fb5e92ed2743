import { encode, toHex } from '../../codec/index.js';
import { merkleRoot } from '../../crypto/index.js';
import { TangleError } from '../../errors.js';
import { parentsOf } from '../../stardust/block.js';
import { blockId as computeBlockId, milestoneId } from '../../stardust/ids.js';
import { InclusionState, type WhiteFlagEntry, whiteFlagRecord } from '../../stardust/ledger-records.js';
import { type MilestonePayload, milestonePayload } from '../../stardust/payload/milestone.js';
import type { TransactionPayload } from '../../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { verifyMilestoneSignatures } from '../../validate/index.js';
import { type CommittedSlot, keys, LedgerError, sealRecord } from '../common/index.js';
import type { MilestoneWriter } from '../core/index.js';
import { whiteFlagOrder } from './white-flag.js';

// A milestone's cone, the steps applying a milestone and issuing one share: the blocks given, put in white-flag order
// from the milestone's parents; each taken into the milestone's slot and judged (applied, conflicting, no
// transaction); the roots of what was judged; the slot committed with the milestone's records.

export const refuse = (index: number, why: string) =>
  new LedgerError('MILESTONE_INVALID', `milestone ${index}: ${why}`);

/** A rule broken (a TangleError of the codec or of validation), as the milestone's refusal naming it and its field. */
export function asRefusal(index: number, check: () => void): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof TangleError) || e instanceof LedgerError) throw e;
    throw refuse(index, `${e.code}${e.path === '' ? '' : ` at ${e.path}`}: ${e.detail}`);
  }
}

export interface Cone {
  /** The blocks in white-flag order. */
  order: Uint8Array[];
  bytes: Map<string, Uint8Array>;
}

/**
 * The given blocks in white-flag order from `parents`: each given once, every block of the cone given, none given
 * that is not in it. @throws LedgerError MILESTONE_INVALID
 */
export function gatherCone(
  writer: MilestoneWriter,
  index: number,
  parents: readonly Uint8Array[],
  blocks: readonly Uint8Array[],
): Cone {
  if (writer.holdsPending(index))
    throw refuse(index, `slot ${index} holds blocks accepted otherwise (a milestone's slot is its cone's alone)`);
  const bytes = new Map<string, Uint8Array>();
  for (const b of blocks) {
    const id = computeBlockId(b);
    const key = bytesKey(id);
    if (bytes.has(key)) throw refuse(index, `block ${toHex(id)} is given twice`);
    bytes.set(key, b);
  }
  const parentsByKey = new Map<string, Uint8Array[]>();
  const order = whiteFlagOrder(parents, {
    parents(id) {
      const key = bytesKey(id);
      const given = bytes.get(key);
      // Not given, and (asked for) not confirmed before: refused here, where the milestone is known.
      if (given === undefined) throw refuse(index, `block ${toHex(id)} of the cone is missing`);
      let of = parentsByKey.get(key);
      if (of === undefined) {
        asRefusal(index, () => {
          of = parentsOf(given);
        });
        parentsByKey.set(key, of!);
      }
      return of;
    },
    confirmedBefore: (id) => writer.confirmedBefore(id),
  });
  if (order.length !== bytes.size) {
    const inCone = new Set(order.map((id) => bytesKey(id)));
    const extra = [...bytes.keys()].find((k) => !inCone.has(k))!;
    throw refuse(index, `block ${toHex(computeBlockId(bytes.get(extra)!))} is not in its cone`);
  }
  return { order, bytes };
}

export interface Judged {
  entries: WhiteFlagEntry[];
  /** Each entry's transaction as the ledger decoded it (undefined: none), for the analytics (decoded once). */
  transactions: (TransactionPayload | undefined)[];
  /** The blocks whose transactions were applied, in order. */
  applied: Uint8Array[];
  conflicting: number;
  inclusionRoot: Uint8Array;
  appliedRoot: Uint8Array;
}

/**
 * Each block of the cone into slot `index`, in order, its transaction judged at `timestamp` against the ledger as the
 * earlier ones left it; the cone must hold the previous milestone (a network's first has none). The caller discards
 * the slot if this throws. @throws LedgerError MILESTONE_INVALID, the store's errors
 */
export function judgeCone(
  writer: MilestoneWriter,
  index: number,
  timestamp: number,
  previousMilestoneId: Uint8Array,
  cone: Cone,
): Judged {
  // hornet: a network's first milestone (after its genesis milestone) has no previous one; any other names one, and
  // holds it in its cone (a milestone is referenced by the next one).
  const first = index === (writer.genesisMilestoneIndex ?? -1) + 1;
  if (first !== previousMilestoneId.every((b) => b === 0))
    throw refuse(index, first ? 'the first milestone names a previous one' : 'it names no previous milestone');
  let previousSeen = first;
  const entries: WhiteFlagEntry[] = [];
  const transactions: (TransactionPayload | undefined)[] = [];
  const applied: Uint8Array[] = [];
  let conflicting = 0;
  for (const id of cone.order) {
    let outcome: ReturnType<MilestoneWriter['accept']> | undefined;
    asRefusal(index, () => {
      outcome = writer.accept(cone.bytes.get(bytesKey(id))!, id, index, timestamp);
    });
    const { conflict, transaction, milestone: carried } = outcome!;
    let inclusion: number = InclusionState.NoTransaction;
    if (conflict !== undefined) {
      inclusion = InclusionState.Conflicting;
      conflicting++;
    } else if (transaction) {
      inclusion = InclusionState.Included;
      applied.push(id);
    }
    if (carried !== undefined && equalBytes(milestoneId(carried), previousMilestoneId)) previousSeen = true;
    entries.push({ blockId: id, inclusion, conflict: conflict?.reason ?? 0, milestoneIndex: carried?.index ?? 0 });
    transactions.push(outcome!.transactionPayload);
  }
  if (!previousSeen) throw refuse(index, `its cone does not hold the previous milestone ${toHex(previousMilestoneId)}`);
  return {
    entries,
    transactions,
    applied,
    conflicting,
    inclusionRoot: merkleRoot(cone.order),
    appliedRoot: merkleRoot(applied),
  };
}

/** What applying (or issuing) a milestone did. */
export interface AppliedMilestone {
  index: number;
  milestoneId: Uint8Array;
  /** Blocks referenced, and of them: transactions applied, and conflicting. */
  referenced: number;
  included: number;
  conflicting: number;
  committed: CommittedSlot;
}

/** `work` on milestone `index`'s slot; what it took there is forgotten if it throws (nothing of it is written). */
export function inSlot<T>(writer: MilestoneWriter, index: number, work: () => T): T {
  try {
    return work();
  } catch (e) {
    writer.discard(index);
    throw e;
  }
}

/**
 * Milestones whose signatures checked lately, by the network's keys: each as its ID and signatures. The follower
 * checks a milestone's signatures before it fetches the cone, and applyMilestone checks them again; an Ed25519
 * verification costs about a millisecond, a quarter of applying an everyday milestone. Kept by content, not by
 * object: a payload changed since is checked again.
 */
const checked = new WeakMap<object, string[]>();
const CHECKED_KEPT = 32;

/** The milestone's signatures against the network's keys and threshold (TIP-29), as a refusal naming the rule. */
export function checkSignatures(params: ProtocolParameters, m: MilestonePayload): void {
  const keys = params.milestoneKeys;
  if (keys === undefined) throw refuse(m.index, `no milestone keys are configured for ${params.networkName}`);
  asRefusal(m.index, () => {
    const signatures = m.signatures.map((s) => toHex(s.publicKey) + toHex(s.signature)).join(' ');
    const signed = `${keys.threshold} ${toHex(milestoneId(m))} ${signatures}`;
    const recent = checked.get(keys) ?? [];
    if (recent.includes(signed)) return;
    verifyMilestoneSignatures(m, keys.keyRanges, keys.threshold);
    recent.push(signed);
    if (recent.length > CHECKED_KEPT) recent.shift();
    checked.set(keys, recent);
  });
}

/**
 * The milestone's slot committed with its records (payload, ID, white-flag record, and `more`: its analytics): one
 * atomic write.
 */
export function commitCone(
  writer: MilestoneWriter,
  m: MilestonePayload,
  cone: Cone,
  judged: Judged,
  more: [Uint8Array, Uint8Array | undefined][],
): AppliedMilestone {
  const id = milestoneId(m);
  const committed = writer.commit(m, id, encode(milestonePayload, m), [
    [keys.whiteFlag(m.index), sealRecord(keys.whiteFlag(m.index), encode(whiteFlagRecord, judged.entries))],
    ...more,
  ]);
  return {
    index: m.index,
    milestoneId: id,
    referenced: cone.order.length,
    included: judged.applied.length,
    conflicting: judged.conflicting,
    committed,
  };
}
