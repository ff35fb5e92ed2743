import { encode } from '../codec/index.js';
import { blake2b256 } from '../crypto/hash.js';
import { transactionPayloadBytes } from '../model/block-layout.js';
import { bytesKey, keyBytes } from '../util/bytes.js';
import { type CommittedState, readRecord } from './committed.js';
import { keys, type Meta, meta as metaCodec, slotDiff, type TransactionRecord, transactionRecord } from './records.js';
import type { Write } from './store/kv.js';

/**
 * The batch that drops the diffs, blocks, transaction index entries and spent outputs of committed slots below
 * `until` (unspent outputs stay: they are the ledger), and the metadata after it; undefined when there is nothing to
 * do.
 */
export function planPrune(committed: CommittedState, untilSlot: number): { batch: Write[]; meta: Meta } | undefined {
  const { meta, store, params } = committed;
  const until = Math.min(untilSlot, meta.latestSlot + 1);
  if (until <= meta.prunedUntil) return undefined;
  const batch: Write[] = [];
  // Transaction records touched by this prune (undefined: deleted), written once at the end.
  const txs = new Map<string, TransactionRecord | undefined>();
  const txRecord = (txId: Uint8Array) => {
    const k = bytesKey(txId);
    return txs.has(k) ? txs.get(k) : committed.transaction(txId);
  };
  // A transaction record goes once its own slot is pruned and none of its outputs is stored any more.
  const settle = (txId: Uint8Array, r: TransactionRecord | undefined) =>
    txs.set(bytesKey(txId), r === undefined || (r.slot < until && r.storedOutputs === 0) ? undefined : r);
  for (let s = meta.prunedUntil; s < until; s++) {
    const bytes = store.get(keys.diff(s));
    if (bytes === undefined) continue;
    const diff = readRecord(slotDiff, bytes, 'diff');
    for (const o of diff.consumed) {
      const creator = o.subarray(0, 32);
      const r = txRecord(creator);
      batch.push({ key: keys.output(r?.slot ?? params.genesisSlot, o), value: undefined });
      if (r !== undefined) settle(creator, { ...r, storedOutputs: r.storedOutputs - 1 });
    }
    // The slot's blocks, and through their bytes its transactions.
    for (const [k, blockBytes] of store.entries(keys.blocksOfSlot(s))) {
      const id = k.subarray(5);
      batch.push({ key: k, value: undefined });
      batch.push({ key: keys.blockIndex(id), value: undefined });
      const payload = transactionPayloadBytes(blockBytes);
      if (payload !== undefined) {
        const txId = blake2b256(payload);
        settle(txId, txRecord(txId));
      }
    }
    batch.push({ key: keys.diff(s), value: undefined });
  }
  for (const [t, r] of txs) {
    batch.push({
      key: keys.transaction(keyBytes(t)),
      value: r === undefined ? undefined : encode(transactionRecord, r),
    });
  }
  const next = { ...meta, prunedUntil: until };
  batch.push({ key: keys.meta, value: encode(metaCodec, next) });
  return { batch, meta: next };
}
