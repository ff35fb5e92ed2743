import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { importedNetwork, meta as metaCodec } from '../model/ledger-records.js';
import { isEmpty } from './committed-state.js';
import { LedgerError } from './errors.js';
import { readRecord } from './integrity.js';
import { Ledger } from './ledger.js';
import { PostgresReader } from './postgres/postgres-reader.js';
import { PostgresPublisher } from './postgres/publisher.js';
import { LmdbStore } from './store/lmdb.js';
import { MemoryStore } from './store/memory.js';
import { keys } from './store-keys.js';
import type { OpenLedgerOptions, StoreInfo } from './types.js';

/**
 * Opens a ledger: an LMDB environment at `path` (created if new), or an in-memory store with the same behaviour.
 * @throws LedgerError STORE_CORRUPT, PARAMETERS_MISMATCH, STORE_LOCKED, INVALID_ARGUMENT
 */
export function openLedger(options: OpenLedgerOptions & { store: string; readOnly: true }): Promise<PostgresReader>;
export function openLedger(options: OpenLedgerOptions & { store: string }): Promise<Ledger>;
export function openLedger(options: OpenLedgerOptions): Ledger;
export function openLedger(options: OpenLedgerOptions): Ledger | Promise<Ledger | PostgresReader> {
  if (typeof options !== 'object' || options === null || typeof options.params?.networkId !== 'bigint') {
    throw new LedgerError('INVALID_ARGUMENT', 'openLedger needs { params } (e.g. PROTOCOL_PARAMETERS.testnet)');
  }
  if (options.store !== undefined) return withPostgres(options as OpenLedgerOptions & { store: string });
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
    );
  } catch (e) {
    store.close();
    if (store instanceof LmdbStore) store.discardIfNew();
    throw e;
  }
}

/** openLedger with a PostgreSQL store: a reader of it, or a ledger that publishes its committed slots to it. */
async function withPostgres(options: OpenLedgerOptions & { store: string }): Promise<Ledger | PostgresReader> {
  if (options.readOnly === true) {
    return PostgresReader.open(
      options.store,
      options.params,
      options.clock === undefined ? {} : { clock: options.clock },
    );
  }
  const { store, onStoreError, ...local } = options;
  const ledger = openLedger(local);
  try {
    const publisher = await PostgresPublisher.open(
      store,
      ledger,
      onStoreError === undefined ? {} : { onError: onStoreError },
    );
    ledger.listen(publisher);
    return ledger;
  } catch (e) {
    ledger.close();
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
    const m = readRecord(metaCodec, bytes, 'metadata');
    const imported = store.get(keys.importedNetwork);
    return {
      networkId: m.networkId,
      genesisSlot: m.genesisSlot,
      genesisUnixTime: m.genesisUnixTime,
      latestSlot: m.latestSlot,
      ...(imported === undefined ? {} : { imported: readRecord(importedNetwork, imported, 'imported network') }),
    };
  } finally {
    store.close();
  }
}
