import { encode, u32 } from '../codec/index.js';
import { blake2b256 } from '../crypto/hash.js';
import { transactionPayloadBytes } from '../model/block-layout.js';
import { bytesKey, keyBytes } from '../util/bytes.js';
import { type CommittedState, readRecord } from './committed.js';
import { keys, type Meta, meta as metaCodec, slotDiff, type TransactionRecord, transactionRecord } from './records.js';
import { WriteBatch } from './store/batch.js';

/**
 * The batch that drops the diffs, blocks, transaction index entries and spent outputs of committed slots below
 * `until` (unspent outputs stay: they are the ledger), and the metadata after it; undefined when there is nothing to
 * do.
 */
export function planPrune(
  committed: CommittedState,
  untilSlot: number,
): { batch: WriteBatch; meta: Meta; recent: { from: number; transactions: [] } } | undefined {
  const { meta, store, params } = committed;
  const until = Math.min(untilSlot, meta.latestSlot + 1);
  if (until <= meta.prunedUntil) return undefined;
  const batch = new WriteBatch();
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
      batch.delete(keys.output(r?.slot ?? params.genesisSlot, o));
      if (r !== undefined) settle(creator, { ...r, storedOutputs: r.storedOutputs - 1 });
    }
    // The slot's blocks, and through their bytes its transactions.
    for (const [k, blockBytes] of store.entries(keys.blocksOfSlot(s))) {
      const id = k.subarray(5);
      batch.delete(k);
      batch.delete(keys.blockIndex(id));
      const payload = transactionPayloadBytes(blockBytes);
      if (payload !== undefined) {
        const txId = blake2b256(payload);
        settle(txId, txRecord(txId));
      }
    }
    batch.delete(keys.diff(s));
  }
  // The recent transactions (committed.ts) go into the index first, as the records this prune left them: it then
  // reads and writes one index only.
  for (const [k, r] of committed.recentTransactions) if (!txs.has(k)) txs.set(k, r);
  for (let s = committed.recentFrom; s <= meta.latestSlot; s++) batch.delete(keys.recent(s));
  batch.put(keys.recentFrom, encode(u32, meta.latestSlot + 1));
  for (const [t, r] of txs) {
    if (r === undefined) batch.delete(keys.transaction(keyBytes(t)));
    else batch.put(keys.transaction(keyBytes(t)), encode(transactionRecord, r));
  }
  const next = { ...meta, prunedUntil: until };
  batch.put(keys.meta, encode(metaCodec, next));
  return { batch, meta: next, recent: { from: meta.latestSlot + 1, transactions: [] } };
}
