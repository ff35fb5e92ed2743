import { bytesKey } from '../../util/bytes.js';
import { checkedOutputRow, LedgerError } from '../common/index.js';
import type { IndexSource } from '../indexer/index.js';
import { bytesOf, type PgResult } from './client.js';
import { timedSlotOf } from './milestone-times.js';
import { lostOutput } from './missing-rows.js';
import { QUERIES } from './schema.js';

// The indexer's view of the PostgreSQL store (the embedded store's is indexer-store.ts): its entries are the primary
// key of `output_index`, a query's range one index-only scan; the outputs they name are read back in one statement.

type Ask = (text: string, values: unknown[]) => Promise<PgResult>;

/** The indexer's source over the tables, each read through `ask` (the reader's, with its outage handling). */
export function indexSource(ask: Ask): IndexSource {
  return {
    latestSlot: async () => Number((await ask(QUERIES.latestSlot, [])).rows[0]!.latest_slot),
    scan: async (prefix, start, limit) => {
      const { rows } = await ask(QUERIES.indexScan, [start, prefixEnd(prefix), limit]).catch((e) => {
        if (e instanceof LedgerError && /output_index/.test(e.detail))
          throw new LedgerError('INDEXER_DISABLED', 'the database keeps no output index (its writer predates it)');
        throw e;
      });
      return rows.map((r) => bytesOf(r.entry));
    },
    timedSlotFrom: async (slot) => {
      const r = (await ask(QUERIES.timedSlotFrom, [slot])).rows[0];
      return r === undefined ? undefined : timedSlotOf(r);
    },
    outputs: async (positions) => {
      if (positions.length === 0) return [];
      const { rows } = await ask(QUERIES.indexOutputs, [positions.map((p) => p.outputId)]);
      const lost = rows.find((r) => r.lost === true);
      if (lost !== undefined) throw lostOutput(bytesOf(lost.output_id));
      const found = new Map(
        rows
          .filter((r) => r.raw !== null)
          .map((r) => {
            const id = bytesOf(r.output_id);
            return [
              bytesKey(id),
              checkedOutputRow(id, Number(r.created_slot), bytesOf(r.raw), r.checksum as number | null),
            ];
          }),
      );
      return positions.map((p) => found.get(bytesKey(p.outputId)));
    },
  };
}

/** The least key after every key that starts with `prefix` (its kind byte is an output type: never 0xff). */
function prefixEnd(prefix: Uint8Array): Uint8Array {
  const end = prefix.slice();
  let i = end.length - 1;
  while (i > 0 && end[i] === 0xff) i--;
  end[i]!++;
  return end.subarray(0, i + 1);
}
