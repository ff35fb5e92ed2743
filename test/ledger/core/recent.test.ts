// Recent transactions (transaction-index.ts): a commit appends its slot's transaction records as one record keyed
// by slot, and every RECENT_SLOTS slots they are merged into the transaction index. Lookups (an input's creating slot,
// includedBlock, an applied transaction) must give the same answers wherever a record is: recent, merged, reloaded
// by a reopened writer, followed by a reader, or merged by a prune.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Ledger,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import { TransactionIndex } from '../../../src/ledger/core/transaction-index.js';
import type { WriteBatch } from '../../../src/ledger/store/batch.js';
import type { KeyValueStore } from '../../../src/ledger/store/kv.js';
import { RECENT_SLOTS } from '../../../src/stardust/ledger-records.js';
import { errorCode } from '../../helpers/failure.js';
import { basic, genesisOutputs, owner, transferBlock } from '../../helpers/wallet.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const genesis = genesisOutputs([1, 2]);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tangle-recent-'));
  dirs.push(d);
  return d;
};
const storeOf = (l: Ledger) => (l as unknown as { committed: { store: KeyValueStore } }).committed.store;
/** How many recent transaction records a ledger holds in memory (a reader's follow what it saw on its last query). */
const inMemory = (l: Ledger) =>
  (l as unknown as { committed: { transactions: { recentCount: number } } }).committed.transactions.recentCount;
/** The first slot whose transactions are not merged yet, as the store records it (u32, little-endian). */
const storedFrom = (l: Ledger) => {
  const v = storeOf(l).get(Uint8Array.of(0x4d, 1))!;
  return new DataView(v.buffer, v.byteOffset, 4).getUint32(0, true);
};
/** The keys of a table (the first key byte), as hex. */
const table = (l: Ledger, id: number) => [...storeOf(l).entries(Uint8Array.of(id))].map(([k]) => toHex(k));
const slotKey = (table: number, slot: number) =>
  toHex(Uint8Array.of(table, slot >>> 24, slot >>> 16, slot >>> 8, slot));

/** One transfer per slot, each spending the output of the one before (the first spends genesis output 0). */
function chain(l: Ledger, from: number, to: number, previous: { outputId: Uint8Array } = genesis[0]!) {
  const txs: { slot: number; txId: Uint8Array; blockId: Uint8Array }[] = [];
  let input = { ...previous, output: basic(owner(1), 1_000_000_000n), key: 1 };
  for (let slot = from; slot <= to; slot++) {
    const r = l.acceptBlock(transferBlock(params, [input], [basic(owner(1), 1_000_000_000n)]), { slot });
    l.commitSlot(slot);
    txs.push({ slot, txId: r.transactionId!, blockId: r.blockId });
    input = { outputId: outputId(r.transactionId!, 0), output: basic(owner(1), 1_000_000_000n), key: 1 };
  }
  return txs;
}

const answersAll = (l: Ledger, txs: { slot: number; txId: Uint8Array; blockId: Uint8Array }[]) => {
  for (const t of txs) {
    const found = l.includedBlock(t.txId);
    expect({ slot: found.slot, blockId: toHex(found.blockId) }, `slot ${t.slot}`).toEqual({
      slot: t.slot,
      blockId: toHex(t.blockId),
    });
  }
};

