// `tangle-core import-milestones` (issue 45) on the built CLI: the test ledger of real Shimmer milestones
// (helpers/chronicle.ts) made with `import-snapshot`, then milestones 17339 and 17340 from NDJSON, from a file and
// from standard input; a second run skips what the store holds; a refused milestone is one line naming it and the
// rule, exit 2, with the store as it was; a line that is not a milestone names its line and field.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockId, importedParams, inspectStore, openLedger } from '../../src/index.js';
import { bin, chronicleMilestone, chronicleNdjson, chronicleSnapshot, coneOf } from '../helpers/chronicle.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-import-milestones-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const run = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const latestOf = (db: string) => {
  const ledger = openLedger({ path: db, params: importedParams(inspectStore(db)!.imported!), readOnly: true });
  try {
    return ledger.latestCommitment().slot;
  } finally {
    ledger.close();
  }
};

let snapshot: string;
let ndjson: string;
beforeAll(async () => {
  snapshot = join(dir, 'at-17338.snapshot');
  writeFileSync(snapshot, await chronicleSnapshot());
  ndjson = join(dir, 'milestones.ndjson');
  writeFileSync(ndjson, chronicleNdjson());
});

/** A new store at milestone 17338, made by the CLI. */
function store(name: string): string {
  const db = join(dir, name);
  const r = run(['import-snapshot', snapshot, '--db', db]);
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/imported shimmer \(smr\) at milestone 17338/);
  return db;
}

describe('import-milestones', () => {
  it('applies both milestones from a file; a second run skips them; the store answers as hornet did', () => {
    const db = store('from-file');
    const r = run(['import-milestones', ndjson, '--db', db]);
    expect(r.code, r.err).toBe(0);
    const blocks = coneOf(17339).length + coneOf(17340).length;
    expect(r.out).toMatch(
      new RegExp(
        `^applied milestones 17339 to 17340 to .* \\(2 milestones, ${blocks} blocks, 12 transactions applied, 0 conflicting\\)`,
      ),
    );
    const again = run(['import-milestones', ndjson, '--db', db]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^applied no milestone .*; 2 held already, skipped\)/);
    const ledger = openLedger({ path: db, params: importedParams(inspectStore(db)!.imported!), readOnly: true });
    try {
      expect(ledger.latestCommitment().slot).toBe(17340);
      expect(hex(ledger.milestone(17340)!.milestoneId)).toBe(
        hex(bin(chronicleMilestone(17340).milestone_data.milestone_id)),
      );
      for (const b of coneOf(17340)) {
        expect(ledger.block(blockId(bin(b.raw))).whiteFlag?.index).toBe(b.metadata.white_flag_index);
      }
    } finally {
      ledger.close();
    }
  });

  it('reads standard input', () => {
    const db = store('from-stdin');
    const r = run(['import-milestones', '-', '--db', db], chronicleNdjson());
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^applied milestones 17339 to 17340/);
  });

  it('a refused milestone: one line naming it and the rule, exit 2, the milestones before it kept', () => {
    const db = store('refused');
    const [first, second] = chronicleNdjson().trim().split('\n');
    const forged = JSON.parse(second!);
    forged.milestone.signatures[0].signature = `0x${'00'.repeat(64)}`;
    const file = join(dir, 'forged.ndjson');
    writeFileSync(file, `${first}\n${JSON.stringify(forged)}\n`);
    const r = run(['import-milestones', file, '--db', db]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/^error: MILESTONE_INVALID: milestone 17340: MILESTONE_SIGNATURE_INVALID at signatures\[0\]/);
    expect(latestOf(db)).toBe(17339);
    // A gap: the file starts after the store's milestone.
    const gap = run(['import-milestones', '-', '--db', store('gap')], `${second}\n`);
    expect(gap.code).toBe(2);
    expect(gap.err).toMatch(/milestone 17340: the ledger stands at milestone 17338: a gap/);
  });

  it('a line that is not a milestone names its line and field; a store without a network is refused', () => {
    const db = store('bad-lines');
    const [first] = chronicleNdjson().trim().split('\n');
    const cases: [string, RegExp][] = [
      ['{"milestone": 1', /^error: line 1: \(root\): INVALID_JSON/],
      ['[1, 2]', /^error: line 1: expected \{"milestone"/],
      [`${first!.replace('"blocks":["0x', '"blocks":["0xzz')}`, /^error: line 1: blocks\[0\]: /],
      [`\n${first!.replace('"type":7', '"type":6')}`, /^error: line 2: milestone: /],
    ];
    for (const [text, want] of cases) {
      const r = run(['import-milestones', '-', '--db', db], `${text}\n`);
      expect(r.code, text.slice(0, 40)).toBe(2);
      expect(r.err).toMatch(want);
    }
    expect(latestOf(db)).toBe(17338);
    const none = run(['import-milestones', ndjson, '--db', join(dir, 'nothing-here')]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/holds no ledger imported from a network's snapshot/);
  });
});
