import { type Meta, meta as metaCodec, type TransactionRecord } from '../../stardust/ledger-records.js';
import { bytesKey } from '../../util/bytes.js';
import { checkedBlockRecord, diffBounds, keys, readDiff, sealedValue } from '../common/index.js';
import { WriteBatch } from '../store/index.js';
import type { CommittedState } from './committed-state.js';
import type { IndexUpdate } from './transaction-index.js';

/**
 * The batch that drops the diffs, blocks (and a real milestone's white-flag record), transaction index entries and
 * spent outputs of committed slots below `until` (unspent outputs stay: they are the ledger), and the metadata after
 * it; undefined when there is nothing to do.
 */
export function planPrune(
  committed: CommittedState,
  untilSlot: number,
): { batch: WriteBatch; meta: Meta; transactions: IndexUpdate } | undefined {
  const { meta, store, params } = committed;
  const until = Math.min(untilSlot, meta.latestSlot + 1);
  if (until <= meta.prunedUntil) return undefined;
  const batch = new WriteBatch();
  // Transaction records touched by this prune (undefined: deleted), written once at the end.
  const txs = new Map<string, TransactionRecord | undefined>();
  const txRecord = (txId: Uint8Array) => {
    const k = bytesKey(txId);
    return txs.has(k) ? txs.get(k) : committed.transactions.get(txId);
  };
  // A transaction record goes once its own slot is pruned and none of its outputs is stored any more.
  const settle = (txId: Uint8Array, r: TransactionRecord | undefined) =>
    txs.set(bytesKey(txId), r === undefined || (r.slot < until && r.storedOutputs === 0) ? undefined : r);
  for (let s = meta.prunedUntil; s < until; s++) {
    const bytes = store.get(keys.diff(s));
    if (bytes === undefined) continue;
    const diff = readDiff(bytes, s, ...diffBounds(params));
    for (const o of diff.consumed) {
      const creator = o.subarray(0, 32);
      const r = txRecord(creator);
      batch.delete(keys.output(r?.slot ?? params.genesisSlot, o));
      if (r !== undefined) settle(creator, { ...r, storedOutputs: r.storedOutputs - 1 });
    }
    // The slot's blocks, and through their bytes its transactions.
    for (const [k, record] of store.entries(keys.blocksOfSlot(s))) {
      const id = k.subarray(5);
      batch.delete(k);
      batch.delete(keys.blockIndex(id));
      // The record names its transaction (and proves the name by its checksum): no hashing of the payload.
      const txId = checkedBlockRecord(k, record).transactionId;
      if (txId !== undefined) settle(txId, txRecord(txId));
    }
    batch.delete(keys.diff(s));
    // A real milestone's verdicts on its blocks go with them; its payload stays (the chain of milestone IDs).
    batch.delete(keys.whiteFlag(s));
  }
  // The recent transactions go into the index with the records this prune changed: it leaves one index behind.
  const transactions = committed.transactions.merge(batch, txs, meta.latestSlot, [], until);
  const next = { ...meta, prunedUntil: until };
  batch.put(keys.meta, sealedValue(metaCodec, keys.meta, next));
  return { batch, meta: next, transactions };
}
