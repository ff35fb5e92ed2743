import { encode, toHex, u32 } from '../../codec/index.js';
import { outputChainId } from '../../stardust/ids.js';
import {
  OUTPUT_RECORD_HEADER,
  setSpentSlot,
  spentSlotOf,
  type TransactionRecord,
  UNSPENT,
  writeOutputRecord,
} from '../../stardust/ledger-records.js';
import { output } from '../../stardust/output.js';
import type { SnapshotOutput } from '../../stardust/snapshot.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import {
  checkedOutputRecord,
  checkedRecord,
  checkedTransaction,
  keys,
  LedgerError,
  sealedTransaction,
  sealedValue,
  sealOutputRecord,
  sealRecord,
} from '../common/index.js';
import { type KeyValueStore, SortedRunsWorker, WriteBatch } from '../store/index.js';

// The ledger state a snapshot import writes, one output at a time, with everything the ledger keeps beside an output:
// its record (keyed by its booked milestone: slot = milestone index), its transaction's record (block ID, booked
// slot, how many of its outputs are stored), its chain's current output, the booked milestone's timestamp. Not its
// output index entries: the store's first writer builds those in the background (indexer/index-build.ts). Writes
// gather in a batch written every BATCH_OUTPUTS outputs; reads see only what is written (the importer flushes before
// a milestone diff, whose changes it plans from what is stored). The full snapshot's outputs, millions of them, are a
// bulk load instead (startBulk … endBulk): sorted apart, then appended in key order.

const BATCH_OUTPUTS = 10_000;
const EMPTY = new Uint8Array(0);

export class SnapshotState {
  private batch = new WriteBatch(1 << 20, 4 * BATCH_OUTPUTS);
  private pending = 0;
  /** Transaction records changed in the batch, by `bytesKey` of their ID (several outputs share one). */
  private readonly txs = new Map<string, { id: Uint8Array; record: TransactionRecord }>();
  /** Milestones whose timestamp is written (a bitmap by index: millions of milestones in a few megabytes). */
  private timed = new Uint8Array(1024);
  /** The external sort of a bulk load (startBulk), on a thread of its own, while one runs. */
  private runs: SortedRunsWorker | undefined;
  /** Sum of the stored unspent outputs' amounts. */
  supply = 0n;
  outputs = 0;
  /** Output records stored, spent or not (what the index's build will read). */
  records = 0;

  constructor(private readonly store: KeyValueStore) {}

  /**
   * From now until `endBulk`, outputs go through an external sort (store/sorted-runs.ts, its runs in `dir`, on a
   * thread of its own) instead of the store: nothing is stored, and nothing can be read, until `endBulk` appends them
   * all in key order. The producer awaits `ready()` whenever `busy` says the sort is behind.
   */
  startBulk(dir: string): void {
    this.flush();
    this.runs = new SortedRunsWorker(dir);
  }

  /** Stops a bulk load's sort thread, if one runs (an import that failed midway): it would keep the process alive. */
  async close(): Promise<void> {
    const runs = this.runs;
    this.runs = undefined;
    await runs?.close();
  }

  /** Whether the bulk load's sort is behind: await `ready()` before the next `add`. */
  get busy(): boolean {
    return this.runs?.busy === true;
  }

  ready(): Promise<void> {
    return this.runs?.ready() ?? Promise.resolve();
  }

  /** Stores a booked output, unspent. */
  add(o: SnapshotOutput): void {
    const bytes = encode(output, o.output);
    const slot = o.milestoneIndexBooked;
    const record = new Uint8Array(OUTPUT_RECORD_HEADER + bytes.length);
    writeOutputRecord(record, 0, slot, bytes);
    sealOutputRecord(keys.output(slot, o.outputId), record);
    this.time(slot, o.milestoneTimestampBooked);
    this.supply += o.output.amount;
    this.outputs++;
    this.records++;
    if (this.runs !== undefined) {
      this.addSorted(this.runs, o, record);
      return;
    }
    this.batch.put(keys.output(slot, o.outputId), record);
    this.transaction(o.outputId, (r) => {
      if (r === undefined) return { blockId: o.blockId.slice(), slot, storedOutputs: 1 };
      if (r.slot !== slot || !equalBytes(r.blockId, o.blockId))
        throw invalid(`output ${toHex(o.outputId)} is booked apart from its transaction's other outputs`);
      return { ...r, storedOutputs: r.storedOutputs + 1 };
    });
    const chain = outputChainId(o.output, o.outputId);
    const chainKey = chain && keys.chain(chain);
    if (chainKey !== undefined) this.batch.put(chainKey, sealRecord(chainKey, o.outputId));
    if (++this.pending >= BATCH_OUTPUTS) this.flush();
  }

