// The records a snapshot's import keeps beside the ledger are checked before they are served (issue 57, as
// record-damage.test.ts for the records of applied milestones): a bit flipped at any byte of a delta's milestone, the
// imported network, the treasury output, a milestone's time or the solid entry points makes every read of it throw
// STORE_CORRUPT, and the routes that serve it answer 500 (logged with the record's key), never 200 with damaged data;
// undamaged, each route answers what hornet's snapshot files say (vectors/snapshots, read here record by record).
// Then the upgrade: a store of layout 4 (those records as they were written before their seal) is refused to a
// reader with the command that upgrades it, and its writer's opening seals each once.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode, u32 } from '../../../src/codec/index.js';
import {
  createServer,
  exportSnapshot,
  type FullSnapshotHeader,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  ledgerIntake,
  type MilestoneDiff,
  milestoneId,
  openLedger,
} from '../../../src/index.js';
import { keys, SEAL } from '../../../src/ledger/common/index.js';
import { settleLayout, storeLayout } from '../../../src/ledger/core/upgrade.js';
import { type KeyValueStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { MilestoneOptionType } from '../../../src/stardust/payload/milestone.js';
import { ledgerFailure } from '../../helpers/failure.js';
import { unsealLayout7 } from '../../helpers/older-layout.js';
import { records, snapshotVector } from '../../helpers/snapshots.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-snapshot-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const V2 = '/api/core/v2';

const full = snapshotVector('snapshot_full_snapshot.bin');
const delta = snapshotVector('snapshot_delta_snapshot.bin');
let header: FullSnapshotHeader;
let diffs: MilestoneDiff[];
let ledger: Ledger;
const store = () => (ledger as unknown as { committed: { store: KeyValueStore } }).committed.store;

beforeAll(async () => {
  const fullRecords = await records(full);
  const first = fullRecords[0]!;
  if (first.kind !== 'header') throw new Error('no header');
  header = first.header as FullSnapshotHeader;
  diffs = (await records(delta)).flatMap((r) => (r.kind === 'milestoneDiff' ? [r.diff] : []));
  const path = join(dir, 'ledger');
  await importSnapshot({ path, full, deltas: [delta] });
  ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
}, 60_000);
afterAll(() => ledger?.close());

async function serve() {
  const logged: string[] = [];
  const blocks = ledgerIntake(ledger, { pow: true });
  const server = createServer({
    ledger,
    blocks,
    pow: true,
    onStoreError: (e) => logged.push(`${e.code}: ${e.detail}`),
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const res = await fetch(origin + path);
    return { status: res.status, body: JSON.parse(await res.text()) };
  };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(origin + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: JSON.parse(await res.text()) };
  };
  return { get, post, logged, stop: () => new Promise((done) => server.close(done)) };
}

/**
 * Flips one bit of the record at `key` at every byte in turn (restored after each): each of `reads` throws
 * STORE_CORRUPT at every byte; through HTTP, at the first, middle and seal's bytes, every route answers 500 and the
 * server logs STORE_CORRUPT with the record's key. Restored, the routes answer 200 again.
 */
async function everyByteFlipped(key: Uint8Array, reads: (() => unknown)[], routes: string[]) {
  const original = store().get(key)!.slice();
  const n = original.length;
  const spread = new Set([0, Math.floor(n / 2), n - SEAL, n - 1]);
  try {
    for (let at = 0; at < n; at++) {
      const damaged = original.slice();
      damaged[at]! ^= 0x10;
      store().write(WriteBatch.of([{ key, value: damaged }]));
      for (const read of reads) expect(ledgerFailure(read).code, `byte ${at}`).toBe('STORE_CORRUPT');
      if (!spread.has(at)) continue;
      const { get, logged, stop } = await serve();
      for (const route of routes) expect((await get(route)).status, `${route} byte ${at}`).toBe(500);
      await stop();
      expect(logged.length).toBe(routes.length);
      for (const line of logged) expect(line).toMatch(new RegExp(`^STORE_CORRUPT: the stored .*\\(key ${hex(key)}\\)`));
    }
  } finally {
    store().write(WriteBatch.of([{ key, value: original }]));
  }
  const again = await serve();
  for (const route of routes) expect((await again.get(route)).status, route).toBe(200);
  await again.stop();
}

describe('the records a snapshot’s import keeps', () => {
  it('a delta’s milestone: its ID and time as the file gives them; any byte flipped is 500', async () => {
    const last = diffs.at(-1)!.milestone;
    const routes = [`${V2}/info`, `${V2}/milestones/by-index/${last.index}/utxo-changes`];
    const { get, stop } = await serve();
    const info = (await get(routes[0]!)).body;
    expect(info.status.latestMilestone).toEqual({
      index: last.index,
      timestamp: last.timestamp,
      milestoneId: hex(milestoneId(last)),
    });
    expect((await get(routes[1]!)).body.index).toBe(last.index);
    await stop();
    await everyByteFlipped(keys.importedMilestone(last.index), [() => ledger.milestone(last.index)], routes);
  });

  it('the imported network: the target milestone as the header names it; any byte flipped is 500', async () => {
    const target = header.targetMilestoneIndex;
    const route = `${V2}/milestones/by-index/${target}`;
    expect(ledger.milestone(target)).toEqual({
      index: target,
      milestoneId: header.targetMilestoneId,
      timestamp: header.targetMilestoneTimestamp,
    });
    await everyByteFlipped(keys.importedNetwork, [() => ledger.milestone(target)], [route]);
  });

  it('the treasury output: the amount the files leave it; any byte flipped is 500', async () => {
    // TIP-34: the treasury output after the files is the one the last receipt's treasury transaction made.
    const withReceipt = diffs.filter((d) => d.milestone.options.some((o) => o.type === MilestoneOptionType.Receipt));
    const last = withReceipt.at(-1)!.milestone;
    const receipt = last.options.find((o) => o.type === MilestoneOptionType.Receipt)!;
    if (receipt.type !== MilestoneOptionType.Receipt) throw new Error('no receipt');
    const { get, stop } = await serve();
    expect((await get(`${V2}/treasury`)).body).toEqual({
      milestoneId: hex(milestoneId(last)),
      amount: receipt.transaction.output.amount.toString(),
    });
    await stop();
    await everyByteFlipped(keys.treasury, [() => ledger.treasury()], [`${V2}/treasury`]);
  });

  it('a milestone’s time: an output’s booking time as the file gives it; any byte flipped is 500', async () => {
    const created = diffs.at(-1)!.created[0]!;
    const route = `${V2}/outputs/${hex(created.outputId)}/metadata`;
    const { get, stop } = await serve();
    expect((await get(route)).body).toMatchObject({
      milestoneIndexBooked: created.milestoneIndexBooked,
      milestoneTimestampBooked: created.milestoneTimestampBooked,
    });
    await stop();
    const read = () => ledger.outputWithMetadata(created.outputId);
    await everyByteFlipped(keys.milestoneTime(created.milestoneIndexBooked), [read], [route]);
  });

  it('a spender a delta’s milestone kept: the spending transaction as the file gives it; any byte flipped is 500', async () => {
    // An output the last delta's milestone consumed: its blocks are not in the snapshot, its spender is kept.
    const consumed = diffs.at(-1)!.consumed[0]!;
    const id = consumed.outputId;
    const route = `${V2}/outputs/${hex(id)}/metadata`;
    const { get, stop } = await serve();
    expect((await get(route)).body).toMatchObject({
      isSpent: true,
      transactionIdSpent: hex(consumed.targetTransactionId),
    });
    await stop();
    await everyByteFlipped(keys.spentBy(id), [() => ledger.outputWithMetadata(id)], [route]);
  });

  it('the solid entry points: known blocks; any byte flipped fails the check of a block’s parents', async () => {
    const seps = (await records(delta)).flatMap((r) => (r.kind === 'solidEntryPoint' ? [r.blockId] : []));
    expect(seps.length).toBeGreaterThan(0);
    for (const id of seps) expect(ledger.knowsBlock(id)).toBe(true);
    const key = keys.solidEntryPoints(diffs.at(-1)!.milestone.index);
    await everyByteFlipped(key, [() => ledger.knowsBlock(seps[0]!)], []);
    // A block posted on an entry point: its parents are checked against them (500 while their record is damaged).
    const block = { protocolVersion: ledger.params.protocolVersion, parents: [hex(seps[0]!)], nonce: '0' };
    const original = store().get(key)!;
    const damaged = original.slice();
    damaged[0]! ^= 0x10;
    store().write(WriteBatch.of([{ key, value: damaged }]));
    ledger.setSynced(true); // a node takes blocks while it is synced (503 otherwise)
    const s = await serve();
    const refused = await s.post(`${V2}/blocks`, block);
    expect(refused.status, JSON.stringify(refused.body)).toBe(500);
    expect(s.logged).toEqual([expect.stringMatching(new RegExp(`^STORE_CORRUPT: the stored .*\\(key ${hex(key)}\\)`))]);
    store().write(WriteBatch.of([{ key, value: original }]));
    const sound = await s.post(`${V2}/blocks`, block);
    await s.stop();
    ledger.setSynced(undefined);
    expect(sound.status, JSON.stringify(sound.body)).toBe(201);
  });
});

it('export-snapshot refuses a damaged record it reads (a delta’s milestone, the solid entry points): no file', async () => {
  const target = header.targetMilestoneIndex;
  for (const key of [keys.importedMilestone(5), keys.solidEntryPoints(target)]) {
    const original = store().get(key)!;
    const damaged = original.slice();
    damaged[damaged.length >> 1]! ^= 0x10;
    store().write(WriteBatch.of([{ key, value: damaged }]));
    const [full, delta] = [join(dir, 'full.bin'), join(dir, 'delta.bin')];
    const refused = await exportSnapshot(ledger, full, delta, { target }).catch((e) => e);
    store().write(WriteBatch.of([{ key, value: original }]));
    expect(refused, hex(key)).toMatchObject({ code: 'STORE_CORRUPT' });
    expect(refused.message).toContain(hex(key));
    expect([existsSync(full), existsSync(delta)]).toEqual([false, false]);
  }
});

it('a store of layout 4: a reader is refused naming the upgrade; its writer’s opening seals each record once', () => {
  // The snapshot's own records, and the transaction index's (sealed a layout later, 6).
  const snapshotTables = [
    keys.tables.solidEntryPoints,
    keys.tables.importedMilestone,
    keys.tables.milestoneTime,
    keys.tables.recent,
    keys.tables.transaction,
  ];
  const before = { info: ledger.milestone(5), treasury: ledger.treasury(), target: inspectStore(join(dir, 'ledger')) };
  const layout4 = new WriteBatch();
  let count = 0;
  for (const table of snapshotTables)
    for (const [k, v] of store().entries(Uint8Array.of(table))) {
      layout4.put(k.slice(), v.slice(0, v.length - SEAL));
      count++;
    }
  for (const k of [keys.importedNetwork, keys.treasury]) layout4.put(k, store().get(k)!.slice(0, -SEAL));
  unsealLayout7(store(), layout4);
  layout4.put(keys.layout, encode(u32, 4));
  store().write(layout4);
  expect(count).toBeGreaterThan(diffs.length);
  // The older store's network is still read (a writer needs it to open the store), its records are not.
  expect(inspectStore(join(dir, 'ledger'))).toEqual(before.target);
  expect(ledgerFailure(() => ledger.treasury()).code).toBe('STORE_CORRUPT');
  expect(() => settleLayout(store(), true)).toThrow(/tangle-core upgrade --db DIR/);
  settleLayout(store(), false);
  expect(storeLayout(store())).toBe(7);
  expect({ info: ledger.milestone(5), treasury: ledger.treasury(), target: inspectStore(join(dir, 'ledger')) }).toEqual(
    before,
  );
  settleLayout(store(), false); // a store at the layout is left as it is: nothing sealed twice
  expect(ledger.treasury()).toEqual(before.treasury);
});
