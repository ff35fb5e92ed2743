import { parseArgs } from 'node:util';
import { openLedger, PostgresMirror, STORE_LAYOUT, storeLayoutAt } from '../ledger/index.js';
import { existingStore, existingStoreParams, UsageError } from './io.js';

export const UPGRADE_USAGE = `tangle-core upgrade --db DIR [--store URL]
  Upgrades the store at DIR to the layout this tangle-core writes (as its writer's opening would: serve --db and import
  do it too), so that readers (serve --read-only, export-snapshot) can read it. Needs the store's writer lock: stop
  its writer first. An interrupted upgrade goes on where it stopped when run again.
  --network NAME    for a store tangle-core built: testnet, shimmer or iota (default testnet; an imported store
                    knows its network)
  --slot-seconds N  for a store tangle-core built: the slot length it was written with (default 10)
  --store URL       the PostgreSQL database DIR's writer mirrors into (postgresql://…): upgraded as its writer's
                    opening does (serve --db DIR --store URL), its account history filled where it was kept before
                    one (docs/accounts.md); likewise resumable
`;

/** Upgrades the store in place (and its PostgreSQL database: `--store`); the lines that say what it did. */
export async function upgradeCommand(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      store: { type: 'string' },
      network: { type: 'string' },
      'slot-seconds': { type: 'string' },
    },
  });
  if (values.db === undefined || positionals.length > 0) throw new UsageError('upgrade needs --db DIR');
  const existing = existingStore(values.db);
  const before = storeLayoutAt(values.db)!;
  const said =
    before === STORE_LAYOUT
      ? `${values.db}: layout ${before} already, nothing to do`
      : `${values.db}: upgraded from layout ${before} to ${STORE_LAYOUT}`;
  const params = existingStoreParams(existing, values);
  // The writer's opening runs the upgrade steps (ledger/core/upgrade.ts); the index needs nothing more. It is opened
  // even when there is nothing to do: it takes the writer lock, so a store a running writer holds is refused
  // (STORE_LOCKED) rather than said to be upgraded while its writer may be part way through an upgrade of its own.
  const ledger = openLedger({ path: values.db, params });
  try {
    if (values.store === undefined) return said;
    // The mirror's opening: the database's upgrade steps, its account history filled (ledger/postgres/account-fill).
    await (await PostgresMirror.open(values.store, ledger)).close();
    return `${said}\nthe database: upgraded, its account history whole`;
  } finally {
    ledger.close();
  }
}
