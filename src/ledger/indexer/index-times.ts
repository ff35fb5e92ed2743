import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import type { Awaitable } from '../../util/awaitable.js';
import { slotEnd } from '../common/index.js';

// When the indexer says an output was created (inx-indexer's created_at: the timestamp of the milestone that booked
// it). A ledger tangle-core built keeps slots on a clock: a slot's time is its end. A ledger imported from a network's
// snapshots keeps its real milestones' times — every slot that created an output has one, and they increase with the
// slot — so they are read, and a time is found among them by binary search.

/** What a store answers of its milestones' times (IndexSource has it). */
export interface TimedSlots {
  /** The first slot from `slot` on whose milestone's time the store keeps, and that time. */
  timedSlotFrom?(slot: number): Awaitable<{ slot: number; time: number } | undefined>;
}

export class IndexTimes {
  private readonly known = new Map<number, number>();
  private readonly real: boolean;

  constructor(
    private readonly source: TimedSlots,
    private readonly params: ProtocolParameters,
    private readonly latest: number,
  ) {
    this.real = params.importedFrom !== undefined && source.timedSlotFrom !== undefined;
  }

  /** The time of a slot that created outputs (at once where the store answers at once: no turn per output). */
  of(slot: number): Awaitable<number> {
    if (!this.real) return slotEnd(this.params, slot);
    const time = this.known.get(slot);
    if (time !== undefined) return time;
    const found = this.source.timedSlotFrom!(slot);
    const keep = (r: { slot: number; time: number } | undefined) => {
      const t = r?.slot === slot ? r.time : slotEnd(this.params, slot);
      this.known.set(slot, t);
      return t;
    };
    return found instanceof Promise ? found.then(keep) : keep(found);
  }

  /** The first slot whose outputs were created after `t` (none before it created any). */
  async firstSlotAfter(t: number): Promise<number> {
    const p = this.params;
    if (!this.real) return p.genesisSlot + Math.max(0, Math.floor((t - p.genesisUnixTime) / p.slotDurationSeconds));
    return this.firstTimed((time) => time > t);
  }

  /** The slot whose time a cursor names; undefined when no slot has that time (a cursor this node did not give). */
  async slotOfCursor(time: number): Promise<number | undefined> {
    const p = this.params;
    if (!this.real) {
      const slotsIn = (time - p.genesisUnixTime) / p.slotDurationSeconds;
      return Number.isInteger(slotsIn) && slotsIn >= 1 ? p.genesisSlot + slotsIn - 1 : undefined;
    }
    const slot = await this.firstTimed((x) => x >= time);
    return slot <= this.latest && (await this.of(slot)) === time ? slot : undefined;
  }

  /**
   * The least slot with a time for which `reached` holds (it holds from some time on), else the one after the
   * latest. At slot s the first timed slot from s on is asked: whether `reached` holds there only grows with s.
   */
  private async firstTimed(reached: (time: number) => boolean): Promise<number> {
    const from = (s: number) => this.source.timedSlotFrom!(s);
    let lo = 0;
    let hi = this.latest + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const r = await from(mid);
      if (r === undefined || r.slot > this.latest || reached(r.time)) hi = mid;
      else lo = r.slot + 1;
    }
    const r = await from(lo);
    return r === undefined || r.slot > this.latest ? this.latest + 1 : r.slot;
  }
}
