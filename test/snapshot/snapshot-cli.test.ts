// The snapshot commands of the built CLI (issue 29): a refusal is one line on standard error naming the file, the
// offset and the field (or the rule), exit status 2, and no store left behind; export needs a store. The commands'
// happy path runs in test/docs.test.ts (the README's example).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { VECTORS_DIR } from '../helpers/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-snapshot-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vector = (name: string) => join(VECTORS_DIR, 'snapshots', name);
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

describe('tangle-core import-snapshot and export-snapshot refusals', () => {
  it('a Chrysalis file: the file, the offset, the field and the version, in one line; no store', () => {
    const db = join(dir, 'chrysalis');
    const r = run('import-snapshot', vector('chrysalis/full_snapshot.bin'), '--db', db);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/full_snapshot\.bin @0: UNKNOWN_TYPE at header\.version: .*version 1 \(Chrysalis/);
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deltas that do not chain, a directory that holds something, a missing file, a missing store', () => {
    const delta = vector('snapshot_delta_snapshot.bin');
    const cases: [string[], RegExp][] = [
      [['import-snapshot', vector('full_snapshot.bin'), '--delta', delta, '--db', join(dir, 'a')], /SNAPSHOT_INVALID/],
      [['import-snapshot', join(dir, 'nothing.bin'), '--db', join(dir, 'b')], /no snapshot file at/],
      [['import-snapshot', '--db', join(dir, 'c')], /needs one FULL snapshot file/],
      [['export-snapshot', '--db', join(dir, 'none'), join(dir, 'out.bin')], /there is no store at/],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 2]);
      expect(r.stderr).toMatch(message);
    }
    const busy = join(dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'keep'), 'x');
    const r = run('import-snapshot', vector('full_snapshot.bin'), '--db', busy);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/INVALID_ARGUMENT: .* is not empty/);
    expect(readdirSync(busy)).toEqual(['keep']);
    expect(readdirSync(dir).sort()).toEqual(['busy']);
  });
});
