// The last records a route serves that were stored bare (issue 57, store layout 7) are sealed and checked as they are
// read: a flip of any byte of a block index entry, an output index entry (its value, or its key from the slot on: a
// wrong output ID listed with 200 before), a chain entry, the store's metadata, where its recent transactions start,
// when it was last current, or the first slot without a milestone makes the read throw STORE_CORRUPT and the routes
// that serve it answer 500, logged with the key. Undamaged, each route answers what inx-chronicle recorded (real
// Shimmer milestones 17339 and 17340 on the ledger of what they consume), as before the damage.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { u32 } from '../../../src/codec/index.js';
import {
  addressToBech32,
  applyMilestone,
  blockId,
  decodeBlock,
  type Ledger,
  LedgerError,
  openLedger,
} from '../../../src/index.js';
import { keys, sealedValue } from '../../../src/ledger/common/index.js';
import { type KeyValueStore, WriteBatch } from '../../../src/ledger/store/index.js';
import { PayloadType } from '../../../src/stardust/type-codes.js';
import { bin, chronicleSnapshot, coneOf, milestonePayloadOf } from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import { expectStoreCorrupt, serve as routeServer } from '../../helpers/route-server.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-index-damage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const V2 = '/api/core/v2';
const LATEST = 17340;

let ledger: Ledger;
const path = join(dir, 'ledger');
const store = () => (ledger as unknown as { committed: { store: KeyValueStore } }).committed.store;
const put = (key: Uint8Array, value: Uint8Array | undefined) => store().write(WriteBatch.of([{ key, value }]));
const reader = () => openLedger({ path, params: ledger.params, readOnly: true });

