import { encode, u32 } from '../../codec/index.js';
import { solidEntryPoints } from '../../stardust/ledger-records.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import { bytesKey } from '../../util/bytes.js';
import { type CommittedSlot, checkedValue, keys, sealedValue, sealRecord } from '../common/index.js';
import { WriteBatch } from '../store/index.js';
import { type AcceptContext, acceptReferenced, type Prechecked, type ReferencedOutcome } from './accept.js';
import { type MilestoneRef, milestoneOf } from './imported.js';

// What history/ applies a real milestone through: the blocks it references go into the milestone's slot (a slot is
// the milestone of the same index) as they are judged, records of its own ride in the slot's commit, and a milestone
// refused after some of its blocks were taken leaves nothing behind.

/** @internal `Ledger.milestoneWriter()`. */
export class MilestoneWriter {
  private seps: Set<string> | undefined;

  constructor(
    private readonly ctx: AcceptContext,
    private readonly commitSlot: (slot: number) => CommittedSlot,
    /** What `Ledger.precheck` found out about a block's bytes (worker threads), if it was asked. */
    private readonly prechecked: (bytes: Uint8Array) => Prechecked | undefined,
  ) {}

  /** The network's genesis milestone (a ledger imported from its snapshot), whose next milestone is its first. */
  get genesisMilestoneIndex(): number | undefined {
    return this.ctx.params.importedFrom;
  }

  private get committed() {
    return this.ctx.state.committed;
  }

  /** The milestone the latest committed slot stands for, if the ledger knows it as one. */
  latest(): MilestoneRef | undefined {
    return milestoneOf(this.committed.store, this.committed.meta.latestSlot);
  }

  /**
   * Whether white flag stops at a block: an earlier milestone referenced it (it is committed), or it is a solid entry
   * point of the snapshot the ledger started from.
   */
  confirmedBefore(blockId: Uint8Array): boolean {
    if (this.committed.blockSlot(blockId) !== undefined) return true;
    if (this.seps === undefined) {
      const key = keys.solidEntryPoints(this.ctx.params.genesisSlot);
      const bytes = this.committed.store.get(key);
      const ids = bytes === undefined ? [] : checkedValue(solidEntryPoints, key, bytes, 'solid entry points');
      this.seps = new Set(ids.map((id) => bytesKey(id)));
    }
    return this.seps.has(bytesKey(blockId));
  }

  /**
   * A referenced block into the milestone's slot (`acceptReferenced`), with what worker threads found out about it if
   * `Ledger.precheck` was given these very bytes.
   */
  accept(bytes: Uint8Array, blockId: Uint8Array, slot: number, time: number): ReferencedOutcome {
    return acceptReferenced(this.ctx, bytes, blockId, slot, time, this.prechecked(bytes)?.precheck);
  }

  /**
   * Whether blocks were accepted into `slot` otherwise (acceptBlock): a milestone's slot holds its cone's blocks alone,
   * so that a refused milestone can be forgotten whole. (Account events of the v3 model may ride beside them: a
   * refused milestone forgets those too, and a node following a network has none.)
   */
  holdsPending(slot: number): boolean {
    return (this.ctx.state.pending.peek(slot)?.blocks.length ?? 0) > 0;
  }

  /**
   * The bytes of the blocks accepted into `slot` otherwise (acceptBlock: a coordinator's open slot), taken out of it
   * in the order they came: the coordinator judges them again, in white-flag order, for the slot's milestone. With
   * `restore`, which puts the slot back as it was taken (its blocks as they were accepted, its account events): a
   * coordinator whose milestone was not committed (refused, or the store refused the write) closes the same slot again
   * later, with the same content.
   */
  takeOpenSlot(slot: number): { blocks: Uint8Array[]; restore: () => void } {
    const { taken, restore } = this.ctx.state.pending.takeSlot(slot);
    return { blocks: taken.map((b) => b.bytes), restore };
  }

  /** An output as the milestone's judged blocks left it (created by one of them, or committed): bytes and booking. */
  output(outputId: Uint8Array): { bytes: Uint8Array; booked: number } | undefined {
    const o = this.ctx.state.output(outputId);
    return o === undefined ? undefined : { bytes: o.output, booked: o.createdSlot };
  }

  /** A committed record of the store's own (a milestone's analytics), by key. */
  record(key: Uint8Array): Uint8Array | undefined {
    return this.committed.store.get(key);
  }

  /** The store's last committed record under `prefix` at or below `start` (one seek down); undefined: none. */
  lastRecord(prefix: Uint8Array, start: Uint8Array): [Uint8Array, Uint8Array] | undefined {
    for (const entry of this.committed.store.entriesDown(prefix, start)) return entry;
    return undefined;
  }

  /** The store's committed records under `prefix`, in key order (read as far as the caller goes). */
  records(prefix: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    return this.committed.store.entries(prefix);
  }

  /**
   * Writes records of the store's own outside any slot's commit, in one atomic write: the archive's base, built in
   * steps before the first measured milestone (archive/archive-base.ts). Nothing the ledger keeps in memory changes.
   */
  writeOwn(records: readonly [Uint8Array, Uint8Array | undefined][]): void {
    const batch = new WriteBatch();
    for (const [key, value] of records) {
      if (value === undefined) batch.delete(key);
      else batch.put(key, value);
    }
    this.committed.store.write(batch);
  }

  /** Forgets what was taken into a slot for a milestone that is refused. */
  discard(slot: number): void {
    this.ctx.state.pending.drop(slot);
  }

  /**
   * Commits the milestone's slot with its own records beside it (its payload, sealed: common/record-checks.ts; the
   * ID's index, the white-flag order, the time its outputs are booked at): all in the slot's one atomic write.
   */
  commit(
    milestone: MilestonePayload,
    id: Uint8Array,
    payloadBytes: Uint8Array,
    records: [Uint8Array, Uint8Array | undefined][],
  ): CommittedSlot {
    const slot = milestone.index;
    const p = this.ctx.state.pending.slot(slot);
    const key = keys.milestone(slot);
    p.records.push([key, sealRecord(key, payloadBytes)]);
    p.records.push([keys.milestoneSlot(id), encode(u32, slot)]);
    const time = keys.milestoneTime(slot);
    p.records.push([time, sealedValue(u32, time, milestone.timestamp)]);
    // One by one: a spread passes each record as an argument, and the first milestone after a large snapshot
    // (its archive built from every unspent output) has more records than the stack holds arguments.
    for (const r of records) p.records.push(r);
    return this.commitSlot(slot);
  }
}
