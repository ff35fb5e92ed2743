// Block records (issue 57): a committed block is stored with a CRC-32 of its key and record, its transaction's place
// and ID, so that a read checks a checksum instead of hashing the block and re-encoding its transaction. A store of
// the layout before (blocks stored as their bytes, no layout number: how 071cacc wrote them, made here by rewriting a
// store's block records back to their bytes) is refused by a reader with the upgrade command, upgraded by its writer
// at opening or by `tangle-core upgrade` (a real process), resumes an interrupted upgrade, and then answers every
// block route exactly as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { u32 } from '../../../src/codec/index.js';
import {
  decodeBlock,
  type Ledger,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import { blockRecord, checkedBlockRecord } from '../../../src/ledger/common/block-record.js';
import { sealedValue, sealRecord } from '../../../src/ledger/common/record-checks.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { STORE_LAYOUT, storeLayout } from '../../../src/ledger/core/upgrade.js';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { transactionId } from '../../../src/stardust/ids.js';
import { PayloadType } from '../../../src/stardust/type-codes.js';
import { cli } from '../../helpers/cli.js';
import { errorCode, ledgerFailure } from '../../helpers/failure.js';
import { toLayout1, unsealLayout7 } from '../../helpers/older-layout.js';
import { spawnAsync } from '../../helpers/run.js';

const GENESIS = 1_700_000_000;
const SLOTS = 6;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const dir = mkdtempSync(join(tmpdir(), 'tangle-block-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = (v: unknown) =>
  JSON.stringify(v, (_, x) => (x instanceof Uint8Array ? toHex(x) : typeof x === 'bigint' ? String(x) : x));

/** A store of SLOTS simulated slots at `path`; the IDs its routes are asked for. */
function written(path: string, seed: number) {
  const sim = new Simulation({ params, seed });
  const writer = openLedger({ path, params, genesis: sim.genesis(), clock: () => GENESIS + 200 });
  for (let slot = 1; slot <= SLOTS; slot++) for (const e of sim.slot(slot)) applyEvent(writer, e);
  const blockIds: Uint8Array[] = [];
  const txIds: Uint8Array[] = [];
  const spent: Uint8Array[] = [];
  for (let slot = 1; slot <= SLOTS; slot++) {
    blockIds.push(...writer.blockIdsOfSlot(slot, 1000).map((id) => id.slice()));
    const changes = writer.utxoChanges(slot);
    for (const id of changes.createdOutputs) if (id[32] === 0 && id[33] === 0) txIds.push(id.slice(0, 32));
    spent.push(...changes.consumedOutputs.map((id) => id.slice()));
  }
  writer.close();
  return { blockIds, txIds, spent: spent.filter((id) => txIds.some((t) => toHex(t) === toHex(id.subarray(0, 32)))) };
}

/** Every block route's answer for these IDs: included blocks, blocks, their slots' lists, spent outputs' spenders. */
function answers(ledger: Ledger, ids: ReturnType<typeof written>) {
  return [
    ...ids.txIds.map((id) => json(ledger.includedBlock(id))),
    ...ids.blockIds.map((id) => json({ ...ledger.block(id), whiteFlag: undefined })),
    ...Array.from({ length: SLOTS }, (_, i) => json(ledger.blockIdsOfSlot(i + 1, 1000))),
    ...ids.spent.map((id) => json(ledger.outputWithMetadata(id).spent)),
    json(ledger.tips()),
  ];
}

describe('a block record', () => {
  const path = join(dir, 'records');
  const ids = written(path, 31);

  it('names the transaction the codec finds in its block (re-encoded and hashed), and its place in the bytes', () => {
    const store = new LmdbStore(path, { readOnly: true });
    let transactions = 0;
    try {
      for (const [key, record] of store.entries(Uint8Array.of(keys.tables.block))) {
        const stored = checkedBlockRecord(key, record);
        const payload = decodeBlock(stored.bytes).payload;
        if (payload?.type !== PayloadType.Transaction) {
          expect(stored.transactionId).toBeUndefined();
          continue;
        }
        transactions++;
        expect(toHex(stored.transactionId!)).toBe(toHex(transactionId(payload)));
        // The place: the payload's bytes, which hash to the ID too.
        const at = stored.bytes.subarray(stored.transactionAt, stored.transactionAt + stored.transactionLength);
        expect(toHex(transactionId(decodeBlock(stored.bytes).payload as never))).toBe(toHex(stored.transactionId!));
        expect(new DataView(at.buffer, at.byteOffset).getUint32(0, true)).toBe(PayloadType.Transaction);
        expect(stored.bytes.length - stored.transactionAt - stored.transactionLength).toBe(8); // the nonce follows
      }
    } finally {
      store.close();
    }
    expect(transactions).toBe(ids.txIds.length);
    expect(transactions).toBeGreaterThan(3);
  });

  it('a bit flipped anywhere in the record or its key, or a record cut short, is STORE_CORRUPT', () => {
    const store = new LmdbStore(path, { readOnly: true });
    // The smallest record of a block with a transaction: every byte of it is tried (CRC-32 over each try).
    const [key, record] = [...store.entries(Uint8Array.of(keys.tables.block))]
      .filter(([k, r]) => checkedBlockRecord(k, r).transactionId !== undefined)
      .sort((a, b) => a[1].length - b[1].length)[0]!;
    store.close();
    const txId = checkedBlockRecord(key, record).transactionId;
    for (let at = 0; at < record.length; at++) {
      const damaged = record.slice();
      damaged[at]! ^= 0x01;
      expect(
        errorCode(() => checkedBlockRecord(key, damaged, txId)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
    }
    for (let at = 0; at < key.length; at++) {
      const moved = key.slice();
      moved[at]! ^= 0x80;
      expect(
        errorCode(() => checkedBlockRecord(moved, record)),
        `key byte ${at}`,
      ).toBe('STORE_CORRUPT');
    }
    for (const n of [0, 4, 11, 12, record.length - 1])
      expect(
        errorCode(() => checkedBlockRecord(key, record.subarray(0, n))),
        `${n} bytes`,
      ).toBe('STORE_CORRUPT');
  });

  it('asked for another transaction than the one it names, or for one by a block without any: STORE_CORRUPT', () => {
    const store = new LmdbStore(path, { readOnly: true });
    try {
      const [key, record] = [...store.entries(Uint8Array.of(keys.tables.block))].find(
        ([k, r]) => checkedBlockRecord(k, r).transactionId !== undefined,
      )!;
      const other = new Uint8Array(32).fill(9);
      const failure = ledgerFailure(() => checkedBlockRecord(key, record, other));
      expect(failure.message).toContain(`does not carry transaction ${toHex(other)}`);
      const bytes = checkedBlockRecord(key, record).bytes;
      const bare = blockRecord(key, bytes, undefined); // sealed without its transaction
      expect(errorCode(() => checkedBlockRecord(key, bare, other))).toBe('STORE_CORRUPT');
    } finally {
      store.close();
    }
  });
});

describe('a store of the layout before (blocks stored as their bytes)', () => {
  it('a reader is refused with the upgrade command; its writer upgrades it; every block route answers as before', () => {
    const path = join(dir, 'older');
    const ids = written(path, 32);
    const reader = openLedger({ path, params, readOnly: true });
    const before = answers(reader, ids);
    reader.close();
    expect(before.length).toBeGreaterThan(30);
    expect(toLayout1(path)).toBe(ids.blockIds.length);
    const refused = ledgerFailure(() => openLedger({ path, params, readOnly: true }));
    expect(refused.code).toBe('STORE_OUTDATED');
    expect(refused.message).toContain('tangle-core upgrade --db DIR');
    openLedger({ path, params }).close();
    const upgraded = openLedger({ path, params, readOnly: true });
    try {
      expect(answers(upgraded, ids)).toEqual(before);
    } finally {
      upgraded.close();
    }
    const store = new LmdbStore(path, { readOnly: true });
    expect(storeLayout(store)).toBe(STORE_LAYOUT);
    store.close();
  });

  it('an upgrade that stopped part way goes on where it stopped; a block damaged before it stays damaged', () => {
    const path = join(dir, 'resumed');
    const ids = written(path, 33);
    const reader = openLedger({ path, params, readOnly: true });
    const before = answers(reader, ids);
    reader.close();
    toLayout1(path);
    // As a crash after the upgrade's first batch leaves it: the blocks up to one sealed, the place after it noted.
    const store = new LmdbStore(path);
    const entries = [...store.entries(Uint8Array.of(keys.tables.block))];
    const half = entries.slice(0, entries.length >> 1);
    const partial = new WriteBatch();
    for (const [key, bytes] of half) {
      const payload = decodeBlock(bytes).payload;
      partial.put(
        key,
        blockRecord(key, bytes, payload?.type === PayloadType.Transaction ? transactionId(payload) : undefined),
      );
    }
    partial.put(keys.upgradeAt, sealRecord(keys.upgradeAt, Uint8Array.of(2, 0, 0, 0, ...half.at(-1)![0])));
    // And a block of the other half damaged on disk: it is not sealed as sound.
    const [damagedKey, damagedBytes] = entries.at(-1)!;
    const damaged = damagedBytes.slice();
    damaged[damaged.length >> 1]! ^= 0x04;
    partial.put(damagedKey, damaged);
    store.write(partial);
    store.close();
    expect(errorCode(() => openLedger({ path, params, readOnly: true }))).toBe('STORE_OUTDATED');
    openLedger({ path, params }).close();
    const damagedId = damagedKey.subarray(5);
    const upgraded = openLedger({ path, params, readOnly: true });
    try {
      expect(errorCode(() => upgraded.block(damagedId))).toBe('STORE_CORRUPT');
    } finally {
      upgraded.close();
    }
    const restore = new LmdbStore(path);
    const payload = decodeBlock(damagedBytes).payload;
    const txId = payload?.type === PayloadType.Transaction ? transactionId(payload) : undefined;
    restore.write(WriteBatch.of([{ key: damagedKey, value: blockRecord(damagedKey, damagedBytes, txId) }]));
    expect(restore.get(keys.upgradeAt)).toBeUndefined();
    restore.close();
    const restored = openLedger({ path, params, readOnly: true });
    try {
      expect(answers(restored, ids)).toEqual(before);
    } finally {
      restored.close();
    }
  });

  it('`tangle-core upgrade --db DIR` (a real process) upgrades it, and says so; a store of a newer layout is refused', async () => {
    const path = join(dir, 'cli');
    const ids = written(path, 34);
    const reader = openLedger({ path, params, readOnly: true });
    const before = answers(reader, ids);
    reader.close();
    toLayout1(path);
    const run = () => spawnAsync(process.execPath, [cli, 'upgrade', '--db', path]);
    const first = await run();
    // Its one line on stderr is the writer's opening's (every writer that upgrades a store says so).
    expect([first.status, first.stderr]).toEqual([
      0,
      `tangle-core: upgrading the store from layout 1 to ${STORE_LAYOUT}\n`,
    ]);
    expect(first.stdout).toBe(`${path}: upgraded from layout 1 to ${STORE_LAYOUT}\n`);
    expect((await run()).stdout).toBe(`${path}: layout ${STORE_LAYOUT} already, nothing to do\n`);
    // It takes the writer lock first, nothing to do or not: a store a running writer holds is refused.
    const writer = openLedger({ path, params });
    try {
      const held = await run();
      expect(held.status, held.stderr).not.toBe(0);
      expect(held.stderr).toContain('STORE_LOCKED');
      expect(held.stdout).toBe('');
    } finally {
      writer.close();
    }
    const upgraded = openLedger({ path, params, readOnly: true });
    try {
      expect(answers(upgraded, ids)).toEqual(before);
    } finally {
      upgraded.close();
    }
    const store = new LmdbStore(path);
    store.write(WriteBatch.of([{ key: keys.layout, value: sealedValue(u32, keys.layout, STORE_LAYOUT + 1) }]));
    store.close();
    for (const readOnly of [true, false]) {
      const newer = ledgerFailure(() => openLedger({ path, params, readOnly }));
      expect(newer.code).toBe('STORE_CORRUPT');
      expect(newer.message).toContain(`layout ${STORE_LAYOUT + 1}, written by a newer tangle-core`);
    }
    // A flipped bit of the number is damage, not a newer layout (a new user's store said "layout 517"): sealed, it
    // fails its check; stored bare (as layouts 2 to 5 did), 517 is no layout that was stored bare.
    const flipped = sealedValue(u32, keys.layout, STORE_LAYOUT);
    flipped[1]! ^= 0x02;
    for (const value of [flipped, Uint8Array.of(5, 2, 0, 0)]) {
      const damaged = new LmdbStore(path);
      damaged.write(WriteBatch.of([{ key: keys.layout, value }]));
      damaged.close();
      for (const readOnly of [true, false]) {
        const refused = ledgerFailure(() => openLedger({ path, params, readOnly }));
        expect(refused.code).toBe('STORE_CORRUPT');
        expect(refused.message).toContain(`the stored store layout (key ${toHex(keys.layout)})`);
        expect(refused.message).not.toContain('newer');
      }
    }
  });
});

describe('a store of layout 6 (its indexes and metadata bare)', () => {
  it('a reader is refused; an upgrade whose progress record is damaged stops (STORE_CORRUPT); then it upgrades', async () => {
    const path = join(dir, 'layout6');
    const ids = written(path, 35);
    const indexed = async (l: Ledger) => json(await l.indexedOutputs({ route: 'basic', pageSize: 1000 }));
    const reader = openLedger({ path, params, readOnly: true });
    const before = [answers(reader, ids), await indexed(reader)];
    reader.close();
    expect(JSON.parse(before[1] as string).items.length).toBeGreaterThan(5);
    const store = new LmdbStore(path);
    const older = new WriteBatch();
    unsealLayout7(store, older);
    older.put(keys.layout, sealedValue(u32, keys.layout, 6));
    store.write(older);
    const blockIndex = [...store.entries(Uint8Array.of(keys.tables.blockIndex))];
    expect(blockIndex.every(([, v]) => v.length === 4)).toBe(true); // bare u32 slots
    store.close();
    const refused = ledgerFailure(() => openLedger({ path, params, readOnly: true }));
    expect([refused.code, refused.message]).toEqual(['STORE_OUTDATED', expect.stringContaining('upgrade --db DIR')]);
    // Where an upgrade to layout 7 stopped (past the first block index entry), each byte flipped: the writer's
    // opening refuses it (a flipped key would resume it past records it never sealed, or seal some twice).
    const progress = sealRecord(keys.upgradeAt, Uint8Array.of(7, 0, 0, 0, ...blockIndex[0]![0]));
    for (let at = 0; at < progress.length; at++) {
      const flipped = progress.slice();
      flipped[at]! ^= 0x04;
      const s = new LmdbStore(path);
      s.write(WriteBatch.of([{ key: keys.upgradeAt, value: flipped }]));
      s.close();
      const failure = ledgerFailure(() => openLedger({ path, params }));
      expect([failure.code, failure.message], `byte ${at}`).toEqual([
        'STORE_CORRUPT',
        expect.stringContaining(`(key ${toHex(keys.upgradeAt)})`),
      ]);
    }
    const s = new LmdbStore(path);
    s.write(WriteBatch.of([{ key: keys.upgradeAt, value: undefined }]));
    s.close();
    openLedger({ path, params }).close();
    const upgraded = openLedger({ path, params, readOnly: true });
    try {
      expect([answers(upgraded, ids), await indexed(upgraded)]).toEqual(before);
    } finally {
      upgraded.close();
    }
  });
});
