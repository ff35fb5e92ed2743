// The store's file (issue 56): LMDB's data.mdb is about as large as what it holds, not as its map. Under a write map
// (a snapshot import's bulk load) LMDB sets the file's length to the map's, and with the 64 GiB map of old every store
// the demo, `import-snapshot` or a follower made was a 64 GiB sparse file, which tar, scp and rsync without -S write
// out whole. Here: the demo's store, a snapshot import, a write-map store growing batch by batch, and a store of old
// (a 64 GiB file) that its next writer cuts back while a `serve --read-only --workers 2` opened before keeps reading
// as the writer grows the map past its first size.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, expect, it } from 'vitest';
import {
  blockId,
  buildBlock,
  closeSlot,
  ed25519AddressOf,
  ed25519PublicKey,
  encodeBlock,
  genesisSnapshot,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  TESTNET_COORDINATOR_SECRET,
  toHex,
} from '../../../src/index.js';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import { INITIAL_MAP, LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { demoGenesis, demoSlot, demoTips, openDemoLedger } from '../../../src/node/demo.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { startCli, stopCli } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'tangle-store-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `db-${++n}`);
const MiB = 1024 ** 2;
const testnet = PROTOCOL_PARAMETERS.testnet;

/** data.mdb's apparent size (what a copy writes) and the bytes its blocks take on disk (what `du` counts). */
function sizes(path: string): { apparent: number; held: number } {
  const s = statSync(join(path, 'data.mdb'));
  return { apparent: s.size, held: s.blocks * 512 };
}

/** The bound: a file within twice what it holds, plus 64 MiB. */
function expectCompact(path: string): void {
  const { apparent, held } = sizes(path);
  expect(apparent, `${apparent} bytes apparent, ${held} held`).toBeLessThanOrEqual(2 * held + 64 * MiB);
}

/** The bytes up to the last page LMDB's own environment info names (lmdb-js, opened on the closed store). */
function pagesInUse(path: string): number {
  const env = open({ path, readOnly: true, noSubdir: false });
  try {
    const stats = env.getStats() as { lastPageNumber: number; pageSize: number };
    return (stats.lastPageNumber + 1) * stats.pageSize;
  } finally {
    env.close();
  }
}

it('the demo’s store (its genesis snapshot imported, then slots committed) is a file the size it holds', async () => {
  const path = fresh();
  const params = protocolParameters(testnet, { genesisUnixTime: 1_700_000_000 });
  let ledger: Ledger | undefined;
  const simulation = new Simulation({ params, seed: 1, parents: () => demoTips(ledger!) });
  ledger = await openDemoLedger(path, params, demoGenesis(simulation), (at) => openLedger(at));
  try {
    expectCompact(path); // the import's file, cut back
    for (let i = 0; i < 20; i++) demoSlot(ledger, simulation);
    expect(ledger.latestCommitment().slot).toBe(20);
    expectCompact(path); // while the demo writes
  } finally {
    ledger.close();
  }
  expectCompact(path);
  expect(sizes(path).apparent).toBe(pagesInUse(path));
});

it('a snapshot import (the bulk load, a write map) grows its map with the data and leaves a file of its pages', async () => {
  const path = fresh();
  const address = ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(1)));
  // Enough outputs that the store outgrows its first map: the write map (and with it the file) grew during the load.
  // (100,000: since the indexer's entries are built after the import, issue 58, 60,000 made an 11.6 MB store.)
  const count = 100_000;
  const outputs = Array.from({ length: count }, (_, i) => {
    const id = new Uint8Array(32);
    new DataView(id.buffer).setUint32(0, i);
    return {
      outputId: outputId(id, i % 4),
      output: {
        type: 3 as const,
        amount: 1_000_000n,
        nativeTokens: [],
        unlockConditions: [{ type: 0 as const, address }],
        features: [],
      },
    };
  });
  const full = await genesisSnapshot(testnet, {
    outputs,
    timestamp: 1_700_000_000,
    solidEntryPoints: [new Uint8Array(32)],
  });
  // While the load runs (the outputs are read and sorted with the bulk store open), the file is within the bound too;
  // the import builds the store beside its path, in PATH.partial-PID, and renames it when done.
  const partial = `${path}.partial-${process.pid}`;
  let seen = 0;
  const result = await importSnapshot({
    path,
    full,
    onProgress: () => {
      expectCompact(partial);
      seen++;
    },
  });
  expect(seen).toBeGreaterThan(0);
  expect(result.unspentOutputs).toBe(count);
  const { apparent } = sizes(path);
  expect(apparent).toBeGreaterThan(INITIAL_MAP);
  expectCompact(path);
  expect(apparent).toBe(pagesInUse(path));
  // And the store is whole: a writer opens it (its file stays as it is), the outputs are there.
  const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
  try {
    expect(ledger.output(outputs[count - 1]!.outputId)?.output.amount).toBe(1_000_000n);
  } finally {
    ledger.close();
  }
  expect(sizes(path).apparent).toBe(apparent);
});

