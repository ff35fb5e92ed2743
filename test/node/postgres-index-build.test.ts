// A snapshot loaded into PostgreSQL without the indexer's entries, built by its writer afterwards (issue 58): real
// `serve` processes. The database is loaded as `import-snapshot --store` loads a large ledger (entries left to the
// writer); a writer (`serve --db DIR --store URL`) takes one step of its build and rests (--index-pause: the test
// waits for an observed state, never a time) while a read-only server of the database answers the indexer's routes
// 503 with the build's counts, never a partial list; the writer is SIGKILLed and started again, resumes from the step
// it committed, and ends with the entries, byte for byte, of the same ledger loaded with its entries in the load's
// transaction (the COPY of load-imported.ts, another path); the reader then answers as the LMDB store.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  importedParams,
  importSnapshot,
  inspectStore,
  openLedger,
  outputId,
  writeSnapshotFile,
} from '../../src/index.js';
import { PostgresMirror } from '../../src/ledger/postgres/mirror.js';
import { startCli, stopCli } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { serveJson } from '../helpers/serve-json.js';
import { records, snapshotVector } from '../helpers/snapshots.js';

const pg = await privatePostgres();
const dir = mkdtempSync(join(tmpdir(), 'tangle-pg-index-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OUTPUTS = 120;
const AMOUNT = 1_000_000n;
const ed = (n: number) => ({ type: 0, pubKeyHash: new Uint8Array(32).fill(n + 1) }) as const;
const id32 = (n: number, salt: number) =>
  Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n : i === 31 ? salt : 0));

/** A full snapshot of OUTPUTS basic outputs (of 7 owners, some with a sender, some with a tag), two a transaction. */
async function writeLedger(path: string): Promise<void> {
  const header = (await records(snapshotVector('snapshot_full_snapshot.bin')))[0]!;
  if (header.kind !== 'header' || header.header.type !== 0) throw new Error('not a full snapshot header');
  const h = header.header;
  const supply = h.protocolParameters.params.tokenSupply;
  const target = 10;
  const outputs = Array.from({ length: OUTPUTS }, (_, i) => ({
    outputId: outputId(id32(i >> 1, 0x7a), i & 1),
    blockId: id32(i >> 1, 0xb1),
    milestoneIndexBooked: 1 + ((i >> 1) % target),
    milestoneTimestampBooked: 1_700_000_000 + ((i >> 1) % target) * 5,
    output: {
      type: 3,
      amount: AMOUNT,
      nativeTokens: [],
      unlockConditions: [{ type: 0, address: ed(i % 7) }],
      features: [
        ...(i % 3 === 0 ? [{ type: 0, address: ed(100 + (i % 5)) }] : []),
        ...(i % 4 === 0 ? [{ type: 3, tag: new TextEncoder().encode(`tag ${i % 2}`) }] : []),
      ],
    },
  }));
  await writeSnapshotFile(
    path,
    {
      version: h.version,
      type: 0,
      genesisMilestoneIndex: 0,
      targetMilestoneIndex: target,
      targetMilestoneTimestamp: 1_700_000_000 + target * 5,
      targetMilestoneId: id32(target, 0x4d),
      ledgerMilestoneIndex: target,
      treasuryOutput: { milestoneId: new Uint8Array(32), amount: supply - BigInt(OUTPUTS) * AMOUNT },
      protocolParameters: h.protocolParameters,
    },
    { outputs, solidEntryPoints: [id32(target, 0x5e)] } as never,
  );
}

const json = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, retry: res.headers.get('retry-after'), body: (await res.json()) as any };
};
const origin = (out: string) => /listening on (http:\/\/\S+)/.exec(out)![1]!.replace(/\/$/, '');

