import type { Awaitable } from '../../util/awaitable.js';
import { keys, slotOfKey } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import { holdsSome } from './holding-values.js';
import { atMilestone, holdingAt } from './holdings.js';

// The holdings (holdings.ts) as a reader asks them: a subject's members at milestone N, each member's last record at
// or below N — a seek per member the subject ever had, whatever N is. The embedded store's answers here;
// PostgreSQL's over the same sealed records (ledger/postgres/holding-tables.ts).

export interface MemberAt {
  member: Uint8Array;
  /** The milestone that wrote the holding. */
  index: number;
  /** The holding (holding-values.ts, by kind); never its kind's empty value. */
  value: Uint8Array;
}

export interface HoldingsHistory {
  /** The first milestone whose holdings are kept; undefined: none yet. */
  holdingsFrom(): Awaitable<number | undefined>;
  /** The members of a kind's subject that hold something at milestone `at`, in member order. */
  membersAt(kind: number, subject: Uint8Array, at: number): Awaitable<MemberAt[]>;
}

export class StoreHoldings implements HoldingsHistory {
  constructor(private readonly store: KeyValueStore) {}

  holdingsFrom(): number | undefined {
    for (const [k] of this.store.entries(Uint8Array.of(keys.tables.holdingsOfMilestone))) return slotOfKey(k);
    return undefined;
  }

  membersAt(kind: number, subject: Uint8Array, at: number): MemberAt[] {
    const prefix = keys.holding(kind, subject);
    const found: MemberAt[] = [];
    let start: Uint8Array | undefined;
    for (;;) {
      // The next member: its first key after the last one's records.
      let next: Uint8Array | undefined;
      for (const [k] of this.store.entries(prefix, start)) {
        next = k.slice(0, k.length - 4);
        break;
      }
      if (next === undefined) return found;
      const held = holdingAt(this.last, next, at);
      if (held !== undefined && holdsSome(kind, held.value))
        found.push({ member: next.slice(prefix.length), index: held.index, value: held.value.slice() });
      const after = atMilestone(next, 0xffff_ffff);
      start = new Uint8Array(after.length + 1); // the least key above every one of this member's
      start.set(after);
    }
  }

  private readonly last = (prefix: Uint8Array, start: Uint8Array): [Uint8Array, Uint8Array] | undefined => {
    for (const entry of this.store.entriesDown(prefix, start)) return entry;
    return undefined;
  };
}
