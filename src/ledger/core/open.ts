import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { meta as metaCodec } from '../../stardust/ledger-records.js';
import {
  checkedValue,
  keys,
  LedgerError,
  type OpenLedgerOptions,
  readRecord,
  type StoreInfo,
} from '../common/index.js';
import { LmdbStore, MemoryStore } from '../store/index.js';
import { isEmpty } from './committed-state.js';
import { importedNetworkOf } from './imported.js';
import { Ledger } from './ledger.js';
import { INDEXES_SEALED, SNAPSHOT_RECORDS_SEALED, storeLayout } from './upgrade.js';

/**
 * Opens a ledger on an embedded store: an LMDB environment at `path` (created if new), or an in-memory store with the
 * same behaviour. (`openLedger`, in ledger/open.ts, adds the PostgreSQL store.)
 * @throws LedgerError STORE_CORRUPT, PARAMETERS_MISMATCH, STORE_LOCKED, INVALID_ARGUMENT
 */
export function openEmbedded(options: OpenLedgerOptions): Ledger {
  const lmdbOptions = {
    ...(options.mapSize !== undefined ? { mapSize: options.mapSize } : {}),
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
  };
  const store = options.path === undefined ? new MemoryStore() : new LmdbStore(options.path, lmdbOptions);
  try {
    return new Ledger(
      store,
      options.params,
      options.genesis ?? {},
      options.clock ?? (() => Math.floor(Date.now() / 1000)),
      options.indexer ?? true,
      options.indexBuild,
    );
  } catch (e) {
    store.close();
    if (store instanceof LmdbStore) store.discardIfNew();
    throw e;
  }
}

/**
 * What an existing LMDB store at `path` belongs to (to reopen it with the right parameters), or undefined for a path
 * with no ledger yet. @throws LedgerError STORE_CORRUPT, INVALID_ARGUMENT
 */
export function inspectStore(path: string): StoreInfo | undefined {
  // Read-only: it creates nothing, takes no writer lock and works beside a running writer.
  if (!existsSync(join(path, 'data.mdb'))) {
    if (existsSync(path) && !statSync(path).isDirectory())
      throw new LedgerError('INVALID_ARGUMENT', `${path} is a file: a store is a directory`);
    return undefined;
  }
  const store = new LmdbStore(path, { readOnly: true });
  try {
    const bytes = store.get(keys.meta);
    if (bytes === undefined) {
      if (!isEmpty(store)) throw new LedgerError('STORE_CORRUPT', 'the store has data but no ledger metadata');
      return undefined;
    }
    // An older store's records are read as they were written: its writer's opening seals them (upgrade.ts).
    const layout = storeLayout(store);
    const m =
      layout < INDEXES_SEALED
        ? readRecord(metaCodec, bytes, 'metadata')
        : checkedValue(metaCodec, keys.meta, bytes, 'metadata');
    const imported = importedNetworkOf(store, layout < SNAPSHOT_RECORDS_SEALED);
    return {
      networkId: m.networkId,
      genesisSlot: m.genesisSlot,
      genesisUnixTime: m.genesisUnixTime,
      latestSlot: m.latestSlot,
      ...(imported === undefined ? {} : { imported }),
    };
  } finally {
    store.close();
  }
}

/**
 * The layout of the LMDB store at `path` (core/upgrade.ts), read-only beside a running writer; undefined for a path
 * with no store. @throws LedgerError STORE_CORRUPT
 */
export function storeLayoutAt(path: string): number | undefined {
  if (!existsSync(join(path, 'data.mdb'))) return undefined;
  const store = new LmdbStore(path, { readOnly: true });
  try {
    return storeLayout(store);
  } finally {
    store.close();
  }
}