describe.skipIf(pg === undefined)("a PostgreSQL database's indexer built by its writer after the load", () => {
  it('answers 503 while it builds, resumes after a kill, and ends with the entries the load would have written', async () => {
    const file = join(dir, 'full.bin');
    const path = join(dir, 'store');
    await writeLedger(file);
    await importSnapshot({ path, full: new Uint8Array(readFileSync(file)) });
    const params = importedParams(inspectStore(path)!.imported!);
    const entries = (database: string) =>
      pg!.primary.sql(
        "select coalesce(string_agg(encode(entry, 'hex') || ':' || encode(output_id, 'hex'), ',' order by entry), '') " +
          'from output_index',
        database,
      );
    // The same ledger into two databases: its entries in the load, and left to the writer.
    for (const [database, indexAtLoad] of [
      ['whole', undefined],
      ['deferred', 0],
    ] as const) {
      pg!.primary.sql(`create database ${database}`);
      const ledger = openLedger({ path, params, readOnly: true });
      const options = indexAtLoad === undefined ? {} : { indexAtLoad };
      await (await PostgresMirror.open(databaseUrl(pg!.primary, database), ledger, options)).close();
      ledger.close();
    }
    const whole = entries('whole');
    expect(whole.split(',').length).toBeGreaterThan(2 * OUTPUTS); // an address entry, and more, an output
    expect(entries('deferred')).toBe('');

    const url = databaseUrl(pg!.primary, 'deferred');
    const common = ['--port', '0', '--no-mqtt', '--workers', '1'];
    const writerArgs = ['serve', '--db', path, '--store', url, ...common, '--index-batch', '10'];
    const reader = await startCli(['serve', '--store', url, '--read-only', ...common], /listening on \S+/);
    const readerAt = origin(reader.out());
    // 10 outputs a step, then a rest of ten minutes: the first step is committed, the build waits for the kill.
    const first = await startCli([...writerArgs, '--index-pause', '600000'], /listening on \S+/);
    let health = await json(`${readerAt}/health`);
    while (health.body.indexerBuild === undefined || health.body.indexerBuild.indexedOutputs === 0)
      health = await json(`${readerAt}/health`);
    expect(health.body.indexerBuild).toEqual({ indexedOutputs: 10, outputs: OUTPUTS });
    const refused = await json(`${readerAt}/api/indexer/v1/outputs/basic`);
    expect(refused).toEqual({
      status: 503,
      retry: '10',
      body: {
        error: { code: 503, message: `service unavailable: the indexer's entries are being built (10 of ${OUTPUTS})` },
        indexerBuild: { code: 'INDEXER_BUILDING', indexedOutputs: 10, outputs: OUTPUTS, fraction: 0.083 },
      },
    });
    await stopCli(first.child, 'SIGKILL');
    expect((await json(`${readerAt}/health`)).body.indexerBuild).toEqual({ indexedOutputs: 10, outputs: OUTPUTS });

    // Started again without a rest: it resumes at 10 (not 0) and finishes while the reader serves.
    const second = await startCli(writerArgs, /listening on \S+/);
    let page = await json(`${readerAt}/api/indexer/v1/outputs`);
    while (page.status === 503) {
      expect(page.body.indexerBuild.indexedOutputs).toBeGreaterThanOrEqual(10);
      page = await json(`${readerAt}/api/indexer/v1/outputs`);
    }
    await stopCli(second.child);
    expect(entries('deferred')).toBe(whole);

    // And the reader answers the indexer's queries as the LMDB store (its entries built by the same writer).
    const ledger = openLedger({ path, params, readOnly: true });
    const lmdb = await serveJson(ledger);
    try {
      const routes = ['/api/indexer/v1/outputs', '/api/indexer/v1/outputs/basic?tag=0x7461672031'];
      for (let owner = 0; owner < 7; owner++)
        routes.push(`/api/indexer/v1/outputs/basic?address=${addressToBech32(ed(owner), params.bech32Hrp)}`);
      for (const route of routes) {
        const want = await lmdb.get(route);
        expect(want.status, route).toBe(200);
        const got = await json(`${readerAt}${route}`);
        expect({ status: got.status, body: got.body }, route).toEqual({ status: want.status, body: want.body });
      }
    } finally {
      await lmdb.close();
      ledger.close();
      await stopCli(reader.child);
    }
  });
});