describe('recent transactions', () => {
  it('are appended per slot, merged into the index every RECENT_SLOTS slots, and found wherever they are', () => {
    const dir = newDir();
    let w = openLedger({ path: dir, params, genesis: { outputs: genesis } });
    const reader = openLedger({ path: dir, params, readOnly: true });
    // Slot 1 also leaves an output of key 2 unspent, spent only in slot 11: found through a recent record of a slot
    // several commits back (each commit adds its own records to those it holds).
    const first = w.acceptBlock(transferBlock(params, [genesis[1]!], [basic(owner(2), 1_000_000_000n)]), { slot: 1 });
    const txs = [...chain(w, 1, 10)];
    // Nothing in the index yet but the genesis transactions' records (of no block: they count genesis outputs).
    expect(table(w, 0x54)).toEqual(genesis.map((g) => toHex(Uint8Array.of(0x54, ...g.outputId.subarray(0, 32)))));
    expect(table(w, 0x52)).toEqual(txs.map((t) => slotKey(0x52, t.slot)));
    answersAll(w, txs);
    answersAll(reader, txs);
    // A writer that opens the store again takes the recent records from it: its inputs are found through them.
    w.close();
    w = openLedger({ path: dir, params });
    answersAll(w, txs);
    const late = { outputId: outputId(first.transactionId!, 0), output: basic(owner(2), 1_000_000_000n), key: 2 };
    w.acceptBlock(transferBlock(params, [late], [basic(owner(2), 1_000_000_000n)]), { slot: 11 });
    txs.push(...chain(w, 11, RECENT_SLOTS - 1, { outputId: outputId(txs.at(-1)!.txId, 0) }));
    expect(w.output(late.outputId)).toMatchObject({ createdSlot: 1, spentSlot: 11 });
    answersAll(reader, txs);
    // The RECENT_SLOTS-th slot merges them all, its own included: the index holds them, no recent record is left;
    // the merge writes them in key order.
    const store = storeOf(w);
    const write = store.write.bind(store);
    let merged: string[] = [];
    store.write = (batch: WriteBatch) => {
      merged = batch
        .toArray()
        .filter((x) => x.key[0] === 0x54)
        .map((x) => toHex(x.key));
      write(batch);
    };
    txs.push(...chain(w, RECENT_SLOTS, RECENT_SLOTS, { outputId: outputId(txs.at(-1)!.txId, 0) }));
    // With the two transfers of key 2 (slots 1 and 11), beside the two genesis transactions' records.
    expect(table(w, 0x54)).toHaveLength(RECENT_SLOTS + 2 + genesis.length);
    expect(merged).toHaveLength(RECENT_SLOTS + 2);
    expect(merged).toEqual([...merged].sort());
    store.write = write;
    expect(table(w, 0x52)).toEqual([]);
    expect(storedFrom(w)).toBe(RECENT_SLOTS + 1);
    answersAll(w, txs);
    answersAll(reader, txs); // the reader saw the merge: it answers from the index now
    expect([inMemory(w), inMemory(reader)]).toEqual([0, 0]); // and both forgot what was merged
    txs.push(...chain(w, RECENT_SLOTS + 1, RECENT_SLOTS + 2, { outputId: outputId(txs.at(-1)!.txId, 0) }));
    expect(table(w, 0x52)).toEqual([slotKey(0x52, RECENT_SLOTS + 1), slotKey(0x52, RECENT_SLOTS + 2)]);
    expect(storedFrom(w)).toBe(RECENT_SLOTS + 1);
    answersAll(reader, txs);
    expect([inMemory(w), inMemory(reader)]).toEqual([2, 2]);
    // An answer is the caller's: changing it changes nothing the ledger holds (a recent record here).
    for (const l of [w, reader]) l.includedBlock(txs.at(-1)!.txId).blockId.fill(0);
    answersAll(w, txs.slice(-1));
    answersAll(reader, txs.slice(-1));
    // Applied transactions are refused wherever their record is (recent or merged): their input is spent.
    // (Another nonce: another block with the same transaction.)
    const replay = (slot: number, input: { outputId: Uint8Array }) =>
      errorCode(() =>
        w.acceptBlock(
          transferBlock(
            params,
            [{ ...input, output: basic(owner(1), 1_000_000_000n), key: 1 }],
            [basic(owner(1), 1_000_000_000n)],
            7n,
          ),
          { slot },
        ),
      );
    expect(replay(RECENT_SLOTS + 3, genesis[0]!)).toBe('TRANSACTION_ALREADY_APPLIED'); // the slot-1 transaction
    expect(replay(RECENT_SLOTS + 3, { outputId: outputId(txs.at(-3)!.txId, 0) })).toBe('TRANSACTION_ALREADY_APPLIED');
    reader.close();
    w.close();
  });

  it('a prune merges them first: the index is whole after it, and unpruned transactions still answer', () => {
    const dir = newDir();
    const w = openLedger({ path: dir, params, genesis: { outputs: genesis } });
    const reader = openLedger({ path: dir, params, readOnly: true });
    const txs = chain(w, 1, 6);
    answersAll(reader, txs);
    // Slots 1-3 go. The records of their first two transactions go with them (their outputs were spent in slots 2
    // and 3, pruned too); the third's output was spent in slot 4, which stays, so its record stays with it.
    w.prune(1); // nothing below slot 1 to prune: nothing written, the recent records stay
    expect(table(w, 0x52)).toHaveLength(6);
    w.prune(4);
    expect(table(w, 0x52)).toEqual([]);
    expect(storedFrom(w)).toBe(7);
    // Genesis output 0, spent in slot 1, goes with its genesis transaction's record; output 1's stays (unspent).
    expect(table(w, 0x54).sort()).toEqual(
      [...txs.slice(2).map((t) => t.txId), genesis[1]!.outputId.subarray(0, 32)]
        .map((id) => toHex(Uint8Array.of(0x54, ...id)))
        .sort(),
    );
    answersAll(w, txs.slice(3));
    answersAll(reader, txs.slice(3));
    for (const l of [w, reader]) expect(errorCode(() => l.includedBlock(txs[0]!.txId))).toBe('NOT_FOUND');
    // Commits go on recording recent transactions after the prune.
    const more = chain(w, 7, 8, { outputId: outputId(txs.at(-1)!.txId, 0) });
    expect(table(w, 0x52)).toEqual([slotKey(0x52, 7), slotKey(0x52, 8)]);
    answersAll(reader, [...txs.slice(3), ...more]);
    reader.close();
    w.close();
  });

  it("a reader's index reads each slot's recent record once, across a merge, and answers every transaction", () => {
    const w = openLedger({ path: newDir(), params, genesis: { outputs: genesis } });
    const store = storeOf(w);
    // The slots whose recent record the index asked the store for, in order.
    const recentReads: number[] = [];
    const counting = {
      get(key: Uint8Array) {
        if (key[0] === 0x52) recentReads.push(new DataView(key.buffer, key.byteOffset + 1, 4).getUint32(0));
        return store.get(key);
      },
    } as unknown as KeyValueStore;
    const txs = chain(w, 1, 5);
    const index = new TransactionIndex(counting, 5);
    expect(recentReads).toEqual([1, 2, 3, 4, 5]);
    const last = () => ({ outputId: outputId(txs.at(-1)!.txId, 0) });
    txs.push(...chain(w, 6, 8, last()));
    index.follow(8);
    expect(recentReads).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    index.follow(8); // nothing new: nothing read
    expect(recentReads).toHaveLength(8);
    // Past a merge (at slot RECENT_SLOTS): the merged records are read from the index, only the new slots' recent ones.
    txs.push(...chain(w, 9, RECENT_SLOTS + 3, last()));
    recentReads.length = 0;
    index.follow(RECENT_SLOTS + 3);
    expect(recentReads).toEqual([RECENT_SLOTS + 1, RECENT_SLOTS + 2, RECENT_SLOTS + 3]);
    expect(index.recentCount).toBe(3);
    for (const t of txs)
      expect([index.get(t.txId)?.slot, toHex(index.get(t.txId)!.blockId)], `slot ${t.slot}`).toEqual([
        t.slot,
        toHex(t.blockId),
      ]);
    w.close();
  });
});