  /** An output's records into the sort: its transaction's as its block and slot, merged in `endBulk`. */
  private addSorted(runs: SortedRunsWorker, o: SnapshotOutput, record: Uint8Array): void {
    const slot = o.milestoneIndexBooked;
    const { tables } = keys;
    runs.addSlotted(tables.output, EMPTY, slot, o.outputId, record);
    const booking = new Uint8Array(36);
    booking.set(o.blockId);
    new DataView(booking.buffer).setUint32(32, slot, false);
    runs.add(keys.transactionOfOutput(o.outputId), booking);
    const chain = outputChainId(o.output, o.outputId);
    const chainKey = chain && keys.chain(chain);
    if (chainKey !== undefined) runs.add(chainKey, sealRecord(chainKey, o.outputId));
    if (++this.pending >= BATCH_OUTPUTS) this.flush(); // the milestone times
  }

  /**
   * The sorted outputs into the store, appended table by table; each transaction's record made of its outputs'
   * bookings (one block and milestone for all of them). A key twice is a snapshot that names an output twice.
   */
  async endBulk(): Promise<void> {
    const runs = this.runs;
    if (runs === undefined) return;
    this.runs = undefined;
    this.flush();
    let batch = new WriteBatch(16 << 20, 1 << 17);
    let tx: { key: Uint8Array; booking: Uint8Array; count: number } | undefined;
    const endTransaction = () => {
      if (tx === undefined) return;
      const { key, booking, count } = tx;
      const slot = new DataView(booking.buffer, booking.byteOffset).getUint32(32, false);
      batch.put(key, sealedTransaction(key, { blockId: booking.subarray(0, 32), slot, storedOutputs: count }), true);
      tx = undefined;
    };
    const last = Buffer.alloc(1 << 16); // the key before (the merge's buffer moves on)
    let lastLength = -1;
    for await (const chunk of runs.merged()) {
      for (const pair of chunk) {
        const { buf, keyAt, keyEnd, valueEnd } = pair;
        if (buf[keyAt] === keys.tables.transaction) {
          const booking = buf.subarray(keyEnd, valueEnd);
          if (tx !== undefined && buf.compare(tx.key, 0, tx.key.length, keyAt, keyEnd) === 0) {
            if (!equalBytes(booking, tx.booking))
              throw invalid(`transaction ${toHex(tx.key.subarray(1))} has outputs booked apart from each other`);
            tx.count++;
            continue;
          }
          endTransaction();
          tx = { key: new Uint8Array(buf.subarray(keyAt, keyEnd)), booking: new Uint8Array(booking), count: 1 };
          continue;
        }
        endTransaction();
        if (lastLength === keyEnd - keyAt && last.compare(buf, keyAt, keyEnd, 0, lastLength) === 0)
          throw invalid(twice(buf.subarray(keyAt, keyEnd)));
        lastLength = buf.copy(last, 0, keyAt, keyEnd);
        batch.putFrom(buf, keyAt, keyEnd, valueEnd, true);
        if (batch.length >= 100_000) {
          this.store.write(batch);
          batch = new WriteBatch(16 << 20, 1 << 17);
        }
      }
    }
    endTransaction();
    this.store.write(batch);
  }

  /** Removes a stored unspent output (a milestone rolled back created it). */
  remove(o: SnapshotOutput): void {
    const key = this.unspent(o, 'is not in the ledger that the diff of its milestone changes').key;
    this.batch.delete(key);
    this.transaction(o.outputId, (r) => {
      if (r === undefined || r.storedOutputs === 0) throw invalid(`no transaction record of ${toHex(o.outputId)}`);
      return r.storedOutputs === 1 ? undefined : { ...r, storedOutputs: r.storedOutputs - 1 };
    });
    this.records--;
    this.retire(o);
  }

