import { LedgerError, type OpenLedgerOptions } from './common/index.js';
import { type Ledger, openEmbedded } from './core/index.js';
import { PostgresPublisher, PostgresReader } from './postgres/index.js';

// Opening a ledger, on whichever store its options name: above the rooms, since it chooses between the embedded
// stores (core/open.ts) and PostgreSQL (postgres/), which itself stands on the core.

/**
 * Opens a ledger: an LMDB environment at `path` (created if new), an in-memory store with the same behaviour, or,
 * given `store` (a PostgreSQL URL), a ledger that publishes its committed slots there, or a reader of it.
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
  return openEmbedded(options);
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
  const ledger = openEmbedded(local);
  try {
    const publisher = await PostgresPublisher.open(store, ledger, {
      ...(onStoreError === undefined ? {} : { onError: onStoreError }),
      ...(options.indexBuild === undefined ? {} : { indexBuild: options.indexBuild }),
    });
    ledger.listen(publisher);
    return ledger;
  } catch (e) {
    ledger.close();
    throw e;
  }
}
