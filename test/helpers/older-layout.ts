// A store as a tangle-core before store layout 7 left it (src/ledger/core/upgrade.ts): the records that layout seals
// stored bare. What the upgrade tests start from.
import { SEALED_TABLES } from '../../src/ledger/archive/index.js';
import { checkedBlockRecord } from '../../src/ledger/common/block-record.js';
import { keys, SEAL } from '../../src/ledger/common/index.js';
import { type KeyValueStore, WriteBatch } from '../../src/ledger/store/index.js';
import { LmdbStore } from '../../src/ledger/store/lmdb.js';

/** The tables layout 7 seals whole (an output index entry's value, the seal of its key, becomes empty). */
export const LAYOUT_7_TABLES: readonly number[] = [
  keys.tables.blockIndex,
  keys.tables.spentBy,
  keys.tables.outputIndex,
  keys.tables.chain,
];
/** The metadata records layout 7 seals. */
export const LAYOUT_7_RECORDS: readonly Uint8Array[] = [keys.meta, keys.recentFrom, keys.currentAt];

/** Into `batch`: each record layout 7 sealed, without its seal. */
export function unsealLayout7(store: KeyValueStore, batch: WriteBatch): void {
  for (const table of LAYOUT_7_TABLES)
    for (const [k, v] of store.entries(Uint8Array.of(table))) batch.put(k.slice(), v.slice(0, v.length - SEAL));
  for (const key of [...LAYOUT_7_RECORDS, keys.outputIndexBuilding]) {
    const record = store.get(key);
    if (record !== undefined) batch.put(key, record.slice(0, -SEAL));
  }
}

/**
 * Rewrites the store at `path` as layout 1 wrote it: block records as the block's bytes alone, the records of applied
 * milestones, their white-flag records, analytics, the archive and the transaction index without their seal (the last
 * four bytes), layout 7's records bare, its number gone. Returns how many block records it rewrote.
 */
export function toLayout1(path: string): number {
  const store = new LmdbStore(path);
  const older = new WriteBatch();
  let n = 0;
  for (const [key, record] of store.entries(Uint8Array.of(keys.tables.block))) {
    older.put(key, checkedBlockRecord(key, record).bytes.slice());
    n++;
  }
  for (const table of [...SEALED_TABLES, keys.tables.whiteFlag, keys.tables.recent, keys.tables.transaction])
    for (const [key, record] of store.entries(Uint8Array.of(table))) older.put(key, record.slice(0, -SEAL));
  unsealLayout7(store, older);
  older.delete(keys.layout);
  store.write(older);
  store.close();
  return n;
}