  /** Marks a stored unspent output spent in `slot` by `transactionId` (a delta's milestone consumed it). */
  spend(o: SnapshotOutput, slot: number, transactionId: Uint8Array): void {
    const { key, stored } = this.unspent(o, `is consumed by milestone ${slot} but is not unspent in the ledger`);
    setSpentSlot(stored, 0, slot);
    sealOutputRecord(key, stored);
    this.batch.put(key, stored);
    const spender = keys.spentBy(o.outputId);
    this.batch.put(spender, sealRecord(spender, transactionId));
    this.retire(o);
  }

  /** The stored record of an output that must be unspent (else the snapshot does not hold together: `why`). */
  private unspent(o: SnapshotOutput, why: string): { key: Uint8Array; stored: Uint8Array } {
    const key = keys.output(o.milestoneIndexBooked, o.outputId);
    const found = this.store.get(key);
    const stored = found === undefined ? undefined : checkedOutputRecord(key, found);
    if (stored === undefined || spentSlotOf(stored) !== UNSPENT) throw invalid(`output ${toHex(o.outputId)} ${why}`);
    return { key, stored };
  }

  /** An output leaves the unspent set: its chain (if it is the chain's current output) and amount. */
  private retire(o: SnapshotOutput): void {
    const chain = outputChainId(o.output, o.outputId);
    if (chain !== undefined) {
      const key = keys.chain(chain);
      const current = this.store.get(key);
      if (current !== undefined && equalBytes(checkedRecord(key, current, 'chain entry'), o.outputId))
        this.batch.delete(key);
    }
    this.supply -= o.output.amount;
    this.outputs--;
    this.pending++;
  }

  /** Whether an output is stored (spent or not). */
  has(o: SnapshotOutput): boolean {
    return this.store.get(keys.output(o.milestoneIndexBooked, o.outputId)) !== undefined;
  }

  /** A stored record (what is flushed). */
  get(key: Uint8Array): Uint8Array | undefined {
    return this.store.get(key);
  }

  /** Writes a record beside the outputs (metadata, a slot's diff and commitment). */
  put(key: Uint8Array, value: Uint8Array): void {
    this.batch.put(key, value);
  }

  /** The timestamp of a milestone, written once. */
  time(slot: number, timestamp: number): void {
    const byte = slot >>> 3;
    if (byte >= this.timed.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.timed.length * 2));
      grown.set(this.timed);
      this.timed = grown;
    }
    const bit = 1 << (slot & 7);
    if ((this.timed[byte]! & bit) !== 0) return;
    this.timed[byte]! |= bit;
    const key = keys.milestoneTime(slot);
    this.batch.put(key, sealedValue(u32, key, timestamp));
  }

  flush(): void {
    for (const { id, record } of this.txs.values()) {
      const key = keys.transaction(id);
      if (record.storedOutputs === 0) this.batch.delete(key);
      else this.batch.put(key, sealedTransaction(key, record));
    }
    this.txs.clear();
    if (this.batch.length > 0) this.store.write(this.batch);
    this.batch = new WriteBatch(1 << 20, 4 * BATCH_OUTPUTS);
    this.pending = 0;
  }

  /** Changes the record of an output's transaction (read from the batch's changes, else the store). */
  private transaction(
    outputId: Uint8Array,
    change: (r: TransactionRecord | undefined) => TransactionRecord | undefined,
  ): void {
    const id = outputId.subarray(0, 32);
    const k = bytesKey(id);
    let entry = this.txs.get(k);
    if (entry === undefined) {
      const key = keys.transaction(id);
      const bytes = this.store.get(key);
      const record = bytes === undefined ? undefined : checkedTransaction(key, bytes);
      entry = { id: id.slice(), record: record ?? { blockId: new Uint8Array(32), slot: 0, storedOutputs: 0 } };
      this.txs.set(k, entry);
    }
    const next = change(entry.record.storedOutputs === 0 ? undefined : entry.record);
    entry.record = next ?? { ...entry.record, storedOutputs: 0 };
  }
}

export const invalid = (detail: string) => new LedgerError('SNAPSHOT_INVALID', detail);

/** Why a key came twice out of the bulk load's sort. */
function twice(key: Uint8Array): string {
  if (key[0] === keys.tables.output) return `the snapshot names output ${toHex(key.subarray(5))} twice`;
  if (key[0] === keys.tables.chain) return `the snapshot has two unspent outputs of chain ${toHex(key.subarray(1))}`;
  return `the snapshot makes a record twice (${toHex(key)})`;
}
