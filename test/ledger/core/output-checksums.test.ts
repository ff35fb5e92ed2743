// Output records and their checksums (issue 43): a store written before there were checksums (the older layout:
// created slot, spent slot, output) is upgraded by its writer at opening, after which every output answers as before;
// a reader of it before then is refused with STORE_OUTDATED; a record too short to hold its header is damage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';
import { checkedOutputRecord } from '../../../src/ledger/common/integrity.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { errorCode } from '../../helpers/failure.js';
import { toLayout1 } from '../../helpers/older-layout.js';

const GENESIS = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const dir = mkdtempSync(join(tmpdir(), 'tangle-checksums-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every output's answer (spent or not), by ID. */
function answers(ledger: Ledger, ids: Uint8Array[]) {
  return ids.map((id) =>
    JSON.stringify(ledger.outputWithMetadata(id), (_, v) =>
      v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' ? String(v) : v,
    ),
  );
}

describe('a store written before output records had checksums', () => {
  it('its writer upgrades it at opening; a reader before then is told to; every output answers as before', () => {
    const path = join(dir, 'older');
    const sim = new Simulation({ params, seed: 21 });
    const writer = openLedger({ path, params, genesis: sim.genesis(), clock: () => GENESIS + 200 });
    for (let slot = 1; slot <= 10; slot++) for (const e of sim.slot(slot)) applyEvent(writer, e);
    const ids: Uint8Array[] = [];
    for (let slot = 1; slot <= 10; slot++) ids.push(...writer.utxoChanges(slot).createdOutputs.map((id) => id.slice()));
    for (const [id] of writer.unspentOutputs()) ids.push(id.slice());
    const before = answers(writer, ids);
    writer.close();
    // Back to the older layout, as tangle-core wrote it: layout 1 (a store that names its layout has its checksums),
    // the checksum field out, the marker gone.
    toLayout1(path);
    const store = new LmdbStore(path);
    const older = new WriteBatch();
    let records = 0;
    for (const [key, record] of store.entries(Uint8Array.of(keys.tables.output))) {
      older.put(key, Uint8Array.of(...record.subarray(0, 8), ...record.subarray(12)));
      records++;
    }
    older.delete(keys.outputChecksums);
    store.write(older);
    store.close();
    expect(records).toBeGreaterThan(20);
    expect(errorCode(() => openLedger({ path, params, readOnly: true }))).toBe('STORE_OUTDATED');
    const upgraded = openLedger({ path, params });
    try {
      expect(answers(upgraded, ids)).toEqual(before);
    } finally {
      upgraded.close();
    }
    const reader = openLedger({ path, params, readOnly: true });
    try {
      expect(answers(reader, ids)).toEqual(before);
    } finally {
      reader.close();
    }
  });

  it("an older store with no output yet is marked at its writer's opening, and read as it is", () => {
    const path = join(dir, 'empty');
    openLedger({ path, params }).close();
    const store = new LmdbStore(path);
    store.write(WriteBatch.of([{ key: keys.outputChecksums, value: undefined }]));
    store.close();
    openLedger({ path, params, readOnly: true }).close(); // nothing to tell apart
    openLedger({ path, params }).close();
    const again = new LmdbStore(path, { readOnly: true });
    try {
      expect(again.get(keys.outputChecksums)).toEqual(Uint8Array.of(1));
    } finally {
      again.close();
    }
  });

  it('a record shorter than its header is damage, whatever its bytes', () => {
    const key = keys.output(3, new Uint8Array(34).fill(7));
    for (let n = 0; n < 12; n++)
      expect(
        errorCode(() => checkedOutputRecord(key, new Uint8Array(n))),
        `${n} bytes`,
      ).toBe('STORE_CORRUPT');
  });
});