beforeAll(async () => {
  ledger = await importedLedger(path, await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  ledger.setSynced(true); // block metadata is answered by a synced node only
}, 60_000);
afterAll(() => ledger?.close());

/** A server of `served` (the writer by default): its get, what it logged, its stop. */
const serve = (served: Ledger = ledger) => routeServer(served);

/** What each route answers now (status and body). */
async function answers(routes: string[], served?: Ledger) {
  const { get, stop } = await serve(served);
  const found = [];
  for (const route of routes) found.push(await get(route));
  await stop();
  return found;
}

/** Each route answers 500 and the server logs STORE_CORRUPT naming `key`. */
const damaged = (routes: string[], key: Uint8Array, served: Ledger = ledger) =>
  expectStoreCorrupt(served, routes, `.*\\(key ${hex(key)}\\)`);

/**
 * Every byte of the record under `key` flipped in turn: `check` (of the byte) sees it damaged; the routes answer 500
 * naming the key at the first and last byte (a server per byte would cost seconds); restored, they answer as before.
 */
async function everyByte(key: Uint8Array, routes: string[], check: (at: number) => unknown, served?: () => Ledger) {
  const original = store().get(key)!.slice();
  const before = await answers(routes, served?.());
  try {
    for (let at = 0; at < original.length; at++) {
      const flipped = original.slice();
      flipped[at]! ^= 0x10;
      put(key, flipped);
      await check(at);
      if (routes.length > 0 && (at === 0 || at === original.length - 1)) {
        const r = served?.();
        try {
          await damaged(routes, key, r);
        } finally {
          r?.close();
        }
      }
    }
  } finally {
    put(key, original);
  }
  const r = served?.();
  try {
    expect(await answers(routes, r)).toEqual(before);
  } finally {
    r?.close();
  }
  return before;
}

/** `f` throws (or rejects with) STORE_CORRUPT naming `key`. */
async function storeCorrupt(f: () => unknown, at: number, key: Uint8Array) {
  let failure: LedgerError | undefined;
  try {
    await f();
  } catch (e) {
    failure = e as LedgerError;
  }
  expect(failure, `byte ${at}`).toBeInstanceOf(LedgerError);
  expect(failure!.code, `byte ${at}`).toBe('STORE_CORRUPT');
  expect(failure!.message, `byte ${at}`).toContain(`(key ${hex(key)})`);
}

describe('the indexes', () => {
  it('a block index entry (a block without a transaction → its slot): the block and its metadata', async () => {
    const block = coneOf(LATEST).find((b) => decodeBlock(bin(b.raw)).payload?.type !== PayloadType.Transaction)!;
    const id = blockId(bin(block.raw));
    const routes = [`${V2}/blocks/${hex(id)}`, `${V2}/blocks/${hex(id)}/metadata`];
    const key = keys.blockIndex(id);
    const before = await everyByte(key, routes, (at) => storeCorrupt(() => ledger.block(id), at, key));
    expect(before.map((a) => a.status)).toEqual([200, 200]);
    expect(before[1]!.body.referencedByMilestoneIndex).toBe(block.metadata.referenced_by_milestone_index);
  });

  it('an output index entry: its value, and its key from the creating slot on (a wrong output ID listed)', async () => {
    // An address's basic outputs (kind 3, field 1, the 33-byte address): the first such entry of the table.
    const [key] = [...store().entries(Uint8Array.of(keys.tables.outputIndex, 3, 1))][0]!.map((b) => b.slice());
    expect(key![3]).toBe(0); // an Ed25519 address
    const address = { type: 0, pubKeyHash: key!.slice(4, 36) } as const;
    const route = `/api/indexer/v1/outputs/basic?address=${addressToBech32(address as never, 'smr')}`;
    const outputIdOf = (k: Uint8Array) => hex(k.subarray(k.length - 34));
    const query = () => ledger.indexedOutputs({ route: 'basic', address: address as never, pageSize: 100 });
    const before = await everyByte(key!, [route], (at) => storeCorrupt(query, at, key!));
    expect(before[0]!.status).toBe(200);
    expect(before[0]!.body.items).toContain(outputIdOf(key!));
    // A flipped bit of the key from the slot on moves the entry within the address's range: it would be listed as
    // another output; its value (the seal of the key it was written under) tells it apart.
    const value = store().get(key!)!.slice();
    for (let at = 36; at < key!.length; at++) {
      const moved = key!.slice();
      moved[at]! ^= 0x01;
      store().write(
        WriteBatch.of([
          { key: key!, value: undefined },
          { key: moved, value },
        ]),
      );
      try {
        if (at === 36 || at === key!.length - 1) await damaged([route], moved);
        else expect((await answers([route]))[0]!.status, `byte ${at}`).toBe(500);
      } finally {
        store().write(
          WriteBatch.of([
            { key: moved, value: undefined },
            { key: key!, value },
          ]),
        );
      }
    }
    expect(await answers([route])).toEqual(before);
  });
});

it('a chain entry (an alias’s, NFT’s or foundry’s current output): the ledger’s chainOutput', async () => {
  const [key, value] = [...store().entries(Uint8Array.of(keys.tables.chain))][0]!.map((b) => b.slice());
  const chainId = key!.subarray(1);
  // Its output, unspent, whose chain (the alias's or NFT's ID, or the foundry's) is this one.
  const { outputId } = ledger.chainOutput(chainId)!;
  expect(hex(outputId)).toBe(hex(value!.subarray(0, 34)));
  expect(ledger.outputWithMetadata(outputId)!.spent).toBeUndefined();
  await everyByte(key!, [], (at) => storeCorrupt(() => ledger.chainOutput(chainId), at, key!));
  expect(hex(ledger.chainOutput(chainId)!.outputId)).toBe(hex(outputId));
});

describe('the store’s metadata', () => {
  it('its ledger record (latest slot and commitment): every query of a reader, and a reader’s opening', async () => {
    const key = keys.meta;
    const block = coneOf(LATEST)[0]!;
    const id = blockId(bin(block.raw));
    const routes = [`${V2}/milestones/by-index/${LATEST}`, `${V2}/blocks/${hex(id)}`];
    const r = reader();
    try {
      const before = await answers(routes, r);
      expect(before.map((a) => a.status)).toEqual([200, 200]);
      const original = store().get(key)!.slice();
      try {
        for (let at = 0; at < original.length; at++) {
          const flipped = original.slice();
          flipped[at]! ^= 0x10;
          put(key, flipped);
          await storeCorrupt(() => r.block(id), at, key);
          await storeCorrupt(reader, at, key);
          if (at === 0 || at === original.length - 1) await damaged(routes, key, r);
        }
      } finally {
        put(key, original);
      }
      expect(await answers(routes, r)).toEqual(before);
    } finally {
      r.close();
    }
  });

  it('where its recent transactions start: a reader’s opening', async () => {
    const key = keys.recentFrom;
    await everyByte(key, [], (at) => storeCorrupt(reader, at, key));
    reader().close();
  });

  it('when its writer last knew it current: the writer’s silence, and /health says unhealthy', async () => {
    ledger.markCurrent();
    const key = keys.currentAt;
    const { get, stop } = await serve();
    try {
      expect((await get('/health')).body.isHealthy).toBe(true);
      const original = store().get(key)!.slice();
      try {
        for (let at = 0; at < original.length; at++) {
          const flipped = original.slice();
          flipped[at]! ^= 0x10;
          put(key, flipped);
          await storeCorrupt(() => ledger.writerSilence(), at, key);
          expect((await get('/health')).body.isHealthy, `byte ${at}`).toBe(false);
        }
      } finally {
        put(key, original);
      }
      expect((await get('/health')).body.isHealthy).toBe(true);
    } finally {
      await stop();
    }
  });

  it('the first slot without a milestone (a slot past it is not presumed applied): the milestone by index', async () => {
    // Slot 17340 recorded as the first without a milestone, its payload gone: not damage, and its route answers so.
    const key = keys.plainSlotsFrom;
    const payload = keys.milestone(LATEST);
    const kept = store().get(payload)!.slice();
    put(key, sealedValue(u32, key, LATEST));
    put(payload, undefined);
    try {
      const before = await everyByte(key, [`${V2}/milestones/by-index/${LATEST}`], (at) =>
        storeCorrupt(() => ledger.milestone(LATEST), at, key),
      );
      expect(before[0]!.status).not.toBe(500);
      expect(ledger.milestone(LATEST)).toBeUndefined();
    } finally {
      put(payload, kept);
      put(key, undefined);
    }
    expect(ledger.milestone(LATEST)?.index ?? ledger.milestone(LATEST)).toBeDefined();
  });
});
