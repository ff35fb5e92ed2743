// A ledger imported from a network's snapshots, loaded into PostgreSQL (issue 29): `import-snapshot --store` makes the
// database the shared store of read-only API processes, so they must answer as the LMDB store the import built. The
// same requests go to an API over the LMDB ledger and to one over a PostgresReader, and every answer (status and
// body) must be the same: every output the files name, spent or not, with its booking and spending metadata; every
// milestone's UTXO changes; the indexer by every address; each transaction's included block; the treasury. Hornet's
// full snapshot and its delta (vectors/snapshots), and a simulated ledger exported and imported again. Skipped, with
// the reason, where no PostgreSQL can be started.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  createServer,
  exportSnapshot,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  openLedger,
  outputFromJson,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  readSnapshot,
  toHex,
  UnlockConditionType,
} from '../../src/index.js';
import type { LedgerReader } from '../../src/ledger/ledger-reader.js';
import { PostgresMirror } from '../../src/ledger/postgres/mirror.js';
import { PostgresReader } from '../../src/ledger/postgres/postgres-reader.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { VECTORS_DIR } from '../helpers/vectors.js';

const pg = privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-snapshot-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string) => new Uint8Array(readFileSync(join(VECTORS_DIR, 'snapshots', name)));

async function serve(ledger: LedgerReader) {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (route: string) => {
      const res = await fetch(`${origin}${route}`);
      return { status: res.status, body: await res.json() };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const opened = (path: string) =>
  openLedger({ path, params: importedParams(inspectStore(path)!.imported!), readOnly: true });

/** Loads the imported store at `path` into a new database; the ledger and a reader of the database. */
async function loaded(path: string, database: string) {
  pg!.primary.sql(`create database ${database}`);
  const url = databaseUrl(pg!.primary, database);
  const ledger = opened(path);
  const mirror = await PostgresMirror.open(url, ledger);
  await mirror.catchUp(ledger, { bulk: true });
  await mirror.close();
  // The network the reader is given is not the imported one: the database says its own.
  const reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
  return { ledger, reader };
}

/** Every route about these outputs and milestones, asked of both APIs: the answers are the same. */
async function sameAnswers(ledger: Ledger, reader: PostgresReader, ids: Set<string>, milestones: number[]) {
  const [a, b] = [await serve(ledger), await serve(reader)];
  try {
    const routes: string[] = ['/api/core/v2/treasury', '/api/indexer/v1/outputs', '/api/indexer/v1/outputs/alias'];
    const addresses = new Set<string>();
    const txs = new Set<string>();
    for (const id of ids) {
      routes.push(`/api/core/v2/outputs/${id}`, `/api/core/v2/outputs/${id}/metadata`);
      txs.add(id.slice(0, 66));
      const o = (await a.get(`/api/core/v2/outputs/${id}`)).body as any;
      if (o.output === undefined) continue;
      for (const uc of outputFromJson(o.output).unlockConditions)
        if (uc.type === UnlockConditionType.Address)
          addresses.add(addressToBech32(uc.address, ledger.params.bech32Hrp));
    }
    for (const tx of txs) routes.push(`/api/core/v2/transactions/${tx}/included-block`);
    for (const m of milestones) routes.push(`/api/core/v2/milestones/by-index/${m}/utxo-changes`);
    for (const bech32 of addresses) routes.push(`/api/indexer/v1/outputs/basic?address=${bech32}`);
    let found = 0;
    for (const route of routes) {
      const want = await a.get(route);
      expect(await b.get(route), route).toEqual(want);
      if (want.status === 200) found++;
    }
    return { routes: routes.length, found, addresses: addresses.size };
  } finally {
    await a.close();
    await b.close();
  }
}

describe.skipIf(pg === undefined)('a snapshot imported into PostgreSQL', () => {
  it("hornet's full snapshot and delta: the database's API answers as the LMDB store's", async () => {
    const path = join(dir, 'hornet');
    const full = file('snapshot_full_snapshot.bin');
    const delta = file('snapshot_delta_snapshot.bin');
    await importSnapshot({ path, full, deltas: [delta] });
    const { ledger, reader } = await loaded(path, 'hornet');
    try {
      // Every output either file names, and every milestone from before the target to after the last delta.
      const ids = new Set<string>();
      const milestones = new Set<number>();
      for (const bytes of [full, delta])
        for await (const r of readSnapshot(bytes)) {
          if (r.kind === 'output') ids.add(toHex(r.output.outputId));
          if (r.kind === 'milestoneDiff') {
            milestones.add(r.diff.milestone.index);
            for (const c of [...r.diff.created, ...r.diff.consumed]) ids.add(toHex(c.outputId));
          }
        }
      const latest = ledger.latestCommitment().slot;
      for (let m = ledger.params.genesisSlot - 1; m <= latest + 1; m++) milestones.add(m);
      const asked = await sameAnswers(ledger, reader, ids, [...milestones]);
      expect(asked.found).toBeGreaterThan(ids.size); // outputs, metadata, changes: not only errors
      expect(asked.addresses).toBeGreaterThan(0);
      expect((await reader.treasury()).amount).toBe(ledger.treasury().amount);
      expect(ledger.treasury().amount).toBeGreaterThan(0n);
    } finally {
      ledger.close();
      await reader.close();
    }
  });

  it('a simulated ledger, exported and imported: every output and milestone after the target', async () => {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
    const sim = new Simulation({ params, seed: 2929 });
    const source = openLedger({ params, genesis: sim.genesis(), path: join(dir, 'sim') });
    const ids = new Set<string>();
    try {
      for (let slot = 1; slot <= 20; slot++) for (const e of sim.slot(slot)) applyEvent(source, e);
      for (let slot = 11; slot <= 20; slot++) {
        const c = source.utxoChanges(slot);
        for (const id of [...c.createdOutputs, ...c.consumedOutputs]) ids.add(toHex(id));
      }
      for (const [id] of source.unspentOutputs()) ids.add(toHex(id));
      await exportSnapshot(source, join(dir, 'sim.full'), join(dir, 'sim.delta'), { target: 10 });
    } finally {
      source.close();
    }
    const path = join(dir, 'sim-imported');
    await importSnapshot({
      path,
      full: readFileSync(join(dir, 'sim.full')),
      deltas: [readFileSync(join(dir, 'sim.delta'))],
    });
    const { ledger, reader } = await loaded(path, 'simulated');
    try {
      const milestones = Array.from({ length: 13 }, (_, i) => 9 + i);
      const asked = await sameAnswers(ledger, reader, ids, milestones);
      expect(ids.size).toBeGreaterThan(50);
      expect(asked.found).toBeGreaterThan(2 * ids.size);
    } finally {
      ledger.close();
      await reader.close();
    }
  });
});
