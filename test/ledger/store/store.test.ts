// The store directory (issue 9): any directory name works, a file is refused, a failed open leaves nothing behind,
// a truncated data file is refused before LMDB can fault on it, and one process at a time writes a store.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectStore, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { ledgerFailure } from '../../helpers/failure.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const root = mkdtempSync(join(tmpdir(), 'tangle-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (name = 'db') => join(mkdtempSync(join(root, `${n++}-`)), name);

function fill(path: string, slots: number): number {
  const sim = new Simulation({ params, seed: 9 });
  const l = openLedger({ path, params, genesis: sim.genesis(), clock: () => 1_700_000_000 });
  for (let slot = 1; slot <= slots; slot++) for (const e of sim.slot(slot)) applyEvent(l, e);
  const latest = l.latestCommitment().slot;
  l.close();
  return latest;
}

describe('the store path', () => {
  for (const name of ['my.db', 'ledger.v2.lmdb', 'with space', '.hidden', 'ünïcode.d']) {
    it(`"${name}" is a directory holding the store, with nothing beside it`, () => {
      const path = fresh(name);
      expect(fill(path, 3)).toBe(3);
      expect(statSync(path).isDirectory()).toBe(true);
      expect(readdirSync(join(path, '..'))).toEqual([name]); // no "my.db-lock" next to it
      expect(readdirSync(path).sort()).toEqual(['data.mdb', 'lock.mdb']); // the writer lock is gone after close
      expect(inspectStore(path)?.latestSlot).toBe(3);
      const again = openLedger({ path, params });
      expect(again.latestCommitment().slot).toBe(3);
      again.close();
    });
  }

  it('a path that is a file is refused with a clear error, and the file is left as it was', () => {
    const path = fresh('a-file.db');
    writeFileSync(path, 'not a store');
    const e = ledgerFailure(() => openLedger({ path, params }));
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toContain('is a file: a store is a directory');
    expect(ledgerFailure(() => inspectStore(path)).code).toBe('INVALID_ARGUMENT');
    expect(readFileSync(path, 'utf8')).toBe('not a store');
  });

  it('a failed open of a new store leaves nothing behind: no directory, no lock file', () => {
    const path = fresh();
    // A store of another network cannot be opened with these parameters; here the new store itself fails to be set
    // up, because its genesis output id is malformed.
    expect(() =>
      openLedger({ path, params, genesis: { outputs: [{ outputId: new Uint8Array(3), output: undefined as never }] } }),
    ).toThrow();
    expect(existsSync(path)).toBe(false);
    // An existing empty directory is left empty.
    const empty = fresh();
    rmSync(empty, { recursive: true, force: true });
    spawnSync('mkdir', [empty]);
    expect(() =>
      openLedger({
        path: empty,
        params,
        genesis: { outputs: [{ outputId: new Uint8Array(3), output: undefined as never }] },
      }),
    ).toThrow();
    expect(readdirSync(empty)).toEqual([]);
  });

  it('inspecting a path with no store creates nothing', () => {
    const path = fresh();
    expect(inspectStore(path)).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });
});

describe('a truncated data file', () => {
  const original = fresh();
  fill(original, 40);
  const bytes = readFileSync(join(original, 'data.mdb'));

  for (const percent of [10, 50, 90, 94, 99]) {
    it(`cut to ${percent} % is refused at open with STORE_CORRUPT (LMDB would raise SIGBUS on it)`, () => {
      const path = fresh();
      spawnSync('cp', ['-r', original, path]);
      const size = Math.floor((bytes.length * percent) / 100);
      truncateSync(join(path, 'data.mdb'), size);
      const e = ledgerFailure(() => openLedger({ path, params }));
      expect(e.code).toBe('STORE_CORRUPT');
      expect(e.message).toMatch(/not an intact LMDB file/);
      expect(ledgerFailure(() => inspectStore(path)).code).toBe('STORE_CORRUPT');
      // Opening refused, the file is as the damage left it (nothing "repaired" over it).
      expect(statSync(join(path, 'data.mdb')).size).toBe(size);
    });
  }

  it('one page short of whole is refused; whole is accepted', () => {
    const path = fresh();
    spawnSync('cp', ['-r', original, path]);
    truncateSync(join(path, 'data.mdb'), bytes.length - 4096);
    expect(ledgerFailure(() => openLedger({ path, params })).code).toBe('STORE_CORRUPT');
    writeFileSync(join(path, 'data.mdb'), bytes);
    const l = openLedger({ path, params });
    expect(l.latestCommitment().slot).toBe(40);
    l.close();
  });
});

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist/index.js'); // npm test builds it first

