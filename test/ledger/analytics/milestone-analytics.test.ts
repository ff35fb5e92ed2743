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
/** The ledger's totals: they go on from the milestone before (which the data lack for 17339). */
const TOTALS = /^analytics\.(ledger_outputs|ledger_size|unclaimed_tokens|unlock_conditions)\./;

let ledger: Ledger;
beforeAll(async () => {
  const path = join(dir, 'ledger');
  await importSnapshot({ path, full: await chronicleSnapshot() });
  ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
});
afterAll(() => ledger?.close());

/**
 * A milestone's measurement from what the ledger holds: its cone in white-flag order, the outputs it consumed (with
 * their bookings); its ledger totals going on from `previous`.
 */
function measured(index: 17339 | 17340, previous?: Record<string, number>) {
  const blocks = ledger
    .blockIdsOfSlot(index, 1000)
    .map((id) => ledger.block(id))
    .sort((a, b) => a.whiteFlag!.index - b.whiteFlag!.index)
    .map((b) => ({ bytes: b.bytes, inclusion: INCLUSION[b.whiteFlag!.inclusion]! }));
  return measureMilestone({
    ctx: { index, timestamp: milestonePayloadOf(index).timestamp, rent: ledger.params.rentStructure },
    blocks,
    consumed: (id) => {
      const o = ledger.outputWithMetadata(id);
      return { bytes: o.output, booked: o.createdSlot };
    },
    ...(previous === undefined ? {} : { previous }),
  });
}

for (const index of [17339, 17340] as const) {
  it(`milestone ${index}: every analytic of the milestone alone is inx-chronicle's measurement`, () => {
    const m = measured(index);
    const names = Object.keys(m).filter((n) => !TOTALS.test(n));
    expect(names.length).toBe(48); // 1 + 2 + 10 + 22 + 8 + 5: active addresses … milestone size
    const want = Object.fromEntries(names.map((n) => [n, expected[String(index)]![n]]));
    expect(names.filter((n) => want[n] === undefined)).toEqual([]); // every name is one inx-chronicle measures
    expect(Object.fromEntries(names.map((n) => [n, String(m[n])]))).toEqual(
      Object.fromEntries(names.map((n) => [n, String(want[n])])),
    );
  });
}

it('the ledger’s totals move from 17339 to 17340 by exactly inx-chronicle’s difference', () => {
  const m = measured(17340, expected['17339']);
  const names = Object.keys(m).filter((n) => TOTALS.test(n));
  // ledger outputs 5 kinds × 2, ledger size 3, unclaimed tokens 2, unlock conditions 3 × 2 + 1
  expect(names.length).toBe(22);
  const inData = names.filter((n) => expected['17340']![n] !== undefined);
  expect(names.filter((n) => !inData.includes(n))).toEqual([
    'analytics.ledger_outputs.treasury.count',
    'analytics.ledger_outputs.treasury.amount.0',
  ]); // inx-chronicle's data leave out the treasury
  expect(Object.fromEntries(inData.map((n) => [n, String(m[n])]))).toEqual(
    Object.fromEntries(inData.map((n) => [n, String(expected['17340']![n])])),
  );
  // The data move: a test that could not fail would not show it.
  expect(inData.filter((n) => expected['17340']![n] !== expected['17339']![n]).length).toBeGreaterThanOrEqual(4);
});
