// A ledger imported from a network's snapshots, loaded into PostgreSQL (issue 29): `import-snapshot --store` makes the
// database the shared store of read-only API processes, so they must answer as the LMDB store the import built. The
// same requests go to an API over the LMDB ledger and to one over a PostgresReader, and every answer (status and
// body) must be the same: every output the files name, spent or not, with its booking and spending metadata; every
// milestone's UTXO changes; the indexer by every address; each transaction's included block; the treasury. Hornet's
// full snapshot and its delta (vectors/snapshots), and a simulated ledger exported and imported again. Skipped, with
// the reason, where no PostgreSQL can be started.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  encodeSnapshot,
  exportSnapshot,
  type FullSnapshotHeader,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  OutputType,
  openLedger,
  outputFromJson,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  readSnapshot,
  type SnapshotOutput,
  toHex,
  UnlockConditionType,
} from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/index.js';
import { openPool } from '../../../src/ledger/postgres/client.js';
import { copyInto } from '../../../src/ledger/postgres/copy-rows.js';
import { PostgresMirror } from '../../../src/ledger/postgres/mirror.js';
import { PostgresReader } from '../../../src/ledger/postgres/postgres-reader.js';
import { LmdbStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { serveJson } from '../../helpers/serve-json.js';
import { snapshotVector } from '../../helpers/snapshots.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-snapshot-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = snapshotVector;

/** The protocol parameters option of hornet's snapshot (a network's), for a generated one. */
let hornetParameters: FullSnapshotHeader['protocolParameters'];

/** The imported store, read-only, once its first writer built the indexer's entries (small: at its opening). */
function opened(path: string) {
  const params = importedParams(inspectStore(path)!.imported!);
  openLedger({ path, params }).close();
  return openLedger({ path, params, readOnly: true });
}

/** Loads the imported store at `path` into a new database; the ledger and a reader of the database. */
async function loaded(path: string, database: string, progress: number[] = []) {
  pg!.primary.sql(`create database ${database}`);
  const url = databaseUrl(pg!.primary, database);
  const ledger = opened(path);
  const mirror = await PostgresMirror.open(url, ledger, { onProgress: (p) => progress.push(p.outputs) });
  // The network the reader is given is not the imported one: the database says its own.
  const reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet);
  const atTarget = await reader.treasury(); // before the deltas' milestones are written
  await mirror.catchUp(ledger, { bulk: true });
  await mirror.close();
  return {
    ledger,
    reader,
    atTarget,
    count: (table: string) => Number(pg!.primary.sql(`select count(*) from ${table}`, database)),
  };
}

