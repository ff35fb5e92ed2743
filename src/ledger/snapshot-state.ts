import { toHex } from '../codec/hex.js';
import { encode, u32 } from '../codec/index.js';
import { outputChainId } from '../model/ids.js';
import {
  OUTPUT_RECORD_HEADER,
  setSpentSlot,
  spentSlotOf,
  type TransactionRecord,
  transactionRecord,
  UNSPENT,
  writeOutputRecord,
} from '../model/ledger-records.js';
import { output } from '../model/output.js';
import type { SnapshotOutput } from '../model/snapshot.js';
import { bytesKey, equalBytes } from '../util/bytes.js';
import { LedgerError } from './errors.js';
import { indexOutput } from './indexer-store.js';
import { readRecord } from './integrity.js';
import { WriteBatch } from './store/batch.js';
import type { KeyValueStore } from './store/kv.js';
import { keys } from './store-keys.js';

// The ledger state a snapshot import writes, one output at a time, with everything the ledger keeps beside an output:
// its record (keyed by its booked milestone: slot = milestone index), its transaction's record (block ID, booked
// slot, how many of its outputs are stored), its chain's current output, its output index entries, the booked
// milestone's timestamp. Writes gather in a batch written every BATCH_OUTPUTS outputs; reads see only what is written
// (the importer flushes before a milestone diff, whose changes it plans from what is stored).

const BATCH_OUTPUTS = 10_000;

export class SnapshotState {
  private batch = new WriteBatch(1 << 20, 4 * BATCH_OUTPUTS);
  private pending = 0;
  /** Transaction records changed in the batch, by `bytesKey` of their ID (several outputs share one). */
  private readonly txs = new Map<string, { id: Uint8Array; record: TransactionRecord }>();
  /** Milestones whose timestamp is written (a bitmap by index: millions of milestones in a few megabytes). */
  private timed = new Uint8Array(1024);
  /** Sum of the stored unspent outputs' amounts. */
  supply = 0n;
  outputs = 0;

  constructor(private readonly store: KeyValueStore) {}

  /** Stores a booked output, unspent. */
  add(o: SnapshotOutput): void {
    const bytes = encode(output, o.output);
    const slot = o.milestoneIndexBooked;
    const record = new Uint8Array(OUTPUT_RECORD_HEADER + bytes.length);
    writeOutputRecord(record, 0, slot, bytes);
    this.batch.put(keys.output(slot, o.outputId), record);
    this.transaction(o.outputId, (r) => {
      if (r === undefined) return { blockId: o.blockId.slice(), slot, storedOutputs: 1 };
      if (r.slot !== slot || !equalBytes(r.blockId, o.blockId))
        throw invalid(`output ${toHex(o.outputId)} is booked apart from its transaction's other outputs`);
      return { ...r, storedOutputs: r.storedOutputs + 1 };
    });
    const chain = outputChainId(o.output, o.outputId);
    if (chain !== undefined) this.batch.put(keys.chain(chain), o.outputId);
    indexOutput(this.batch, true, bytes, slot, o.outputId);
    this.time(slot, o.milestoneTimestampBooked);
    this.supply += o.output.amount;
    this.outputs++;
    if (++this.pending >= BATCH_OUTPUTS) this.flush();
  }

  /** Removes a stored unspent output (a milestone rolled back created it). */
  remove(o: SnapshotOutput): void {
    const key = this.unspent(o, 'is not in the ledger that the diff of its milestone changes').key;
    this.batch.delete(key);
    this.transaction(o.outputId, (r) => {
      if (r === undefined || r.storedOutputs === 0) throw invalid(`no transaction record of ${toHex(o.outputId)}`);
      return r.storedOutputs === 1 ? undefined : { ...r, storedOutputs: r.storedOutputs - 1 };
    });
    this.retire(o);
  }

  /** Marks a stored unspent output spent in `slot` by `transactionId` (a delta's milestone consumed it). */
  spend(o: SnapshotOutput, slot: number, transactionId: Uint8Array): void {
    const { key, stored } = this.unspent(o, `is consumed by milestone ${slot} but is not unspent in the ledger`);
    setSpentSlot(stored, 0, slot);
    this.batch.put(key, stored);
    this.batch.put(keys.spentBy(o.outputId), transactionId.slice());
    this.retire(o);
  }

  /** The stored record of an output that must be unspent (else the snapshot does not hold together: `why`). */
  private unspent(o: SnapshotOutput, why: string): { key: Uint8Array; stored: Uint8Array } {
    const key = keys.output(o.milestoneIndexBooked, o.outputId);
    const stored = this.store.get(key);
    if (stored === undefined || spentSlotOf(stored) !== UNSPENT) throw invalid(`output ${toHex(o.outputId)} ${why}`);
    return { key, stored };
  }

  /** An output leaves the unspent set: its chain (if it is the chain's current output), index entries and amount. */
  private retire(o: SnapshotOutput): void {
    const chain = outputChainId(o.output, o.outputId);
    if (chain !== undefined) {
      const current = this.store.get(keys.chain(chain));
      if (current !== undefined && equalBytes(current, o.outputId)) this.batch.delete(keys.chain(chain));
    }
    indexOutput(this.batch, false, encode(output, o.output), o.milestoneIndexBooked, o.outputId);
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
    this.batch.put(keys.milestoneTime(slot), encode(u32, timestamp));
  }

  flush(): void {
    for (const { id, record } of this.txs.values()) {
      if (record.storedOutputs === 0) this.batch.delete(keys.transaction(id));
      else this.batch.put(keys.transaction(id), encode(transactionRecord, record));
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
      const bytes = this.store.get(keys.transaction(id));
      const record = bytes === undefined ? undefined : readRecord(transactionRecord, bytes, 'transaction');
      entry = { id: id.slice(), record: record ?? { blockId: new Uint8Array(32), slot: 0, storedOutputs: 0 } };
      this.txs.set(k, entry);
    }
    const next = change(entry.record.storedOutputs === 0 ? undefined : entry.record);
    entry.record = next ?? { ...entry.record, storedOutputs: 0 };
  }
}

export const invalid = (detail: string) => new LedgerError('SNAPSHOT_INVALID', detail);