it('a write-map store grows its map in steps from a small first map, the file with it, within twice what it holds', () => {
  const path = fresh();
  const first = 1 * MiB;
  const store = new LmdbStore(path, { bulk: true, mapSize: first });
  const written = new Map<string, Uint8Array>();
  const env = (store as unknown as { root: { getStats(): { mapSize: number } } }).root;
  try {
    // 40 batches of 100 random keys with 5,000-byte values (20 MB; random keys: pages split and fill as a ledger's do).
    for (let b = 0; b < 40; b++) {
      const batch = new WriteBatch();
      for (let i = 0; i < 100; i++) {
        const key = Uint8Array.of(7, ...randomBytes(16));
        const value = new Uint8Array(randomBytes(5_000));
        batch.put(key, value);
        written.set(toHex(key), value);
      }
      store.write(batch);
      const { apparent, held } = sizes(path);
      // Tighter than the bound: the map doubles what is in use, starting from `first`.
      expect(apparent, `batch ${b}: ${apparent} bytes apparent, ${held} held`).toBeLessThanOrEqual(2 * held + first);
    }
    expect(env.getStats().mapSize).toBeGreaterThanOrEqual(16 * first);
  } finally {
    store.close();
  }
  expectCompact(path);
  expect(sizes(path).apparent).toBe(pagesInUse(path));
  const again = new LmdbStore(path, { readOnly: true });
  try {
    for (const [key, value] of written)
      expect(again.get(Uint8Array.from(Buffer.from(key.slice(2), 'hex')))).toEqual(value);
  } finally {
    again.close();
  }
});

/** GET over a connection of its own (so `--workers` spreads the requests), the body's bytes. */
function fetchRaw(url: string, accept: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((done, fail) => {
    get(url, { agent: false, headers: { accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode!, body: Buffer.concat(chunks) }));
    }).on('error', fail);
  });
}
const BYTES = 'application/vnd.iota.serializer-v1';

it('a store of old (a 64 GiB file) is cut back by its next writer; readers opened before read on as the map grows past its first size', async () => {
  const path = fresh();
  const coin = {
    outputId: outputId(new Uint8Array(32).fill(0xa1), 0),
    output: {
      type: 3 as const,
      amount: 1_000_000n,
      nativeTokens: [],
      unlockConditions: [{ type: 0 as const, address: ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(1))) }],
      features: [],
    },
  };
  await importSnapshot({
    path,
    full: await genesisSnapshot(testnet, {
      outputs: [coin],
      timestamp: 1_700_000_000,
      solidEntryPoints: [new Uint8Array(32)],
    }),
  });
  // What a store imported before issue 56 looks like: LMDB had set its file's length to the 64 GiB map.
  truncateSync(join(path, 'data.mdb'), 64 * 1024 ** 3);
  const readers = await startCli(
    ['serve', '--db', path, '--read-only', '--workers', '2', '--port', '0', '--no-mqtt', '--synced'],
    /listening on (http:\S+)/,
  );
  try {
    const origin = /listening on (http:\S+)/.exec(readers.out())![1]!;
    for (let i = 0; i < 2; i++)
      expect((await fetchRaw(`${origin}/api/core/v2/milestones/by-index/0`, 'application/json')).status).toBe(200);

    const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    const blocks: Uint8Array[] = [];
    try {
      expect(sizes(path).apparent).toBeLessThan(MiB); // cut back to its pages at open
      // Slots of large tagged-data blocks, until the store holds more than the readers' first map (what a store of
      // this size opens with): each reader's map must grow to read the last ones.
      let parents: Uint8Array[] = [new Uint8Array(32)];
      for (let slot = 0; sizes(path).apparent <= 1.5 * INITIAL_MAP; slot++) {
        for (let i = 0; i < 100; i++) {
          const bytes = encodeBlock(
            buildBlock({
              parents,
              payload: { type: 5, tag: Uint8Array.of(slot, i), data: randomBytes(30_000) },
              params: testnet,
            }),
          );
          ledger.acceptBlock(bytes, { slot: slot + 1 });
          blocks.push(bytes);
        }
        closeSlot(ledger, { secretKeys: [TESTNET_COORDINATOR_SECRET] });
        parents = ledger.tips();
      }
    } finally {
      ledger.close();
    }
    expectCompact(path);
    expect(sizes(path).apparent).toBe(pagesInUse(path));
    // The last slot's blocks (written past the readers' first map), and the first, each asked of both workers
    // (connections are dealt in turn).
    for (const bytes of [...blocks.slice(-100), blocks[0]!]) {
      for (let i = 0; i < 2; i++) {
        const got = await fetchRaw(`${origin}/api/core/v2/blocks/${toHex(blockId(bytes))}`, BYTES);
        expect(got.status).toBe(200);
        expect(new Uint8Array(got.body)).toEqual(bytes);
      }
    }
  } finally {
    await stopCli(readers.child);
  }
});
