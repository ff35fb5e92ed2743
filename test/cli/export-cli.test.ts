// export-snapshot on the built CLI (issue 43), from every kind of store tangle-core builds: `import` of a simulated
// history, a demo's store after it stopped, and `import-snapshot`. The CLI opens the store read-only, as beside a
// running writer; it used to end its own read transaction under the open range of unspent outputs (MDB_BAD_TXN, or a
// segmentation fault) on every store but an imported one. Each export is imported again with import-snapshot, and the
// copy answers every route about the exported slots as the source does. A failed export leaves no partial file.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importedParams,
  inspectStore,
  type Ledger,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { cli, startCli, stopCli, track } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';
import { expectSameAnswers, firstWriter } from '../helpers/snapshots.js';
import { VECTORS_DIR } from '../helpers/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-export-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);
const run = (...args: string[]) => spawnAsync(process.execPath, [cli, ...args]);
async function ok(...args: string[]): Promise<string> {
  const r = await run(...args);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.status, args.join(' ')).toBe(0);
  return r.stdout;
}

/** A store as its own CLI reads it: an imported network knows its parameters, a built one its genesis time. */
function reader(path: string, slotSeconds = 10): Ledger {
  const found = inspectStore(path)!;
  const params =
    found.imported !== undefined
      ? importedParams(found.imported)
      : protocolParameters(PROTOCOL_PARAMETERS.testnet, {
          genesisUnixTime: found.genesisUnixTime,
          slotDurationSeconds: slotSeconds,
        });
  return openLedger({ path, params, readOnly: true });
}

/** Exports `store` as a full snapshot and a delta, imports the pair, and compares the copy's answers with the store's. */
async function roundTrip(store: string, slotSeconds?: number) {
  const [full, delta, copy] = [`${store}.full`, `${store}.delta`, `${store}.copy`];
  const said = await ok('export-snapshot', '--db', store, full, '--delta', delta);
  const [, latest, target] = said.match(/at milestone (\d+), \d+ diffs back to target (\d+)/)!.map(Number);
  await ok('import-snapshot', full, '--delta', delta, '--db', copy);
  await firstWriter(copy);
  // A full snapshot alone, at the latest slot (the default target without a delta).
  expect(await ok('export-snapshot', '--db', store, `${store}.latest`)).toMatch(
    new RegExp(`at milestone ${latest}, 0 diffs back to target ${latest}`),
  );
  const [a, b] = [reader(store, slotSeconds), reader(copy)];
  try {
    expect(b.latestCommitment().slot).toBe(latest);
    await expectSameAnswers(a, b, target! + 1, latest!);
  } finally {
    a.close();
    b.close();
  }
  expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
}

describe('export-snapshot on the built CLI, read back by import-snapshot', () => {
  // 180 s: a bound on a hang (200 slots through four CLI runs took 9 s alone and over 60 s in a busy suite).
  it.each([5, 30, 200])(
    'a store built by import from %i simulated slots',
    async (slots) => {
      const store = at(`imported-${slots}`);
      await ok('simulate', '--slots', String(slots), '--out', `${store}.ndjson`);
      await ok('import', `${store}.ndjson`, '--db', store);
      await roundTrip(store);
    },
    180_000,
  );

  it("a demo's store after Ctrl-C", async () => {
    const store = at('demo');
    const { child } = await startCli(
      ['serve', '--demo', '--demo-slots', '25', '--db', store, '--port', '0', '--workers', '1', '--no-mqtt'],
      /listening on/,
    );
    expect(await stopCli(child, 'SIGINT')).toBe(0);
    await roundTrip(store);
  });

  it("a store built by import-snapshot from hornet's files", async () => {
    const store = at('from-hornet');
    const vector = (name: string) => join(VECTORS_DIR, 'snapshots', name);
    await ok(
      'import-snapshot',
      vector('snapshot_full_snapshot.bin'),
      '--delta',
      vector('snapshot_delta_snapshot.bin'),
      '--db',
      store,
    );
    const r = await run('export-snapshot', '--db', store, at('hornet.full'), '--delta', at('hornet.delta'));
    expect([r.status, r.stderr]).toEqual([0, '']);
    await ok('import-snapshot', at('hornet.full'), '--delta', at('hornet.delta'), '--db', at('hornet.copy'));
    const [a, b] = [reader(store), reader(at('hornet.copy'))];
    try {
      expect([...b.unspentOutputs()].map(([id]) => id)).toEqual([...a.unspentOutputs()].map(([id]) => id));
      expect(b.treasury()).toEqual(a.treasury());
      expect(b.latestCommitment().slot).toBe(a.latestCommitment().slot);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a failed export says why and leaves no file, partial or whole', async () => {
    const store = at('imported-5');
    expect(existsSync(store)).toBe(true);
    const r = await run(
      'export-snapshot',
      '--db',
      store,
      at('none.full'),
      '--delta',
      join(dir, 'no-such-dir', 'none.delta'),
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no-such-dir/);
    expect(readdirSync(dir).filter((f) => f.startsWith('none.'))).toEqual([]);
  });
});

describe('import-snapshot killed with SIGKILL', () => {
  it("leaves a partial folder that the next import into the same path removes (and another live import's it keeps)", async () => {
    const db = at('killed');
    const fifo = at('killed.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const child = track(spawn(process.execPath, [cli, 'import-snapshot', fifo, '--db', db], { stdio: 'ignore' }));
    // All of a snapshot but its last byte: the import has read the header and made its folder, and waits for the rest.
    const partial = `killed.partial-${child.pid}`;
    const writer = createWriteStream(fifo);
    const bytes = readFileSync(join(VECTORS_DIR, 'snapshots', 'snapshot_full_snapshot.bin'));
    writer.write(bytes.subarray(0, bytes.length - 1));
    while (!readdirSync(dir).includes(partial)) await new Promise((r) => setTimeout(r, 20));
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
    writer.destroy();
    expect(readdirSync(dir)).toContain(partial);
    // A folder of a process that still runs (this one) is another import's.
    mkdirSync(at(`killed.partial-${process.pid}`));
    await ok('import-snapshot', join(VECTORS_DIR, 'snapshots', 'snapshot_full_snapshot.bin'), '--db', db);
    expect(readdirSync(dir).filter((f) => f.startsWith('killed.partial-'))).toEqual([`killed.partial-${process.pid}`]);
  });
});
