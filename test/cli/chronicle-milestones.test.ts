// `tangle-core chronicle-milestones` (issue 57) on the built CLI, beyond the two milestones docs/history.md runs:
// milestone 17340 alone gives a snapshot at 17339 (the milestone its cone holds) that 17340 applies to, with the ID
// inx-chronicle recorded; records that are not inx-chronicle's, or not consecutive, are one line naming the file and
// the field, exit 2, and nothing is written.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, chronicleMilestone } from '../helpers/chronicle.js';
import { cli } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-chronicle-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vectors = resolve(dirname(fileURLToPath(import.meta.url)), '../../vectors/stardust/chronicle-milestones');
const vector = (i: number) => join(vectors, `milestone-${i}.json`);
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const run = (args: string[]) => spawnAsync(process.execPath, [cli, ...args]);

describe('chronicle-milestones', () => {
  it('milestone 17340 alone: a snapshot at 17339 from its cone, which 17340 applies to with its recorded ID', async () => {
    const out = join(dir, 'one');
    let r = await run(['chronicle-milestones', vector(17340), '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\(milestones 17340 to 17340\) and .*snapshot-17339\.bin \(milestone 17339: /);
    r = await run(['import-snapshot', join(out, 'snapshot-17339.bin'), '--db', join(out, 'ledger')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/at milestone 17339 .*\(outputs and treasury add up\)/);
    r = await run(['import-milestones', join(out, 'milestones.ndjson'), '--db', join(out, 'ledger')]);
    expect(r.status, r.stderr).toBe(0);
    const id = hex(bin(chronicleMilestone(17340).milestone_data.milestone_id));
    expect(r.stdout).toMatch(new RegExp(`0 conflicting\\).*the store holds milestone 17340 \\(ID ${id}\\)\\n$`));
  });

  it('refuses what is not consecutive milestone records: one line naming the file and the field, exit 2', async () => {
    const noCone = join(dir, 'no-cone.json');
    const record = chronicleMilestone(17339);
    writeFileSync(noCone, JSON.stringify({ 17339: { ...record, cone: undefined } }));
    const cases: [string[], RegExp][] = [
      [[noCone], /^error: .*no-cone\.json: "17339"\.cone: missing \(not an inx-chronicle milestone record\)/],
      [[vector(17339), vector(17339)], /^error: milestone 17339 is given twice\n$/],
      [
        [join(vectors, 'measurements.json')],
        /measurements\.json: "source"\.milestone_data\.payload\.essence\.index: missing/,
      ],
    ];
    for (const [files, said] of cases) {
      const out = join(dir, 'refused');
      const r = await run(['chronicle-milestones', ...files, '--out', out]);
      expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(said)]);
      expect(r.stderr.split('\n')).toHaveLength(2); // one line
      expect(existsSync(out)).toBe(false);
    }
  });
});
