// The analytics that depend on one milestone alone (issue 46), on real Shimmer milestones 17339 and 17340 applied
// onto the test ledger built from what they consume: each equals inx-chronicle's own measurement of that milestone
// (vectors/stardust/chronicle-milestones/measurements.json, gathered from a Shimmer permanode).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  applyMilestone,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  openLedger,
} from '../../../src/index.js';
import { measureMilestone } from '../../../src/ledger/analytics/index.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { loadVectors } from '../../helpers/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-analytics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const expected: Record<string, Record<string, number>> = loadVectors(
  'stardust/chronicle-milestones/measurements.json',
).measurements;
const INCLUSION = ['noTransaction', 'included', 'conflicting'] as const;

let ledger: Ledger;
beforeAll(async () => {
  const path = join(dir, 'ledger');
  await importSnapshot({ path, full: await chronicleSnapshot() });
  ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
});
afterAll(() => ledger?.close());

/** A milestone's measurement from what the ledger holds: its cone in white-flag order, the outputs it consumed. */
function measured(index: 17339 | 17340) {
  const blocks = ledger
    .blockIdsOfSlot(index, 1000)
    .map((id) => ledger.block(id))
    .sort((a, b) => a.whiteFlag!.index - b.whiteFlag!.index)
    .map((b) => ({ bytes: b.bytes, inclusion: INCLUSION[b.whiteFlag!.inclusion]! }));
  return measureMilestone({
    ctx: { index, timestamp: milestonePayloadOf(index).timestamp },
    blocks,
    consumed: (id) => ledger.outputWithMetadata(id).output,
  });
}

for (const index of [17339, 17340] as const) {
  it(`milestone ${index}: every analytic of the milestone alone is inx-chronicle's measurement`, () => {
    const m = measured(index);
    const names = Object.keys(m);
    expect(names.length).toBe(48); // 1 + 2 + 10 + 22 + 8 + 5: active addresses … milestone size
    const want = Object.fromEntries(names.map((n) => [n, expected[String(index)]![n]]));
    expect(names.filter((n) => want[n] === undefined)).toEqual([]); // every name is one inx-chronicle measures
    expect(Object.fromEntries(names.map((n) => [n, String(m[n])]))).toEqual(
      Object.fromEntries(names.map((n) => [n, String(want[n])])),
    );
  });
}
