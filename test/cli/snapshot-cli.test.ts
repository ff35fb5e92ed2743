// The snapshot commands of the built CLI (issue 29): a refusal is one line on standard error naming the file, the
// offset and the field (or the rule), exit status 2, and no store left behind; export needs a store. The commands'
// happy path runs in test/docs.test.ts (the README's example); here, the load into PostgreSQL (`--store`) too.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, startCli, stopCli } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { spawnAsync } from '../helpers/run.js';
import { VECTORS_DIR } from '../helpers/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-snapshot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vector = (name: string) => join(VECTORS_DIR, 'snapshots', name);
const run = (...args: string[]) => spawnAsync(process.execPath, [cli, ...args]);

describe('tangle-core import-snapshot and export-snapshot refusals', () => {
  it('a Chrysalis file: the file, the offset, the field and the version, in one line; no store', async () => {
    const db = join(dir, 'chrysalis');
    const r = await run('import-snapshot', vector('chrysalis/full_snapshot.bin'), '--db', db);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/full_snapshot\.bin @0: UNKNOWN_TYPE at header\.version: .*version 1 \(Chrysalis/);
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('importSnapshot refusing a file cut off among its outputs stops its sort thread: the process ends by itself', async () => {
    // In a process of its own, on the built library: a thread left running would keep it alive (status null).
    const script = `
      const tc = await import(${JSON.stringify(pathToFileURL(join(cli, '../index.js')).href)});
      const id = (i, salt) => { const b = new Uint8Array(34); new DataView(b.buffer).setUint32(0, i); b[31] = salt; return b; };
      const outputs = Array.from({ length: 5000 }, (_, i) => ({
        outputId: id(i, 1), blockId: id(i, 2).subarray(0, 32), milestoneIndexBooked: 1, milestoneTimestampBooked: 1,
        output: { type: 3, amount: 1000n, nativeTokens: [], features: [],
          unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: id(i, 3).subarray(0, 32) } }] },
      }));
      const header = { version: 2, type: 0, genesisMilestoneIndex: 0, targetMilestoneIndex: 1,
        targetMilestoneTimestamp: 1, targetMilestoneId: new Uint8Array(32), ledgerMilestoneIndex: 1,
        treasuryOutput: { milestoneId: new Uint8Array(32), amount: 0n },
        protocolParameters: { type: 1, targetMilestoneIndex: 0, protocolVersion: 2, params: { protocolVersion: 2,
          networkName: 'cut', bech32Hrp: 'rms', minPowScore: 0, belowMaxDepth: 15,
          rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 }, tokenSupply: 5000000n } } };
      const whole = await tc.encodeSnapshot(header, { outputs, solidEntryPoints: [] });
      await tc.importSnapshot({ path: ${JSON.stringify(join(dir, 'cut-db'))}, full: whole.subarray(0, whole.length >> 1) })
        .catch((e) => console.log(e.code));`;
    const r = await spawnAsync(process.execPath, ['--input-type=module', '-e', script], { timeout: 30_000 });
    expect([r.status, r.stdout.trim(), r.stderr]).toEqual([0, 'TRUNCATED', '']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deltas that do not chain, a directory that holds something, a missing file, a missing store', async () => {
    const delta = vector('snapshot_delta_snapshot.bin');
    const cases: [string[], RegExp][] = [
      [['import-snapshot', vector('full_snapshot.bin'), '--delta', delta, '--db', join(dir, 'a')], /SNAPSHOT_INVALID/],
      [['import-snapshot', join(dir, 'nothing.bin'), '--db', join(dir, 'b')], /no snapshot file at/],
      [['import-snapshot', '--db', join(dir, 'c')], /needs one FULL snapshot file/],
      [['export-snapshot', '--db', join(dir, 'none'), join(dir, 'out.bin')], /there is no store at/],
    ];
    for (const [args, message] of cases) {
      const r = await run(...args);
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 2]);
      expect(r.stderr).toMatch(message);
    }
    const busy = join(dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'keep'), 'x');
    const r = await run('import-snapshot', vector('full_snapshot.bin'), '--db', busy);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/INVALID_ARGUMENT: .* is not empty/);
    expect(readdirSync(busy)).toEqual(['keep']);
    expect(readdirSync(dir).sort()).toEqual(['busy']);
  });
});

const pg = await privatePostgres();

describe.skipIf(pg === undefined)('tangle-core import-snapshot --store', () => {
  it('loads the ledger into PostgreSQL; serve --store --read-only answers as serve --db; another snapshot refused', async () => {
    pg!.primary.sql('create database imported');
    const url = databaseUrl(pg!.primary, 'imported');
    const db = join(dir, 'to-postgres');
    const r = await run(
      'import-snapshot',
      vector('snapshot_full_snapshot.bin'),
      '--delta',
      vector('snapshot_delta_snapshot.bin'),
      '--db',
      db,
      '--store',
      url,
    );
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/the database postgresql:.* holds the ledger up to milestone \d+ \(/);
    // No --network: the database says which network it holds.
    const servers = await Promise.all([
      startCli(['serve', '--db', db, '--port', '0', '--synced'], /listening on (\S+)/),
      startCli(
        ['serve', '--store', url, '--read-only', '--workers', '1', '--port', '0', '--synced'],
        /listening on (\S+)/,
      ),
    ]);
    try {
      const origins = servers.map((s) => /listening on (\S+)/.exec(s.out())![1]!);
      const ask = (route: string) =>
        Promise.all(origins.map(async (o) => (await fetch(`${o}${route}`)).json() as Promise<unknown>));
      const [fromDb, fromStore] = await ask('/api/core/v2/treasury');
      expect(fromStore).toEqual(fromDb);
      expect((fromDb as { amount: string }).amount).not.toBe('0');
      const [a, b] = await ask('/api/indexer/v1/outputs');
      expect(b).toEqual(a);
      const ids = (a as { items: string[] }).items;
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const [x, y] = await ask(`/api/core/v2/outputs/${id}`);
        expect(y).toEqual(x);
      }
    } finally {
      await Promise.all(servers.map((s) => stopCli(s.child)));
    }
    // The same database again, from another snapshot of the network: refused in one line; the new store is whole.
    const other = join(dir, 'other-snapshot');
    const again = await run('import-snapshot', vector('full_snapshot.bin'), '--db', other, '--store', url);
    expect(again.status).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/PARAMETERS_MISMATCH: .*another snapshot of this network.* the store at .* is whole/);
    expect(existsSync(join(other, 'data.mdb'))).toBe(true);
  });
});
