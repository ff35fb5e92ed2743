import { OUTPUT_RECORD_HEADER, spentSlotOf, UNSPENT } from '../../stardust/ledger-records.js';
import { checkedOutputRecord, checkedRecord, entrySeal, keys, LedgerError, sealRecord } from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';
import { indexEntries } from './output-index.js';

// The output index built after the fact, in steps (issue 58): a snapshot's import writes its millions of outputs
// without their entries (4.5 of the 6.9 records an output costs), and the store's first writer builds them in the
// background while it serves, as inx-indexer builds its index beside a node.
//
// Why it neither misses nor doubles an output created or spent meanwhile: the commits keep the index as always (they
// put the entries of the outputs they create and delete those of the outputs they spend), and a step reads the
// output table and writes its entries in one synchronous turn, between two commits, never across one. A step gives
// entries only to the outputs it finds unspent, so an output spent before the build reached it gets none, one spent
// after keeps none (its commit deleted them), and one created meanwhile gets the same keys twice, which is one key.
//
// Crash-safe: where the build is (its phase, its cursor, its counts) is written in the same batch as the entries of
// the step, so a build killed mid-way resumes at the opening after, from the last step that was written.
//
// A build over a store kept without the indexer for a while starts by clearing the table (phase `clear`): its entries
// are stale (those commits kept none). A snapshot's import has none, and starts at the outputs.

const CLEAR = 0;
const OUTPUTS = 1;
const EMPTY = new Uint8Array(0);

/** How far a build has come: output records read, of those the store held when it began. */
export interface IndexBuildProgress {
  indexedOutputs: number;
  outputs: number;
}

interface BuildState extends IndexBuildProgress {
  phase: typeof CLEAR | typeof OUTPUTS;
  /** The last key the phase handled (empty: none yet). */
  cursor: Uint8Array;
}

/** The build's record, sealed under its key (store layout 7): a flip would resume the build at a wrong key. */
function encodeState(s: BuildState): Uint8Array {
  const record = new Uint8Array(17 + s.cursor.length);
  const view = new DataView(record.buffer);
  record[0] = s.phase;
  view.setFloat64(1, s.indexedOutputs, false);
  view.setFloat64(9, s.outputs, false);
  record.set(s.cursor, 17);
  return sealRecord(keys.outputIndexBuilding, record);
}

function readState(stored: Uint8Array): BuildState {
  const record = checkedRecord(keys.outputIndexBuilding, stored, 'output index build');
  if (record.length < 17 || (record[0] !== CLEAR && record[0] !== OUTPUTS))
    throw new LedgerError('STORE_CORRUPT', 'the record of the output index build is damaged');
  const view = new DataView(record.buffer, record.byteOffset, record.length);
  return {
    phase: record[0] as typeof CLEAR,
    indexedOutputs: view.getFloat64(1, false),
    outputs: view.getFloat64(9, false),
    cursor: record.slice(17),
  };
}

/** How far the store's build has come; undefined when none runs (the index is built, or not kept). */
export function indexBuildProgress(store: KeyValueStore): IndexBuildProgress | undefined {
  const bytes = store.get(keys.outputIndexBuilding);
  if (bytes === undefined) return undefined;
  const { indexedOutputs, outputs } = readState(bytes);
  return { indexedOutputs, outputs };
}

/** Into `batch`: a build to run over `outputs` output records; `clear`: the table holds stale entries first. */
export function startIndexBuild(batch: WriteBatch, outputs: number, clear: boolean): void {
  batch.delete(keys.outputIndexBuilt);
  batch.put(
    keys.outputIndexBuilding,
    encodeState({ phase: clear ? CLEAR : OUTPUTS, indexedOutputs: 0, outputs, cursor: EMPTY }),
  );
}

/** The output records of a store (keys only read: a count at a build's start, for its progress). */
export function countOutputRecords(store: KeyValueStore): number {
  let n = 0;
  store.scan(Uint8Array.of(keys.tables.output), undefined, () => {
    n++;
    return true;
  });
  return n;
}

/**
 * One step of the store's build: up to `limit` records handled, in one write with the build's new state. Returns
 * true once the index is built (the marker `outputIndexBuilt` written, the build's record gone), or when none runs.
 */
export function indexBuildStep(store: KeyValueStore, limit: number): boolean {
  const bytes = store.get(keys.outputIndexBuilding);
  if (bytes === undefined) return true;
  const s = readState(bytes);
  const batch = new WriteBatch();
  let seen = 0;
  let last: Uint8Array | undefined;
  if (s.phase === CLEAR) {
    const table = Uint8Array.of(keys.tables.outputIndex);
    for (const [k] of store.entries(table, s.cursor.length > 0 ? s.cursor : undefined)) {
      batch.delete(k);
      last = k;
      if (++seen === limit) break;
    }
  } else {
    const table = Uint8Array.of(keys.tables.output);
    for (const [k, record] of store.entries(table, s.cursor.length > 0 ? s.cursor : undefined)) {
      if (k.length === s.cursor.length && Buffer.compare(k, s.cursor) === 0) continue; // handled by the last step
      checkedOutputRecord(k, record);
      last = k;
      s.indexedOutputs++;
      if (spentSlotOf(record) === UNSPENT) {
        const slot = new DataView(k.buffer, k.byteOffset + 1, 4).getUint32(0, false); // key: table, u32 BE slot, ID
        for (const e of indexEntries(record.subarray(OUTPUT_RECORD_HEADER), slot, k.subarray(5))) {
          const key = keys.outputIndex(e);
          batch.put(key, entrySeal(key));
        }
      }
      if (++seen === limit) break;
    }
  }
  const done = seen < limit;
  if (done && s.phase === CLEAR) {
    batch.put(keys.outputIndexBuilding, encodeState({ ...s, phase: OUTPUTS, cursor: EMPTY }));
  } else if (done) {
    batch.delete(keys.outputIndexBuilding);
    batch.put(keys.outputIndexBuilt, Uint8Array.of(1));
  } else {
    batch.put(keys.outputIndexBuilding, encodeState({ ...s, cursor: last!.slice() }));
  }
  store.write(batch);
  return done && s.phase === OUTPUTS;
}