/** Every route about these outputs and milestones, asked of both APIs: the answers are the same. */
async function sameAnswers(ledger: Ledger, reader: PostgresReader, ids: Set<string>, milestones: number[]) {
  const [a, b] = [await serveJson(ledger), await serveJson(reader)];
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
  beforeAll(async () => {
    for await (const r of readSnapshot(file('snapshot_full_snapshot.bin')))
      if (r.kind === 'header' && r.header.type === 0) hornetParameters = r.header.protocolParameters;
  });

  it("hornet's full snapshot and delta: the database's API answers as the LMDB store's", async () => {
    const path = join(dir, 'hornet');
    const full = file('snapshot_full_snapshot.bin');
    const delta = file('snapshot_delta_snapshot.bin');
    await importSnapshot({ path, full, deltas: [delta] });
    const { ledger, reader, atTarget } = await loaded(path, 'hornet');
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
      // At the target, before milestone 5's receipt: the full header's treasury (no diff of the full file changes it),
      // which is also what that receipt consumed.
      let header = 0n;
      let consumed = 0n;
      for await (const r of readSnapshot(full))
        if (r.kind === 'header' && r.header.type === 0) header = r.header.treasuryOutput.amount;
      for await (const r of readSnapshot(delta))
        if (r.kind === 'milestoneDiff' && r.diff.treasuryInput !== undefined) consumed = r.diff.treasuryInput.amount;
      expect(atTarget.amount).toBe(header);
      expect(consumed).toBe(header);
      expect(header).not.toBe(ledger.treasury().amount);
    } finally {
      ledger.close();
      await reader.close();
    }
  });

  it('more outputs, transactions and milestones than one statement takes: every row once', async () => {
    // 25,000 outputs, each its own transaction, booked over 12,000 milestones; every 7th with no block (a network's
    // genesis outputs have none). The load writes 10,000 rows a statement.
    const n = 25_000;
    const id = (i: number, salt: number) => {
      const b = new Uint8Array(32);
      new DataView(b.buffer).setUint32(0, i);
      b[31] = salt;
      return b;
    };
    const outputs: SnapshotOutput[] = [];
    for (let i = 0; i < n; i++) {
      const outputId = new Uint8Array(34);
      outputId.set(id(i, 0x7a));
      outputs.push({
        outputId,
        blockId: i % 7 === 0 ? new Uint8Array(32) : id(i, 0xb1),
        milestoneIndexBooked: 1 + (i % 12_000),
        milestoneTimestampBooked: 1_700_000_000 + (i % 12_000) * 5,
        output: {
          type: OutputType.Basic,
          amount: 1000n,
          nativeTokens: [],
          unlockConditions: [{ type: UnlockConditionType.Address, address: { type: 0, pubKeyHash: id(i % 100, 1) } }],
          features: [],
        },
      });
    }
    const supply = hornetParameters.params.tokenSupply;
    const header = {
      version: 2,
      type: 0,
      genesisMilestoneIndex: 0,
      targetMilestoneIndex: 12_000,
      targetMilestoneTimestamp: 1_700_000_000 + 12_000 * 5,
      targetMilestoneId: id(12_000, 0x4d),
      ledgerMilestoneIndex: 12_000,
      treasuryOutput: { milestoneId: new Uint8Array(32), amount: supply - BigInt(n) * 1000n },
      protocolParameters: hornetParameters,
    } as const;
    const path = join(dir, 'many');
    await importSnapshot({ path, full: await encodeSnapshot(header, { outputs, solidEntryPoints: [id(1, 2)] }) });
    opened(path).close(); // its first writer builds the indexer's entries before the damage below

    // A damaged output record late in the load (about the 23,000th row, after megabytes of rows went to the COPY):
    // the load stops with STORE_CORRUPT, its COPY cancelled and its transaction rolled back: the database is empty.
    const damagedKey = keys.output(outputs[10_999]!.milestoneIndexBooked, outputs[10_999]!.outputId);
    const edit = (change: (record: Uint8Array) => Uint8Array) => {
      const store = new LmdbStore(path);
      try {
        store.write(WriteBatch.of([{ key: damagedKey, value: change(store.get(damagedKey)!.slice()) }]));
      } finally {
        store.close();
      }
    };
    const flip = (r: Uint8Array) => {
      r[r.length - 1]! ^= 0x01;
      return r;
    };
    edit(flip);
    pg!.primary.sql('create database broken');
    const damaged = opened(path);
    try {
      await expect(PostgresMirror.open(databaseUrl(pg!.primary, 'broken'), damaged)).rejects.toMatchObject({
        code: 'STORE_CORRUPT',
      });
    } finally {
      damaged.close();
    }
    expect(pg!.primary.sql("select count(*) from pg_tables where schemaname = 'public'", 'broken')).toBe('0');
    edit(flip); // the same bit back

    const progress: number[] = [];
    const { ledger, reader, count } = await loaded(path, 'many', progress);
    try {
      expect(progress).toEqual([10_000, 20_000, 25_000]); // every 10,000 outputs, and the whole at the end
      expect(count('outputs')).toBe(n);
      expect(count('milestone_times')).toBe(12_000);
      expect(count('blocks')).toBe(n - Math.ceil(n / 7));
      expect(count('output_index')).toBe(2 * n); // every basic output, and by its address
      expect(Number(pg!.primary.sql('select count(distinct created_slot) from outputs', 'many'))).toBe(12_000);
      const ids = new Set(
        [0, 1, 7, 9_999, 10_000, 10_001, 19_999, 20_000, n - 1].map((i) => toHex(outputs[i]!.outputId)),
      );
      const asked = await sameAnswers(ledger, reader, ids, [11_999, 12_000, 12_001]);
      expect(asked.found).toBeGreaterThan(2 * ids.size);
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

describe.skipIf(pg === undefined)('copyInto (binary COPY, the load of a snapshot into PostgreSQL)', () => {
  it('byte strings of any size across its 1 MB writes, 4- and 8-byte numbers, the count; a bad row cancels it', async () => {
    pg!.primary.sql('create database copying');
    pg!.primary.sql('create table t (n integer, a bytea, b bigint)', 'copying');
    const pool = openPool(databaseUrl(pg!.primary, 'copying'), 1);
    try {
      // 3,000 rows of 1–999 bytes, one of 3 MB (larger than a write), numbers at their types' ends.
      const rows: [number, Uint8Array, bigint][] = [];
      for (let i = 0; i < 3000; i++)
        rows.push([i - 1500, new Uint8Array(((i * 7919) % 999) + 1).fill(i & 0xff), BigInt(i) << 40n]);
      rows.push([2_147_483_647, new Uint8Array(3 << 20).fill(0xab), -(1n << 63n)]);
      rows.push([-2_147_483_648, new Uint8Array(0), (1n << 63n) - 1n]);
      const c = await pool.connect();
      try {
        await c.query('begin');
        expect(
          await copyInto(
            c,
            't',
            [
              ['n', 'int4'],
              ['a', 'bytea'],
              ['b', 'int8'],
            ],
            rows,
          ),
        ).toBe(rows.length);
        await c.query('commit');
        // A number out of an integer's range: refused before it is sent, the COPY cancelled, the connection usable.
        await c.query('begin');
        const bad = (function* () {
          yield [1, Uint8Array.of(1), 1n];
          yield [2 ** 31, Uint8Array.of(2), 2n];
        })();
        await expect(
          copyInto(
            c,
            't',
            [
              ['n', 'int4'],
              ['a', 'bytea'],
              ['b', 'int8'],
            ],
            bad,
          ),
        ).rejects.toThrow(RangeError);
        await c.query('rollback');
        expect((await c.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      } finally {
        c.release();
      }
      const back = (await pool.query('select n, a, b::text as b from t order by n')).rows;
      const want = [...rows].sort((x, y) => x[0] - y[0]);
      expect(back.length).toBe(want.length);
      const wrong = back.filter(
        (r, i) =>
          r.n !== want[i]![0] || Buffer.compare(r.a as Buffer, want[i]![1]) !== 0 || r.b !== String(want[i]![2]),
      );
      expect(wrong).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
