import { parseArgs } from 'node:util';
import { openLedger, STORE_LAYOUT, storeLayoutAt } from '../ledger/index.js';
import { existingStore, existingStoreParams, UsageError } from './io.js';

export const UPGRADE_USAGE = `tangle-core upgrade --db DIR
  Upgrades the store at DIR to the layout this tangle-core writes (as its writer's opening would: serve --db and import
  do it too), so that readers (serve --read-only, export-snapshot) can read it. Needs the store's writer lock: stop
  its writer first. An interrupted upgrade goes on where it stopped when run again.
  --network NAME    for a store tangle-core built: testnet, shimmer or iota (default testnet; an imported store
                    knows its network)
  --slot-seconds N  for a store tangle-core built: the slot length it was written with (default 10)
`;

/** Upgrades the store in place; the line that says what it did. */
export function upgradeCommand(argv: string[]): string {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { db: { type: 'string' }, network: { type: 'string' }, 'slot-seconds': { type: 'string' } },
  });
  if (values.db === undefined || positionals.length > 0) throw new UsageError('upgrade needs --db DIR');
  const existing = existingStore(values.db);
  const before = storeLayoutAt(values.db)!;
  if (before === STORE_LAYOUT) return `${values.db}: layout ${before} already, nothing to do`;
  const params = existingStoreParams(existing, values);
  // The writer's opening runs the upgrade steps (ledger/core/upgrade.ts); the index needs nothing more.
  openLedger({ path: values.db, params }).close();
  return `${values.db}: upgraded from layout ${before} to ${STORE_LAYOUT}`;
}
