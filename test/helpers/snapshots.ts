import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  importedParams,
  inspectStore,
  type Ledger,
  openLedger,
  outputChainId,
  readSnapshot,
  type SnapshotRecord,
  toHex,
} from '../../src/index.js';
import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';
import { serveJson } from './serve-json.js';
import { VECTORS_DIR } from './vectors.js';

// The snapshot tests' common openings: hornet's snapshot files (vectors/snapshots), and a file's records in a list.

/** A snapshot file of vectors/snapshots, as bytes. */
export const snapshotVector = (name: string) => new Uint8Array(readFileSync(join(VECTORS_DIR, 'snapshots', name)));

/** Every record of a snapshot, in order. */
export async function records(source: Parameters<typeof readSnapshot>[0]): Promise<SnapshotRecord[]> {
  const out: SnapshotRecord[] = [];
  for await (const r of readSnapshot(source)) out.push(r);
  return out;
}

/**
 * An imported store's first writer: it builds the indexer's entries the import leaves to it (issue 58: the indexer
 * answers 503 INDEXER_BUILDING until then), observed done, then closes.
 */
export async function firstWriter(path: string): Promise<void> {
  const writer = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
  while (writer.indexerBuild() !== undefined) await new Promise((next) => setTimeout(next, 20));
  writer.close();
}

/**
 * Asks two ledgers' APIs the same questions and expects the same answers: every output the slots `from`..`to` created
 * or consumed and every unspent output (by ID, status and body), each slot's UTXO changes and milestone, the indexer's
 * lists, the treasury, and each chain's current output. `a` is the original; what it answers is checked to be real
 * (outputs found, some spent, some chains) so that two empty answers cannot pass.
 */
export async function expectSameAnswers(original: Ledger, copy: LedgerReader, from: number, to: number) {
  const seen = new Set<string>();
  for (let slot = from; slot <= to; slot++) {
    const c = original.utxoChanges(slot);
    for (const id of [...c.createdOutputs, ...c.consumedOutputs]) seen.add(toHex(id));
  }
  for (const [id] of original.unspentOutputs()) seen.add(toHex(id));
  expect(seen.size).toBeGreaterThan(20);
  const [a, b] = [await serveJson(original), await serveJson(copy)];
  try {
    let spent = 0;
    for (const id of seen) {
      const [x, y] = [await a.get(`/api/core/v2/outputs/${id}`), await b.get(`/api/core/v2/outputs/${id}`)];
      expect(y, id).toEqual(x);
      expect(x.status).toBe(200);
      if ((x.body as { metadata: { isSpent: boolean } }).metadata.isSpent) spent++;
    }
    expect(spent).toBeGreaterThan(5);
    for (let slot = from; slot <= to; slot++) {
      const route = `/api/core/v2/milestones/by-index/${slot}/utxo-changes`;
      expect(await b.get(route), route).toEqual(await a.get(route));
    }
    for (const route of ['/api/indexer/v1/outputs', '/api/indexer/v1/outputs/alias', '/api/core/v2/treasury'])
      expect(await b.get(route), route).toEqual(await a.get(route));
    let chains = 0;
    for (const [outputId, r] of original.unspentOutputs()) {
      const id = outputChainId(r.output, outputId);
      if (id === undefined) continue;
      const kind = ({ 4: 'alias', 5: 'foundry', 6: 'nft' } as Record<number, string>)[r.output.type]!;
      const route = `/api/indexer/v1/outputs/${kind}/${toHex(id)}`;
      const answer = await a.get(route);
      expect(answer.status).toBe(200);
      expect(await b.get(route), route).toEqual(answer);
      chains++;
    }
    expect(chains).toBeGreaterThan(0);
  } finally {
    await a.close();
    await b.close();
  }
}
