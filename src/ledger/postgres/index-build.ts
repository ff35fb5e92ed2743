import { checkedOutputRow } from '../common/index.js';
import { type IndexBuildProgress, indexEntries } from '../indexer/index.js';
import { addColumn } from './add-column.js';
import { bytesOf, type PgClient, type PgResult } from './client.js';

// The PostgreSQL store's output index built after a snapshot's load (issue 58), as the embedded store's is
// (indexer/index-build.ts): a large snapshot is loaded without the indexer's entries (4.5 rows an output, with their
// two indexes: most of the load's time), and the database's writer (`serve --db DIR --store URL`) builds them in
// steps while it serves; readers answer the indexer's routes 503 INDEXER_BUILDING, with the counts, until it is done.
//
// Why it neither misses nor doubles an output created or spent meanwhile: the slots' commits keep the index as always
// (the entries of the outputs they create go in, those of the outputs they spend go), and a step takes the status
// row's lock before it reads a single output, as every slot's commit moves that row first: a step and a commit never
// interleave. A step gives entries only to the outputs it finds unspent; one created meanwhile gets the same entries
// twice, which the step's insert keeps once (`on conflict do nothing`).
//
// Crash-safe: where the build is (its cursor, its counts) moves in the same SQL transaction as the step's entries, so a
// writer killed mid-build resumes at its next start from the last step committed.

/**
 * Outputs a step indexes by default: the mirror's next slot waits behind one step (it holds the status row), so a step
 * should take well under 150 ms. bench/index-build.mjs --postgres at 60,000 outputs on the loaded 2-core machine:
 * steps of 500 took p50 46 to 72 ms, p99 135 to 196 ms; steps of 200 p50 37 to 40 ms, p99 112 to 119 ms, the build
 * 1.3 to 1.9 times as long.
 */
export const PG_INDEX_BUILD_BATCH = 200;

/** The build's state, in the status row: the last output ID handled (null: no build runs) and its counts. */
export const INDEX_BUILD_SCHEMA: readonly string[] = [
  addColumn('status', 'index_build_cursor', 'bytea'),
  addColumn('status', 'index_build_done', 'bigint'),
  addColumn('status', 'index_build_outputs', 'bigint'),
];

/** $1 the number of outputs loaded: a build to run over them, from the first. */
export const START_INDEX_BUILD =
  "update status set output_index_built = false, index_build_cursor = '\\x'::bytea, index_build_done = 0, " +
  'index_build_outputs = $1';

const PROGRESS =
  'select output_index_built, index_build_done, index_build_outputs from status where index_build_cursor is not null';

/** Up to $2 output rows after output ID $1, in ID order (the primary key's range). */
const STEP_ROWS =
  'select output_id, created_slot, spent_slot, raw, checksum from outputs where output_id > $1 ' +
  'order by output_id limit $2';

/** $1 entries, $2 their outputs' IDs: an output a commit indexed meanwhile has them already. */
const STEP_ENTRIES =
  'insert into output_index select * from unnest($1::bytea[], $2::bytea[]) on conflict (entry) do nothing';

type Query = (text: string) => Promise<PgResult>;

/** How far the database's build has come; undefined when none runs. */
export async function pgIndexBuildProgress(query: Query): Promise<IndexBuildProgress | undefined> {
  const r = (await query(PROGRESS)).rows[0];
  if (r === undefined || r.output_index_built === true) return undefined;
  return { indexedOutputs: Number(r.index_build_done), outputs: Number(r.index_build_outputs) };
}

/**
 * One step of the build, in `c`'s SQL transaction: up to `limit` outputs handled, and the build's state moved. True
 * once the index is built (or when no build runs). @throws LedgerError STORE_CORRUPT (a row that fails its checksum)
 */
export async function pgIndexBuildStep(c: PgClient, limit: number): Promise<boolean> {
  const state = (
    await c.query(
      'select index_build_cursor, index_build_done from status where index_build_cursor is not null for update',
    )
  ).rows[0];
  if (state === undefined) return true;
  const { rows } = await c.query(STEP_ROWS, [bytesOf(state.index_build_cursor), limit]);
  const entries: Uint8Array[] = [];
  const ids: Uint8Array[] = [];
  for (const r of rows) {
    if (r.spent_slot !== null) continue;
    const id = bytesOf(r.output_id);
    const slot = Number(r.created_slot);
    const raw = checkedOutputRow(id, slot, bytesOf(r.raw), r.checksum as number | null, null);
    for (const e of indexEntries(raw, slot, id)) {
      entries.push(e);
      ids.push(id);
    }
  }
  if (entries.length > 0) await c.query(STEP_ENTRIES, [entries, ids]);
  const done = Number(state.index_build_done) + rows.length;
  if (rows.length < limit) {
    await c.query(
      'update status set output_index_built = true, index_build_cursor = null, index_build_done = $1, ' +
        'index_build_outputs = null',
      [done],
    );
    return true;
  }
  await c.query('update status set index_build_cursor = $1, index_build_done = $2', [
    bytesOf(rows.at(-1)!.output_id),
    done,
  ]);
  return false;
}