describe('which meta page decides (LMDB uses the one with the higher transaction id)', () => {
  // The meta record's layout in the LMDB inside lmdb-js (mdb.master3), read off a real file: page size at byte 48 of
  // page 0, last page at 144 and transaction id at 152 of each meta page.
  const meta = (file: Buffer, at: number) => ({
    lastPage: Number(file.readBigUInt64LE(at + 144)),
    txn: file.readBigUInt64LE(at + 152),
  });
  /**
   * A store whose last write grew the file and left its current meta page at page `page`: found by filling stores
   * with more and more slots (the history decides when the file grows, so no fixed count is assumed).
   */
  function grown(page: 0 | 1) {
    for (let commits = 5; commits < 40; commits++) {
      const path = fresh();
      fill(path, commits);
      const bytes = readFileSync(join(path, 'data.mdb'));
      const pageSize = bytes.readUInt32LE(48);
      const [first, second] = [meta(bytes, 0), meta(bytes, pageSize)];
      const [current, older] = second.txn > first.txn ? [second, first] : [first, second];
      if ((current === second ? 1 : 0) === page && current.lastPage > older.lastPage) return { path, pageSize, older };
    }
    throw new Error(`no store grew in its last write with meta page ${page} current`);
  }
  for (const page of [0, 1] as const) {
    it(`current meta page ${page}: a file long enough for the older meta page but not the current one is refused`, () => {
      const { path, pageSize, older } = grown(page);
      truncateSync(join(path, 'data.mdb'), (older.lastPage + 1) * pageSize);
      expect(ledgerFailure(() => openLedger({ path, params })).message).toMatch(/truncated/);
    });
  }
  it('a meta page without its meta flag, or naming a page size LMDB never uses, is refused', () => {
    const path = fresh();
    fill(path, 2);
    const file = join(path, 'data.mdb');
    const bytes = readFileSync(file);
    const flags = Buffer.from(bytes);
    flags.writeUInt16LE(0, 18);
    writeFileSync(file, flags);
    expect(ledgerFailure(() => openLedger({ path, params })).message).toMatch(/first meta page is damaged/);
    const size = Buffer.from(bytes);
    size.writeUInt32LE(12345, 48);
    writeFileSync(file, size);
    expect(ledgerFailure(() => openLedger({ path, params })).message).toMatch(/page size 12345/);
    writeFileSync(file, bytes);
    openLedger({ path, params }).close();
  });
  it('opening read-only where there is no store is NOT_FOUND, and creates nothing', () => {
    const path = fresh();
    expect(ledgerFailure(() => openLedger({ path, params, readOnly: true })).code).toBe('NOT_FOUND');
    expect(existsSync(path)).toBe(false);
  });
});

describe('the writer lock file', () => {
  for (const [what, content, taken] of [
    ['a live pid without a start time (no /proc when it was written)', `${process.ppid}\n`, false],
    ['pid 0 (would name our own process group)', '0 1\n', true],
    ['garbage', 'not a pid\n', true],
    ['an empty file', '', true],
  ] as const) {
    it(`${what}: ${taken ? 'stale, taken over' : 'held, refused'}`, () => {
      const path = fresh();
      fill(path, 1);
      writeFileSync(join(path, 'writer.lock'), content);
      if (taken) openLedger({ path, params }).close();
      else expect(ledgerFailure(() => openLedger({ path, params })).code).toBe('STORE_LOCKED');
    });
  }
  it('closing removes our lock only: a lock that is no longer ours is left alone', () => {
    const path = fresh();
    fill(path, 1);
    const l = openLedger({ path, params });
    writeFileSync(join(path, 'writer.lock'), `${process.ppid} someone-else\n`);
    l.close();
    expect(readFileSync(join(path, 'writer.lock'), 'latin1')).toBe(`${process.ppid} someone-else\n`);
  });
});

/** A child process that opens the store for writing, says "open", and waits to be killed. */
function holdOpen(path: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const code = `
    import { openLedger, PROTOCOL_PARAMETERS, protocolParameters } from ${JSON.stringify(dist)};
    const l = openLedger({ path: ${JSON.stringify(path)}, params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 }) });
    process.stdout.write('open\\n');
    setInterval(() => l.latestCommitment(), 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('open\n')) {
        done({
          pid: child.pid!,
          kill: () =>
            new Promise<void>((gone) => {
              child.once('exit', () => gone());
              child.kill('SIGKILL');
            }),
        });
      }
    });
    child.once('exit', (c) => fail(new Error(`writer child exited ${c}: ${err}`)));
  });
}

describe('one writer per store', () => {
  it('a second writer in the same process is refused; after close the store opens again', () => {
    const path = fresh();
    fill(path, 2);
    const first = openLedger({ path, params });
    const e = ledgerFailure(() => openLedger({ path, params }));
    expect(e.code).toBe('STORE_LOCKED');
    expect(e.message).toMatch(/open for writing by this process already/);
    // Readers are not writers: a read-only open and inspectStore work beside the writer.
    const reader = openLedger({ path, params, readOnly: true });
    expect(reader.latestCommitment().slot).toBe(2);
    reader.close();
    expect(inspectStore(path)?.latestSlot).toBe(2);
    first.close();
    openLedger({ path, params }).close();
  });

  it("a writer in another process: refused, even with LMDB's lock.mdb deleted under it; taken over once it is killed", async () => {
    const path = fresh();
    fill(path, 2);
    const writer = await holdOpen(path);
    const e = ledgerFailure(() => openLedger({ path, params }));
    expect(e.code).toBe('STORE_LOCKED');
    expect(e.message).toContain(`process ${writer.pid}`);
    rmSync(join(path, 'lock.mdb'));
    expect(ledgerFailure(() => openLedger({ path, params })).code).toBe('STORE_LOCKED');
    await writer.kill();
    // The killed writer's lock file is still there, naming a process that no longer runs: stale, taken over.
    expect(readFileSync(join(path, 'writer.lock'), 'latin1')).toContain(String(writer.pid));
    const next = openLedger({ path, params });
    expect(next.latestCommitment().slot).toBe(2);
    next.close();
  });

  it('a lock naming a live process that started at another time (a reused pid) is stale', () => {
    const path = fresh();
    fill(path, 1);
    // Our parent is alive, but the start time in the lock is not its start time.
    writeFileSync(join(path, 'writer.lock'), `${process.ppid} 1\n`);
    const l = openLedger({ path, params });
    l.close();
    expect(existsSync(join(path, 'writer.lock'))).toBe(false);
  });
});
