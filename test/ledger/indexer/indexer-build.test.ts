// The output index built in the background (issue 58: a snapshot's import leaves it to the first writer), against
// an index the commits kept from genesis (the way every ledger tangle-core builds itself is indexed): a store with the
// same history, whose entries must be the same bytes. Meanwhile the indexer's routes answer 503 with the build's
// counts, never a partial list; outputs created and spent while the build runs, before and after its cursor, end up
// indexed exactly (and against test/helpers/indexer-scan.ts's plain scan of the unspent outputs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBlock, type Ledger, type Output, openLedger, outputId, transactionId } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { LmdbStore } from '../../../src/ledger/store/index.js';
import { anyOutput, paged, params, scan, serve, unspentOf } from '../../helpers/indexer-scan.js';
import { basic, owner, type Spendable, transferBlock } from '../../helpers/wallet.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-index-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Key k's genesis output, its ID all `byte`: where it sits in the store's order (creating slot, then ID). */
const spendable = (k: number, byte: number): Spendable => ({
  outputId: outputId(new Uint8Array(32).fill(byte), 0),
  output: basic(owner(k), 1_000_000_000n),
  key: k,
});
// Key 1's output is the first in the store's order, key 2's the last: the build passes one early, the other late.
const FIRST = spendable(1, 0x01);
const LAST = spendable(2, 0xfe);
const others: Output[] = fc.sample(anyOutput, { numRuns: 60, seed: 58 });
const genesis = [
  FIRST,
  LAST,
  ...others.map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0x10 + i), 1), output })),
];

/** The output index's table, every key in order, as hex (the two stores compared byte for byte). */
function indexTable(path: string): string[] {
  const store = new LmdbStore(path, { readOnly: true });
  try {
    return [...store.entries(Uint8Array.of(keys.tables.outputIndex))].map(([k]) => Buffer.from(k).toString('hex'));
  } finally {
    store.close();
  }
}

/** Spends `input` in `slot` into two outputs of keys 3 and 4 (its amount split 3:2); commits; returns them. */
function transfer(ledgers: Ledger[], slot: number, input: Spendable): Spendable[] {
  const amount = input.output.amount;
  const outputs = [basic(owner(3), (amount * 3n) / 5n), basic(owner(4), amount - (amount * 3n) / 5n)];
  const bytes = transferBlock(params, [input], outputs, BigInt(slot));
  for (const l of ledgers) {
    l.acceptBlock(bytes, { slot });
    l.commitSlot(slot);
  }
  const tx = transactionId(decodeBlock(bytes).payload as never);
  return outputs.map((output, i) => ({ outputId: outputId(tx, i), output, key: 3 + i }));
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

describe('the output index built in steps while the writer commits', () => {
  it('503 with its counts meanwhile; then the entries commits kept, the outputs of the meantime exact', async () => {
    const kept = join(dir, 'kept');
    const built = join(dir, 'built');
    const reference = openLedger({ path: kept, params, genesis: { outputs: genesis } });
    // The other store is kept without the indexer for a slot (its entries go stale: the build clears them first).
    openLedger({ path: built, params, genesis: { outputs: genesis } }).close();
    let ledger = openLedger({ path: built, params, indexer: false });
    const [early] = transfer([reference, ledger], 1, spendable(1, 0x01));
    ledger.close();
    ledger = openLedger({ path: built, params, indexBuild: { atOpening: 0, batch: 7, background: false } });
    const records = genesis.length + 2; // key 1's output (spent) and the transfer's two
    expect(ledger.indexerBuild()).toEqual({ indexedOutputs: 0, outputs: records });

    const server = await serve(ledger);
    try {
      const res = await fetch(`${server.origin}/api/indexer/v1/outputs/basic?address=${'x'}`);
      expect(res.status).toBe(400); // a bad query is still the client's
      const during = await fetch(`${server.origin}/api/indexer/v1/outputs`);
      expect(during.status).toBe(503);
      expect(during.headers.get('retry-after')).toBe('10');
      expect(await during.json()).toEqual({
        error: { code: 503, message: `service unavailable: the indexer's entries are being built (0 of ${records})` },
        indexerBuild: { code: 'INDEXER_BUILDING', indexedOutputs: 0, outputs: records, fraction: 0 },
      });
      const health = (await (await fetch(`${server.origin}/health`)).json()) as any;
      expect(health.indexerBuild).toEqual({ indexedOutputs: 0, outputs: records });

      // Steps until the build reads outputs; then slots: LAST (ahead of the cursor) and an output created during the
      // build (behind it, then) spent; outputs created and kept.
      let steps = 0;
      while (ledger.indexerBuild()!.indexedOutputs === 0) {
        expect(ledger.indexBuilder!.step()).toBe(false);
        steps++;
      }
      expect(steps).toBeGreaterThan(3); // the stale entries took steps of their own
      const progress = ledger.indexerBuild()!;
      expect(progress.indexedOutputs).toBe(7);
      const mid = await (await fetch(`${server.origin}/api/indexer/v1/outputs/nft`)).json();
      expect((mid as any).indexerBuild.indexedOutputs).toBe(7);
      expect((mid as any).items).toBeUndefined();
      const [a, b] = transfer([reference, ledger], 2, LAST);
      const [c] = transfer([reference, ledger], 3, a!);
      expect(ledger.indexBuilder!.step()).toBe(false);
      const [d] = transfer([reference, ledger], 4, early!);
      let done = false;
      while (!done) done = ledger.indexBuilder!.step();
      expect(ledger.indexerBuild()).toBeUndefined();
      expect(((await (await fetch(`${server.origin}/health`)).json()) as any).indexerBuild).toBeUndefined();

      // Whole and exact: the plain scan's answer, the spent outputs absent and the created present.
      const all = await paged(server.origin, 'outputs', {}, 50, 4);
      expect(all).toEqual(scan('outputs', {}, unspentOf(ledger)));
      for (const gone of [FIRST, LAST, early!, a!]) expect(all).not.toContain(hex(gone.outputId));
      for (const there of [b!, c!, d!]) expect(all).toContain(hex(there.outputId));
    } finally {
      await server.close();
      ledger.close();
      reference.close();
    }
    const entries = indexTable(built);
    expect(entries.length).toBeGreaterThan(records);
    expect(entries).toEqual(indexTable(kept));
  });

  it('a build stopped part way resumes at the next opening, from the step last written', () => {
    const kept = join(dir, 'kept2');
    const built = join(dir, 'built2');
    openLedger({ path: kept, params, genesis: { outputs: genesis } }).close();
    openLedger({ path: built, params, genesis: { outputs: genesis }, indexer: false }).close();
    let ledger = openLedger({ path: built, params, indexBuild: { atOpening: 0, batch: 5, background: false } });
    while (ledger.indexerBuild()!.indexedOutputs < 20) ledger.indexBuilder!.step();
    ledger.close(); // as a kill would: the steps written stay, nothing after them was
    ledger = openLedger({ path: built, params, indexBuild: { atOpening: 0, batch: 5, background: false } });
    expect(ledger.indexerBuild()).toEqual({ indexedOutputs: 20, outputs: genesis.length });
    ledger.close();
    // A store small enough is built whole at its opening (the default): no 503 for it.
    ledger = openLedger({ path: built, params });
    expect(ledger.indexerBuild()).toBeUndefined();
    ledger.close();
    expect(indexTable(built)).toEqual(indexTable(kept));
  });
});
