import { OUTPUT_CHECKSUM_AT } from '../../stardust/ledger-records.js';
import { keys, LedgerError, sealOutputRecord, UPGRADE_COMMAND } from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';

// Output records carry a checksum (integrity.ts) from the store's genesis on (its marker, `outputChecksums`, is
// written with it). A store written before there were checksums holds records without the field: its writer, at
// opening, rewrites each with the field sealed, in one atomic write, and sets the marker; a reader of such a store
// before that is told to open it with its writer once (it cannot tell its records from damaged ones).

/**
 * Whether the store's output records carry checksums (or it holds none yet). A store that names its layout does:
 * every tangle-core that wrote a layout number settled the checksums first. (A marker's key moved by a flipped bit
 * must not make a writer insert a checksum field into records that have one.)
 */
function sealed(store: KeyValueStore): boolean {
  if (store.get(keys.outputChecksums) !== undefined || store.get(keys.layout) !== undefined) return true;
  for (const _ of store.entries(Uint8Array.of(keys.tables.output))) return false;
  return true;
}

/**
 * At a writer's opening: an older store's output records are rewritten with their checksums, and the marker set.
 * At a reader's: an older store is refused with what to do. @throws LedgerError STORE_OUTDATED (a reader)
 */
export function settleOutputChecksums(store: KeyValueStore, readOnly: boolean): void {
  if (sealed(store)) {
    if (!readOnly && store.get(keys.outputChecksums) === undefined) {
      const batch = new WriteBatch();
      batch.put(keys.outputChecksums, Uint8Array.of(1));
      store.write(batch);
    }
    return;
  }
  if (readOnly)
    throw new LedgerError(
      'STORE_OUTDATED',
      'this store was written before output records carried checksums: upgrade it with ' +
        `\`${UPGRADE_COMMAND}\` (or open it once with its writer: serve --db, import), then read it`,
    );
  process.stderr.write('tangle-core: upgrading the store: its output records gain their checksums\n');
  const batch = new WriteBatch();
  for (const [key, old] of store.entries(Uint8Array.of(keys.tables.output))) {
    // The older layout: created slot, spent slot, output. The checksum goes between the slots and the output.
    const record = new Uint8Array(old.length + 4);
    record.set(old.subarray(0, OUTPUT_CHECKSUM_AT));
    record.set(old.subarray(OUTPUT_CHECKSUM_AT), OUTPUT_CHECKSUM_AT + 4);
    sealOutputRecord(key, record);
    batch.put(key, record);
  }
  batch.put(keys.outputChecksums, Uint8Array.of(1));
  store.write(batch);
}
