// The PostgreSQL store from the command line (issue 15): `import --store` fills a database from a history file;
// `serve --store URL --read-only` processes on the primary and on its hot standby answer what `serve --db` answers
// over the same history, byte for byte; a writer (`serve --demo --store`) killed with SIGKILL while it publishes
// leaves the database at a whole slot, and the next writer on the same store publishes the rest; a wrong URL, an
// import whose database refuses connections and a database of another network are each one line and exit status 2. Skipped, with the
// reason, where no PostgreSQL can be started.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectStore, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';
import { spawnAsync } from '../helpers/run.js';

const pg = await privatePostgres({ standby: true });
const dir = mkdtempSync(join(tmpdir(), 'tangle-cli-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = async (args: string[]) => spawnAsync(process.execPath, [cli, ...args]);

/** Starts `serve`, resolves with its origin once it listens. */
async function serve(args: string[]): Promise<string> {
  const listening = /listening on (http:\S+).*\n/;
  const { out } = await startCli(['serve', '--port', '0', ...args], listening);
  return listening.exec(out())![1]!;
}

async function answer(origin: string, path: string): Promise<string> {
  const res = await fetch(origin + path);
  return `${res.status} ${await res.text()}`;
}

const GENESIS_TIME = 1_700_000_000;

describe.skipIf(pg === undefined)('the PostgreSQL store from the command line', () => {
  it('import --store, then readers on the primary and the standby answer what serve --db answers', async () => {
    const history = join(dir, 'history.jsonl');
    const db = join(dir, 'store');
    let r = await run(['simulate', '--slots', '30', '--out', history, '--genesis-time', String(GENESIS_TIME)]);
    expect(r.status, r.stderr).toBe(0);
    r = await run(['import', history, '--db', db, '--store', databaseUrl(pg!.primary)]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/holds every slot up to 30\n/);
    // Again: nothing to import, nothing to publish.
    r = await run(['import', history, '--db', db, '--store', databaseUrl(pg!.primary)]);
    expect(r.stdout).toMatch(/holds every slot up to 30\n/);
    expect(r.stdout).toMatch(/nothing to import/);

    pg!.syncStandby(); // the standby has the import (its reader would refuse a database with no ledger yet)
    const [lmdb, primary, standby] = await Promise.all([
      serve(['--db', db, '--read-only', '--synced']),
      serve(['--store', databaseUrl(pg!.primary), '--read-only', '--synced', '--workers', '1']),
      serve(['--store', databaseUrl(pg!.standby), '--read-only', '--synced', '--workers', '1']),
    ]);
    const ledger = openLedger({
      path: db,
      params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME }),
      readOnly: true,
    });
    const paths = ['/api/core/v2/info', '/api/core/v3/info'];
    for (let slot = 0; slot <= 31; slot++) {
      paths.push(`/api/core/v3/commitments/by-slot/${slot}/utxo-changes`);
      if (slot < 1 || slot > 30) continue;
      const tx = ledger
        .utxoChanges(slot)
        .createdOutputs.toArray()
        .find((id) => id[32] === 0 && id[33] === 0);
      if (tx !== undefined) paths.push(`/api/core/v2/transactions/${toHex(tx.subarray(0, 32))}/included-block`);
    }
    ledger.close();
    // The standby replays what the primary wrote: wait for the observed state, its answer for the last slot.
    while ((await answer(standby, paths.at(-2)!)).startsWith('404')) await new Promise((r) => setTimeout(r, 20));
    let found = 0;
    for (const path of paths) {
      const want = await answer(lmdb, path);
      expect(await answer(primary, path), path).toBe(want);
      expect(await answer(standby, path), path).toBe(want);
      if (want.startsWith('200')) found++;
    }
    expect(found).toBeGreaterThan(50);
    // A reader's start line says the database's genesis (the one simulate was given), as its /info does: not the
    // --network preset's (testnet's is 0, 1970).
    const genesis = new Date(GENESIS_TIME * 1000).toISOString();
    expect(await answer(primary, '/api/core/v3/info')).toContain(`"genesisUnixTimestamp":"${GENESIS_TIME}"`);
    const reader = await startCli(
      ['serve', '--port', '0', '--store', databaseUrl(pg!.primary), '--read-only', '--workers', '1', '--no-mqtt'],
      /\nstore: .*\n/,
    );
    expect(reader.out()).toMatch(
      new RegExp(`\nstore: the database postgresql://\\S+, read-only \\(testnet, genesis ${genesis}, latest slot 30, `),
    );
    await stopCli(reader.child);
  }, 120_000);

  it('a writer killed while it publishes leaves whole slots; the next one publishes the rest', async () => {
    pg!.primary.sql('create database killed');
    const db = join(dir, 'demo');
    const database = databaseUrl(pg!.primary, 'killed');
    const writer = track(
      spawn(process.execPath, [cli, 'serve', '--demo', '--db', db, '--store', database, '--port', '0'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    // Kill it once the database is part way: an observed state, not a guessed time.
    const latest = () => {
      try {
        return Number(pg!.primary.sql('select coalesce(max(latest_slot), -1) from status', 'killed'));
      } catch {
        return -1; // no schema yet
      }
    };
    while (latest() < 20) await new Promise((r) => setTimeout(r, 10));
    writer.kill('SIGKILL');
    await new Promise((r) => writer.once('exit', r));
    const at = latest();
    const store = inspectStore(db)!;
    expect(at).toBeLessThan(store.latestSlot); // killed while publishing: the demo seeds its store first
    // Whole slots only: nothing in any table past the database's latest slot, and every slot up to it there.
    const count = (sql: string) => Number(pg!.primary.sql(sql, 'killed'));
    expect(count(`select count(*) from commitments where slot > ${at}`)).toBe(0);
    expect(count(`select count(*) from blocks where slot > ${at}`)).toBe(0);
    expect(count(`select count(*) from outputs where created_slot > ${at} or spent_slot > ${at}`)).toBe(0);
    expect(count(`select count(*) from account_credits where slot > ${at}`)).toBe(0);
    expect(count(`select count(distinct slot) from commitments where slot <= ${at}`)).toBe(at + 1);

    // The next writer on the same store publishes the rest; then the database is the store, slot for slot.
    const origin = await serve(['--db', db, '--store', database]);
    const want = inspectStore(db)!.latestSlot;
    while (latest() < want) await new Promise((r) => setTimeout(r, 20));
    const reader = await serve(['--store', database, '--read-only', '--synced', '--workers', '1']);
    let spent = 0;
    for (let slot = 1; slot <= want; slot++) {
      const path = `/api/core/v3/commitments/by-slot/${slot}/utxo-changes`;
      expect(await answer(reader, path), path).toBe(await answer(origin, path));
      // Each output the milestone spent names the same spender in both stores: the demo's every fifth milestone
      // holds a double spend, whose conflicting transaction names an output too (demo-network.test.ts checks the
      // store's answer against the blocks' verdicts).
      const v2 = JSON.parse((await answer(origin, `/api/core/v2/milestones/by-index/${slot}/utxo-changes`)).slice(4));
      for (const id of v2.consumedOutputs as string[]) {
        const meta = `/api/core/v2/outputs/${id}/metadata`;
        expect(await answer(reader, meta), meta).toBe(await answer(origin, meta));
        spent++;
      }
    }
    expect(spent).toBeGreaterThan(20);
  }, 120_000);

  // (A server whose database refuses connections waits for it instead: outages.test.ts.)
  it('a wrong URL, an import whose database refuses connections, another network: one line, exit status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['serve', '--store', 'mysql://x', '--read-only'], /not a PostgreSQL URL/],
      [['serve', '--store', databaseUrl(pg!.primary), '--read-only', '--network', 'shimmer'], /another network/],
      [['serve', '--store', databaseUrl(pg!.primary), '--read-only', '--db', dir], /leave out --db/],
      [
        [
          'import',
          join(dir, 'history.jsonl'),
          '--db',
          join(dir, 'x'),
          '--store',
          'postgresql://postgres@/x?host=/nonexistent',
        ],
        /STORE_UNAVAILABLE/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
