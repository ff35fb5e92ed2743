import { u32 } from '../../codec/index.js';
import { milestoneUpdateRecord } from '../../stardust/ledger-records.js';
import type { Output } from '../../stardust/output.js';
import { checkedRecord, keys, LedgerError, readRecord, slotOfKey } from '../common/index.js';
import type { KeyValueStore } from '../store/index.js';
import { ArchiveWriter } from './archive-writer.js';
import type { ArchiveRows } from './rows.js';

// A milestone's archive as rows, for a store that keeps it in tables (PostgreSQL: ledger/postgres/). The rows are
// made again from the milestone's ledger updates, which no later commit rewrites, rather than read from the balance
// records, which every later commit does: so a database that catches up slot by slot holds, at each slot, the
// archive as that slot left it, and its balances move by each slot's changes.

const OUTPUT_ID = 34;

/**
 * The archive rows of milestone `index`'s commit; undefined where it kept none (not a measured milestone). The first
 * measured milestone also holds the archive it started from (every unspent output, updates at their booking
 * milestones). `outputOf`: the output an update names (booked at `index`, or spent then). @throws STORE_CORRUPT
 */
export function archiveRowsOf(
  store: Pick<KeyValueStore, 'get' | 'entries'>,
  index: number,
  outputOf: (index: number, outputId: Uint8Array, spent: boolean) => Output | undefined,
): ArchiveRows | undefined {
  if (store.get(keys.analytics(index)) === undefined) return undefined;
  const first = index === 0 || store.get(keys.analytics(index - 1)) === undefined;
  const writer = new ArchiveWriter(() => undefined);
  const table = Uint8Array.of(keys.tables.milestoneUpdate);
  for (const [k, v] of store.entries(table, keys.milestoneUpdate(first ? 0 : index))) {
    const at = slotOfKey(k);
    if (at > index) break;
    const outputId = k.slice(5, 5 + OUTPUT_ID);
    const spent = k[5 + OUTPUT_ID] === 1;
    const { address } = readRecord(milestoneUpdateRecord, checkedRecord(k, v, 'milestone update'), 'milestone update');
    const timeKey = keys.addressUpdate(address, at, outputId, spent);
    const time = store.get(timeKey);
    const output = outputOf(at, outputId, spent);
    if (time === undefined || output === undefined)
      throw new LedgerError('STORE_CORRUPT', `milestone ${at}: a ledger update's record or output is missing`);
    writer.replay(
      outputId,
      output,
      spent,
      at,
      readRecord(u32, checkedRecord(timeKey, time, 'ledger update'), 'ledger update'),
    );
  }
  return writer.rows();
}
