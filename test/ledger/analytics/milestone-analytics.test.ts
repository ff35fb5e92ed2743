// The analytics that depend on one milestone alone (issue 46), on real Shimmer milestones 17339 and 17340 applied
// onto the test ledger built from what they consume: each equals inx-chronicle's own measurement of that milestone
// (vectors/stardust/chronicle-milestones/measurements.json, gathered from a Shimmer permanode).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMilestone, createServer, type Ledger } from '../../../src/index.js';
import { MEASUREMENT_NAMES, measureMilestone, measurementsFromRecord } from '../../../src/ledger/analytics/index.js';
import { bin, chronicleHistory, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { balancesAt } from '../../helpers/plain-archive.js';
import { loadVectors } from '../../helpers/vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-analytics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const expected: Record<string, Record<string, number>> = loadVectors(
  'stardust/chronicle-milestones/measurements.json',
).measurements;
const INCLUSION = ['noTransaction', 'included', 'conflicting'] as const;
/** The ledger's totals: they go on from the milestone before (which the data lack for 17339). */
const TOTALS = /^analytics\.(ledger_outputs|ledger_size|unclaimed_tokens|unlock_conditions)\./;
/** The addresses' totals: they go on from every address's balance, which the test ledger holds only part of. */
const ADDRESSES = /^analytics\.address_balance\./;

