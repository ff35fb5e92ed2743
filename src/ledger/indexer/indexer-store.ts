import { toHex, u32 } from '../../codec/index.js';
import { OUTPUT_RECORD_HEADER, spentSlotOf, UNSPENT } from '../../stardust/ledger-records.js';
import {
  checkedEntry,
  checkedOutputRecord,
  checkedValue,
  corrupt,
  entrySeal,
  keys,
  LedgerError,
  slotOfKey,
} from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';
import {
  countOutputRecords,
  type IndexBuildProgress,
  indexBuildProgress,
  indexBuildStep,
  startIndexBuild,
} from './index-build.js';
import type { IndexPosition, IndexSource } from './indexer-query.js';
import { indexEntries } from './output-index.js';

// The output index in the embedded store: its entries are keys of their own table, written and deleted in the commit
// that creates or spends their outputs, so the index is always of one committed state, whole. An entry's value is
// the seal of its key (common's entrySeal, store layout 7), checked as the entry is read: a flipped bit of a key
// would list a wrong output ID, answered 200 as a right one.

/** Into `batch`: the entries of an output the slot creates (`put`), or of one it spends. */
export function indexOutput(batch: WriteBatch, put: boolean, outputBytes: Uint8Array, slot: number, id: Uint8Array) {
  for (const entry of indexEntries(outputBytes, slot, id)) {
    const key = keys.outputIndex(entry);
    if (put) batch.put(key, entrySeal(key));
    else batch.delete(key);
  }
}

export const outputIndexBuilt = (store: KeyValueStore) => store.get(keys.outputIndexBuilt) !== undefined;

/**
 * At a writer's opening: when the index is wanted and missing, starts its build (index-build.ts), done here at once
 * when at most `atOpening` outputs are left to it (else the writer runs it in steps); when it is not wanted, its
 * marker and any build go (the commits will not keep it), so that a later opening with it builds it again. Returns
 * whether a build is left to run.
 */
export function settleOutputIndex(store: KeyValueStore, wanted: boolean, atOpening = Number.POSITIVE_INFINITY) {
  const built = outputIndexBuilt(store);
  if (!wanted) {
    if (built || store.get(keys.outputIndexBuilding) !== undefined) {
      const batch = new WriteBatch();
      batch.delete(keys.outputIndexBuilt);
      batch.delete(keys.outputIndexBuilding);
      store.write(batch);
    }
    return false;
  }
  if (built) return false;
  let progress = indexBuildProgress(store);
  if (progress === undefined) {
    const batch = new WriteBatch();
    startIndexBuild(batch, countOutputRecords(store), true); // a stale index's entries go first
    store.write(batch);
    progress = indexBuildProgress(store)!;
  }
  if (progress.outputs - progress.indexedOutputs > atOpening) return true;
  while (!indexBuildStep(store, Number.MAX_SAFE_INTEGER));
  return false;
}

/** The indexer's view of the embedded store. @throws LedgerError INDEXER_DISABLED when the store keeps no index */
export function storeIndexSource(store: KeyValueStore, latestSlot: () => number): IndexSource {
  const building = indexBuildProgress(store);
  if (building !== undefined) throw buildingError(building);
  if (!outputIndexBuilt(store))
    throw new LedgerError('INDEXER_DISABLED', 'this store keeps no output index (its writer runs without the indexer)');
  const table = Uint8Array.of(keys.tables.outputIndex);
  const what = "indexer's entry";
  return {
    latestSlot,
    scan(prefix, start, limit) {
      const found: Uint8Array[] = [];
      if (limit <= 0) return found;
      const p = keys.outputIndex(prefix);
      for (const [k, v] of store.entries(p, keys.outputIndex(start))) {
        checkedEntry(k, v, what);
        found.push(k.subarray(table.length));
        if (found.length === limit) break;
      }
      return found;
    },
    timedSlotFrom(slot) {
      for (const [k, v] of store.entries(Uint8Array.of(keys.tables.milestoneTime), keys.milestoneTime(slot))) {
        return { slot: slotOfKey(k), time: checkedValue(u32, k, v, 'milestone time') };
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

/** A query refused while the index is built (never a partial answer): how far the build has come. */
export function buildingError(p: IndexBuildProgress): LedgerError {
  return new LedgerError(
    'INDEXER_BUILDING',
    `the indexer's entries are being built: ${p.indexedOutputs} of ${p.outputs} outputs indexed, try again later`,
  );
}
