// The upgrade of a store written before milestones, analytics and the archive's records were sealed (issue 57):
// resealRecords (ledger/archive/reseal.ts) gives every record of those tables its seal, and the store answers as it
// did before. The older layout is each record without its seal (the seal is all the newer layout adds: four bytes at
// the end), so the older store here is the newer one with every seal cut off: refused (500) until it is upgraded.
// The white-flag records were sealed a layout later (4): a store of layout 3 is upgraded by that step alone.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decode, encode, u32 } from '../../../src/codec/index.js';
import { addressToBech32, applyMilestone, blockId, type Ledger } from '../../../src/index.js';
import { resealRecords, SEALED_TABLES } from '../../../src/ledger/archive/index.js';
import { keys, SEAL } from '../../../src/ledger/common/index.js';
import { STORE_LAYOUT, settleLayout, storeLayout } from '../../../src/ledger/core/upgrade.js';
import { type KeyValueStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { address as addressCodec } from '../../../src/stardust/address.js';
import {
  bin,
  chronicleHistory,
  chronicleMilestone,
  chronicleSnapshot,
  coneOf,
  milestonePayloadOf,
} from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { LAYOUT_7_RECORDS, LAYOUT_7_TABLES } from '../../helpers/older-layout.js';
import { updatesOf } from '../../helpers/plain-archive.js';
import { routeAnswers } from '../../helpers/route-answers.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-reseal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const E = '/api/explorer/v2';

let ledger: Ledger;
const store = () => (ledger as unknown as { committed: { store: KeyValueStore } }).committed.store;
beforeAll(async () => {
  ledger = await importedLedger(join(dir, 'ledger'), await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => ledger?.close());

/** Each route's status and body, from a fresh server (no answer kept from an earlier one). */
const answers = async (routes: string[]) => (await routeAnswers(ledger, routes)).found;

it('an older store’s records, sealed by resealRecords, answer as before and pass the checks', async () => {
  const bech32 = (a: string) =>
    addressToBech32(decode(addressCodec, Uint8Array.from(Buffer.from(a.slice(2), 'hex'))), 'smr');
  const addresses = [...new Set(updatesOf(chronicleHistory()).map((u) => u.address))];
  const id = hex(bin(chronicleMilestone(17340).milestone_data.milestone_id));
  const routes = [
    '/api/core/v2/milestones/by-index/17339',
    `/api/core/v2/milestones/${id}`,
    '/api/analytics/v1/milestones/17340',
    '/api/analytics/v1/milestones?from=17339&to=17340',
    `${E}/ledger/updates/by-milestone/${id}`,
    `${E}/ledger/richest-addresses?top=20&ledgerIndex=17339`,
    `${E}/ledger/richest-addresses?top=20`,
    `${E}/milestones/${id}/blocks`,
    `/api/core/v2/blocks/${hex(blockId(bin(coneOf(17340)[0]!.raw)))}/metadata`,
    ...addresses
      .slice(0, 12)
      .flatMap((a) => [`${E}/balance/${bech32(a)}`, `${E}/ledger/updates/by-address/${bech32(a)}`]),
  ];
  ledger.setSynced(true); // block metadata is answered by a synced node only
  const before = await answers(routes);
  expect(before.every(([status]) => status === 200 || status === 404)).toBe(true);
  expect(before.filter(([status]) => status === 200).length).toBeGreaterThan(15);

  // The older layout: every record of the sealed tables without its seal.
  const older = new WriteBatch();
  let count = 0;
  for (const table of SEALED_TABLES)
    for (const [k, v] of store().entries(Uint8Array.of(table))) {
      older.put(k, v.slice(0, v.length - SEAL));
      count++;
    }
  store().write(older);
  expect(count).toBeGreaterThan(100);
  const unsealed = await answers(routes);
  expect(unsealed.filter(([status], i) => before[i]![0] === 200 && status === 500).length).toBeGreaterThan(15);

  // Upgraded in writes of 7 records (many writes, each range read resumed where the last stopped).
  expect(resealRecords(store(), 7)).toBe(count);
  expect(await answers(routes)).toEqual(before);

  // The same older store as the layout's upgrade meets it (layout 2: sealed blocks, unsealed records, white-flag
  // records among them): a reader is refused naming the command, its writer's opening seals every record once and
  // moves the store to layout 7 (3: the records above; 4: the white-flag records; 5: the snapshot's own; 6: the
  // transaction index's; 7: the other indexes and the metadata).
  const unseal = (batch: WriteBatch, tables: readonly number[]) => {
    for (const table of tables)
      for (const [k, v] of store().entries(Uint8Array.of(table))) batch.put(k, v.slice(0, v.length - SEAL));
  };
  // The snapshot's own records (sealed at layout 5): its tables, and its network and treasury among the metadata.
  // The transaction index's records (sealed at layout 6).
  // The other indexes, and the metadata records (sealed at layout 7).
  const INDEX_TABLES = [keys.tables.recent, keys.tables.transaction, ...LAYOUT_7_TABLES];
  const SNAPSHOT_TABLES = [keys.tables.solidEntryPoints, keys.tables.importedMilestone, keys.tables.milestoneTime];
  const unsealSnapshot = (batch: WriteBatch) => {
    unseal(batch, SNAPSHOT_TABLES);
    for (const k of [keys.importedNetwork, keys.treasury]) batch.put(k, store().get(k)!.slice(0, -SEAL));
    for (const k of [...LAYOUT_7_RECORDS, keys.outputIndexBuilding]) {
      const record = store().get(k);
      if (record !== undefined) batch.put(k, record.slice(0, -SEAL));
    }
  };
  const layout2 = new WriteBatch();
  unseal(layout2, [...SEALED_TABLES, keys.tables.whiteFlag, ...INDEX_TABLES]);
  unsealSnapshot(layout2);
  layout2.put(keys.layout, encode(u32, 2));
  store().write(layout2);
  expect(() => settleLayout(store(), true)).toThrow(/STORE_OUTDATED|tangle-core upgrade --db DIR/);
  settleLayout(store(), false);
  expect(storeLayout(store())).toBe(7);
  expect(STORE_LAYOUT).toBe(7);
  expect(await answers(routes)).toEqual(before);

  // Layout 3 (white-flag records unsealed): block metadata is 500 until the writer's opening seals them.
  const layout3 = new WriteBatch();
  unseal(layout3, [keys.tables.whiteFlag, ...INDEX_TABLES]);
  unsealSnapshot(layout3);
  layout3.put(keys.layout, encode(u32, 3));
  store().write(layout3);
  const whiteFlagRoutes = routes.filter((r) => r.endsWith('/blocks') || r.endsWith('/metadata'));
  expect((await answers(whiteFlagRoutes)).map(([status]) => status)).toEqual([500, 500]);
  expect(() => settleLayout(store(), true)).toThrow(/STORE_OUTDATED|tangle-core upgrade --db DIR/);
  settleLayout(store(), false);
  expect(storeLayout(store())).toBe(7);
  expect(await answers(routes)).toEqual(before);
  settleLayout(store(), false); // a store at the layout is left as it is: nothing sealed twice
  expect(await answers(routes)).toEqual(before);
});
