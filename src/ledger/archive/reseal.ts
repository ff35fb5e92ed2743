import { keys, sealRecord } from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';

// The upgrade of a store written before the records of applied milestones, their analytics and the archive were
// sealed (issue 57: common/record-checks.ts): every record of those tables gains its seal. For the step of the store
// layout's upgrade that brings a store to the layout with sealed records; a store already there must not run it
// (a seal cannot tell itself from a record's last four bytes).

/** The tables whose every record is sealed: applied milestones, analytics and their columns, the archive's. */
export const SEALED_TABLES: readonly number[] = [
  keys.tables.milestone,
  keys.tables.analytics,
  keys.tables.analyticsColumn,
  keys.tables.address,
  keys.tables.milestoneUpdate,
  keys.tables.richest,
];

/**
 * Seals every record of SEALED_TABLES in a store of the layout before sealed records, in writes of `perWrite`
 * records (the archive of a long history is millions: one write would hold them all in memory). Each write is
 * atomic, the whole is not: a store interrupted part way must be upgraded again from a copy, or the caller runs
 * it in the upgrade's own bookkeeping (the layout version written last). The number of records sealed.
 */
export function resealRecords(store: KeyValueStore, perWrite = 10_000): number {
  let sealed = 0;
  for (const table of SEALED_TABLES) {
    const prefix = Uint8Array.of(table);
    let start: Uint8Array | undefined;
    do {
      // A range read, then its write: no write while a range of the store is open.
      const batch = new WriteBatch();
      let n = 0;
      let next: Uint8Array | undefined;
      for (const [k, v] of store.entries(prefix, start)) {
        if (n === perWrite) {
          next = k.slice();
          break;
        }
        batch.put(k.slice(), sealRecord(k, v));
        n++;
      }
      if (n > 0) store.write(batch);
      sealed += n;
      start = next;
    } while (start !== undefined);
  }
  return sealed;
}