let ledger: Ledger;
beforeAll(async () => {
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
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
    const names = Object.keys(m).filter((n) => !TOTALS.test(n) && !ADDRESSES.test(n));
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

it('each applied milestone’s analytics are stored in its commit and served: GET /api/analytics/v1/milestones/{index}', async () => {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (route: string) => {
    const res = await fetch(origin + route);
    return { status: res.status, body: (await res.json()) as any };
  };
  try {
    const [a, b] = [
      (await get('/api/analytics/v1/milestones/17339')).body,
      (await get('/api/analytics/v1/milestones/17340')).body,
    ];
    expect(a.milestoneIndex).toBe(17339);
    for (const [index, served] of [
      [17339, a],
      [17340, b],
    ] as const) {
      const m = served.measurements as Record<string, number | string>;
      for (const [name, value] of Object.entries(m)) {
        if (TOTALS.test(name) || ADDRESSES.test(name)) continue;
        expect(String(value), `${index} ${name}`).toBe(String(expected[String(index)]![name]));
      }
      expect(typeof m['analytics.base_tokens.booked_amount.0']).toBe('string'); // amounts as strings
      expect(typeof m['analytics.active_addresses.count']).toBe('number');
    }
    // The totals: the test ledger holds only what the cones consume, so they start elsewhere than Shimmer's; from
    // 17339 to 17340 they move as inx-chronicle's do.
    for (const name of Object.keys(b.measurements).filter(
      (n) => TOTALS.test(n) && expected['17340']![n] !== undefined,
    )) {
      const moved = BigInt(b.measurements[name]) - BigInt(a.measurements[name]);
      expect(moved, name).toBe(BigInt(expected['17340']![name]!) - BigInt(expected['17339']![name]!));
    }
    // A range: the measured milestones in it, each as the route of one answers it; some names; CSV for a sheet.
    const range = (await get('/api/analytics/v1/milestones?from=17338&to=17345')).body;
    expect(range).toEqual({ from: 17338, to: 17345, milestones: [a, b] });
    const two = 'analytics.active_addresses.count,analytics.base_tokens.booked_amount.0';
    const some = (await get(`/api/analytics/v1/milestones?from=17339&to=17340&names=${two}`)).body;
    expect(some.milestones.map((m: any) => m.measurements)).toEqual([
      { 'analytics.active_addresses.count': 32, 'analytics.base_tokens.booked_amount.0': '96847628508' },
      { 'analytics.active_addresses.count': 14, 'analytics.base_tokens.booked_amount.0': '891030800' },
    ]); // inx-chronicle's values
    const csv = await fetch(`${origin}/api/analytics/v1/milestones?from=17339&to=17340&names=${two}`, {
      headers: { accept: 'text/csv' },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe(`milestoneIndex,${two}\n17339,32,96847628508\n17340,14,891030800\n`);
    for (const q of ['from=2&to=1', 'from=1', 'to=1', 'from=0&to=100000', 'from=5&to=100005', 'from=1&to=2&names=nope'])
      expect((await get(`/api/analytics/v1/milestones?${q}`)).status, q).toBe(400);
    expect((await get('/api/analytics/v1/milestones?from=1&to=2&x=1')).status).toBe(400);
    // At most 100,000 milestones, counted from `from`: the widest range answers.
    expect((await get('/api/analytics/v1/milestones?from=17300&to=117299')).status).toBe(200);
    expect(((await get('/api/analytics/v1/milestones?from=1')).body as any).error.message).toMatch(/from and to/);
    expect((await get('/api/analytics/v1/milestones/17338')).status).toBe(404); // the snapshot's: not measured
    expect((await get('/api/analytics/v1/milestones/x')).status).toBe(400);
  } finally {
    await new Promise((done) => server.close(done));
  }
});

/**
 * A stored record names each measurement by its place in MEASUREMENT_NAMES: a list moved or shortened would read
 * every milestone measured before under other names. New analytics go at the end.
 */
const PINNED = [
  'analytics.ledger_outputs.basic.count',
  'analytics.ledger_outputs.basic.amount.0',
  'analytics.ledger_outputs.alias.count',
  'analytics.ledger_outputs.alias.amount.0',
  'analytics.ledger_outputs.nft.count',
  'analytics.ledger_outputs.nft.amount.0',
  'analytics.ledger_outputs.foundry.count',
  'analytics.ledger_outputs.foundry.amount.0',
  'analytics.ledger_outputs.treasury.count',
  'analytics.ledger_outputs.treasury.amount.0',
  'analytics.ledger_size.total_key_bytes',
  'analytics.ledger_size.total_data_bytes',
  'analytics.ledger_size.total_storage_deposit_amount.0',
  'analytics.unclaimed_tokens.unclaimed_count',
  'analytics.unclaimed_tokens.unclaimed_amount.0',
  'analytics.unlock_conditions.storage_deposit_return.count',
  'analytics.unlock_conditions.storage_deposit_return.amount.0',
  'analytics.unlock_conditions.timelock.count',
  'analytics.unlock_conditions.timelock.amount.0',
  'analytics.unlock_conditions.expiration.count',
  'analytics.unlock_conditions.expiration.amount.0',
  'analytics.unlock_conditions.storage_deposit_return_inner_amount',
  'analytics.active_addresses.count',
  'analytics.base_tokens.booked_amount.0',
  'analytics.base_tokens.transferred_amount.0',
  'analytics.output_activity.nft.created_count',
  'analytics.output_activity.nft.transferred_count',
  'analytics.output_activity.nft.destroyed_count',
  'analytics.output_activity.alias.created_count',
  'analytics.output_activity.alias.governor_changed_count',
  'analytics.output_activity.alias.state_changed_count',
  'analytics.output_activity.alias.destroyed_count',
  'analytics.output_activity.foundry.created_count',
  'analytics.output_activity.foundry.transferred_count',
  'analytics.output_activity.foundry.destroyed_count',
  'analytics.transaction_size.input_buckets.single(1)',
  'analytics.transaction_size.input_buckets.single(2)',
  'analytics.transaction_size.input_buckets.single(3)',
  'analytics.transaction_size.input_buckets.single(4)',
  'analytics.transaction_size.input_buckets.single(5)',
  'analytics.transaction_size.input_buckets.single(6)',
  'analytics.transaction_size.input_buckets.single(7)',
  'analytics.transaction_size.input_buckets.small',
  'analytics.transaction_size.input_buckets.medium',
  'analytics.transaction_size.input_buckets.large',
  'analytics.transaction_size.input_buckets.huge',
  'analytics.transaction_size.output_buckets.single(1)',
  'analytics.transaction_size.output_buckets.single(2)',
  'analytics.transaction_size.output_buckets.single(3)',
  'analytics.transaction_size.output_buckets.single(4)',
  'analytics.transaction_size.output_buckets.single(5)',
  'analytics.transaction_size.output_buckets.single(6)',
  'analytics.transaction_size.output_buckets.single(7)',
  'analytics.transaction_size.output_buckets.small',
  'analytics.transaction_size.output_buckets.medium',
  'analytics.transaction_size.output_buckets.large',
  'analytics.transaction_size.output_buckets.huge',
  'analytics.block_activity.treasury_transaction_count',
  'analytics.block_activity.tagged_data_count',
  'analytics.block_activity.transaction_count',
  'analytics.block_activity.milestone_count',
  'analytics.block_activity.no_payload_count',
  'analytics.block_activity.confirmed_count',
  'analytics.block_activity.conflicting_count',
  'analytics.block_activity.no_transaction_count',
  'analytics.milestone_size.total_treasury_transaction_payload_bytes',
  'analytics.milestone_size.total_tagged_data_payload_bytes',
  'analytics.milestone_size.total_transaction_payload_bytes',
  'analytics.milestone_size.total_milestone_payload_bytes',
  'analytics.milestone_size.total_milestone_bytes',
  'analytics.address_balance.address_with_balance_count',
  'analytics.address_balance.token_distribution[0].address_count',
  'analytics.address_balance.token_distribution[0].total_amount.0',
  'analytics.address_balance.token_distribution[1].address_count',
  'analytics.address_balance.token_distribution[1].total_amount.0',
  'analytics.address_balance.token_distribution[2].address_count',
  'analytics.address_balance.token_distribution[2].total_amount.0',
  'analytics.address_balance.token_distribution[3].address_count',
  'analytics.address_balance.token_distribution[3].total_amount.0',
  'analytics.address_balance.token_distribution[4].address_count',
  'analytics.address_balance.token_distribution[4].total_amount.0',
  'analytics.address_balance.token_distribution[5].address_count',
  'analytics.address_balance.token_distribution[5].total_amount.0',
  'analytics.address_balance.token_distribution[6].address_count',
  'analytics.address_balance.token_distribution[6].total_amount.0',
  'analytics.address_balance.token_distribution[7].address_count',
  'analytics.address_balance.token_distribution[7].total_amount.0',
  'analytics.address_balance.token_distribution[8].address_count',
  'analytics.address_balance.token_distribution[8].total_amount.0',
  'analytics.address_balance.token_distribution[9].address_count',
  'analytics.address_balance.token_distribution[9].total_amount.0',
  'analytics.address_balance.token_distribution[10].address_count',
  'analytics.address_balance.token_distribution[10].total_amount.0',
  'analytics.address_balance.token_distribution[11].address_count',
  'analytics.address_balance.token_distribution[11].total_amount.0',
  'analytics.address_balance.token_distribution[12].address_count',
  'analytics.address_balance.token_distribution[12].total_amount.0',
  'analytics.address_balance.token_distribution[13].address_count',
  'analytics.address_balance.token_distribution[13].total_amount.0',
  'analytics.address_balance.token_distribution[14].address_count',
  'analytics.address_balance.token_distribution[14].total_amount.0',
  'analytics.address_balance.token_distribution[15].address_count',
  'analytics.address_balance.token_distribution[15].total_amount.0',
  'analytics.address_balance.token_distribution[16].address_count',
  'analytics.address_balance.token_distribution[16].total_amount.0',
  'analytics.address_balance.token_distribution[17].address_count',
  'analytics.address_balance.token_distribution[17].total_amount.0',
  'analytics.address_balance.token_distribution[18].address_count',
  'analytics.address_balance.token_distribution[18].total_amount.0',
  'analytics.address_balance.token_distribution[19].address_count',
  'analytics.address_balance.token_distribution[19].total_amount.0',
];

it('the analytics’ names keep their places (stored records name measurements by place)', () => {
  expect(MEASUREMENT_NAMES).toEqual(PINNED);
  // Every name inx-chronicle measures for a milestone is among them.
  expect(Object.keys(expected['17339']!).filter((n) => !PINNED.includes(n))).toEqual([]);
});

it('addresses with a balance: the count moves by the addresses filled less those emptied, and inx-chronicle’s move lies within what the cones allow', async () => {
  // The plain scan of the data's history: which owners 17340 emptied and filled (helpers/plain-archive.ts).
  const outs = chronicleHistory();
  const [before, after] = [balancesAt(outs, 17339), balancesAt(outs, 17340)];
  const emptied = [...before.keys()].filter((a) => !after.has(a)).length;
  const filled = [...after.keys()].filter((a) => !before.has(a)).length;
  const [a, b] = ledger.analytics(17339, 17340).map((r) => measurementsFromRecord(r.record));
  const COUNT = 'analytics.address_balance.address_with_balance_count';
  expect(a![COUNT]).toBe(before.size);
  expect(b![COUNT]).toBe(after.size);
  expect(b![COUNT]! as number).toBe((a![COUNT] as number) + filled - emptied);
  // On Shimmer an address emptied by 17340 spent all it held there, so it is emptied here too; one filled held
  // nothing there, so nothing here either: inx-chronicle's move is some of these fills less some of these empties.
  const shimmer = expected['17340']![COUNT]! - expected['17339']![COUNT]!;
  expect(shimmer).toBe(-2);
  expect(shimmer).toBeGreaterThanOrEqual(-emptied);
  expect(shimmer).toBeLessThanOrEqual(filled);
  expect([emptied, filled]).toEqual([6, 5]); // counted by hand from the data: a bound that could fail
});
