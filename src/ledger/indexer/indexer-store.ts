import { toHex } from '../../codec/hex.js';
import { u32 } from '../../codec/index.js';
import { OUTPUT_RECORD_HEADER, spentSlotOf, UNSPENT } from '../../model/ledger-records.js';
import { checkedOutputRecord, corrupt, keys, LedgerError, readRecord, slotOfKey } from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';
import type { IndexPosition, IndexSource } from './indexer-query.js';
import { indexEntries } from './output-index.js';

// The output index in the embedded store: its entries are keys of their own table (no values), written and deleted
// in the commit that creates or spends their outputs, so the index is always of one committed state, whole.

const EMPTY = new Uint8Array(0);

/** Into `batch`: the entries of an output the slot creates (`put`), or of one it spends. */
export function indexOutput(batch: WriteBatch, put: boolean, outputBytes: Uint8Array, slot: number, id: Uint8Array) {
  for (const entry of indexEntries(outputBytes, slot, id)) {
    if (put) batch.put(keys.outputIndex(entry), EMPTY);
    else batch.delete(keys.outputIndex(entry));
  }
}

export const outputIndexBuilt = (store: KeyValueStore) => store.get(keys.outputIndexBuilt) !== undefined;

/**
 * Builds the output index of a store that has none (written without it, or kept without it since): every entry of
 * a stale index goes, every unspent output gets its entries, and the marker says the commits keep it from now on.
 * One write: a store is indexed whole or not at all.
 */
export function buildOutputIndex(store: KeyValueStore): void {
  const batch = new WriteBatch();
  for (const [k] of store.entries(Uint8Array.of(keys.tables.outputIndex))) batch.delete(k);
  for (const [k, record] of store.entries(Uint8Array.of(keys.tables.output))) {
    checkedOutputRecord(k, record);
    if (spentSlotOf(record) !== UNSPENT) continue;
    const view = new DataView(k.buffer, k.byteOffset + 1, 4); // key: table, u32 BE slot, output ID
    indexOutput(batch, true, record.subarray(OUTPUT_RECORD_HEADER), view.getUint32(0, false), k.subarray(5));
  }
  batch.put(keys.outputIndexBuilt, Uint8Array.of(1));
  store.write(batch);
}

/**
 * At a writer's opening: builds the index when it is wanted and missing; when it is not wanted, its marker goes (the
 * commits will not keep it), so that a later opening with it rebuilds it.
 */
export function settleOutputIndex(store: KeyValueStore, wanted: boolean): void {
  const built = outputIndexBuilt(store);
  if (wanted && !built) buildOutputIndex(store);
  if (!wanted && built) {
    const batch = new WriteBatch();
    batch.delete(keys.outputIndexBuilt);
    store.write(batch);
  }
}

/** The indexer's view of the embedded store. @throws LedgerError INDEXER_DISABLED when the store keeps no index */
export function storeIndexSource(store: KeyValueStore, latestSlot: () => number): IndexSource {
  if (!outputIndexBuilt(store))
    throw new LedgerError('INDEXER_DISABLED', 'this store keeps no output index (its writer runs without the indexer)');
  const table = Uint8Array.of(keys.tables.outputIndex);
  return {
    latestSlot,
    scan(prefix, start, limit) {
      const found: Uint8Array[] = [];
      if (limit <= 0) return found;
      const p = keys.outputIndex(prefix);
      for (const [k] of store.entries(p, keys.outputIndex(start))) {
        found.push(k.subarray(table.length));
        if (found.length === limit) break;
      }
      return found;
    },
    timedSlotFrom(slot) {
      for (const [k, v] of store.entries(Uint8Array.of(keys.tables.milestoneTime), keys.milestoneTime(slot))) {
        return { slot: slotOfKey(k), time: readRecord(u32, v, 'milestone time') };
      }
      return undefined;
    },
    outputs: (positions: readonly IndexPosition[]) =>
      positions.map((p) => {
        const key = keys.output(p.slot, p.outputId);
        const record = store.get(key);
        // The index names an unspent output: its record is there (written in the same commit) and whole.
        if (record === undefined)
          throw corrupt(`the output ${toHex(p.outputId)}`, 'the index names it, the store has no record');
        return spentSlotOf(checkedOutputRecord(key, record)) !== UNSPENT
          ? undefined
          : record.subarray(OUTPUT_RECORD_HEADER);
      }),
  };
}
