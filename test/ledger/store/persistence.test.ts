import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LedgerError, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { basic, genesisOutputs, owner, transferBlock } from '../../helpers/wallet.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const genesis = genesisOutputs([1, 2]);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'tangle-persist-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as LedgerError).code;
  }
  return 'opened';
};

it('a reopened LMDB ledger answers as before; genesis is applied only once', () => {
  const dir = tempDir();
  const l = openLedger({ path: dir, params, genesis: { outputs: genesis } });
  const r = l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]), { slot: 1 });
  const c1 = l.commitSlot(1);
  l.close();
  const again = openLedger({ path: dir, params, genesis: { outputs: genesisOutputs([3]) } });
  expect(again.latestCommitment().commitmentId).toEqual(c1.commitmentId);
  expect(again.includedBlock(r.transactionId!).slot).toBe(1);
  expect([...again.unspentOutputs()]).toHaveLength(2); // output of key 2 from genesis + the new one; no key-3 output
  again.close();
});

it('another network or genesis is refused at open; damaged metadata is detected at open', () => {
  const dir = tempDir();
  openLedger({ path: dir, params }).close();
  expect(code(() => openLedger({ path: dir, params: PROTOCOL_PARAMETERS.shimmer }))).toBe('PARAMETERS_MISMATCH');
  expect(code(() => openLedger({ path: dir, params: { ...params, genesisUnixTime: 1 } }))).toBe('PARAMETERS_MISMATCH');
  const store = new LmdbStore(dir);
  store.write(WriteBatch.of([{ key: keys.meta, value: Uint8Array.of(1, 2, 3) }]));
  store.close();
  const e = (() => {
    try {
      openLedger({ path: dir, params });
    } catch (err) {
      return err as LedgerError;
    }
  })();
  expect(e).toBeInstanceOf(LedgerError);
  expect(e!.code).toBe('STORE_CORRUPT');
  expect(e!.message).toMatch(/metadata/);
});

it('LMDB store: an append that is not past the last key aborts the whole batch (nothing written)', () => {
  const store = new LmdbStore(tempDir());
  store.write(WriteBatch.of([{ key: Uint8Array.of(0x42, 5), value: Uint8Array.of(1), append: true }]));
  const e = (() => {
    try {
      store.write(
        WriteBatch.of([
          { key: Uint8Array.of(0x41, 1), value: Uint8Array.of(2) },
          { key: Uint8Array.of(0x42, 3), value: Uint8Array.of(3), append: true },
        ]),
      );
    } catch (err) {
      return err as LedgerError;
    }
  })();
  expect(e?.code).toBe('STORE_FAILURE');
  expect(store.get(Uint8Array.of(0x41, 1))).toBeUndefined();
  expect(store.get(Uint8Array.of(0x42, 3))).toBeUndefined();
  expect([...store.entries(new Uint8Array(0))].map(([k]) => [...k])).toEqual([[0x42, 5]]);
  store.close();
});
