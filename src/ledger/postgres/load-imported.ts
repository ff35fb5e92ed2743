import { u32 } from '../../codec/index.js';
import { importedMilestone, OUTPUT_RECORD_HEADER, type TransactionRecord } from '../../stardust/ledger-records.js';
import { snapshotTreasuryOutput } from '../../stardust/snapshot.js';
import {
  checkedOutputRecord,
  checkedTransaction,
  checkedValue,
  keys,
  rowChecksum,
  sealedValue,
  slotOfKey,
} from '../common/index.js';
import type { CommittedReads } from '../core/index.js';
import { indexEntries } from '../indexer/index.js';
import type { PgClient } from './client.js';
import { type CopyColumn, type CopyField, copyInto } from './copy-rows.js';
import { START_INDEX_BUILD } from './index-build.js';
import { timeSeal } from './milestone-times.js';
import { BUILD_BULK_KEYS, DROP_FOR_BULK_LOAD, SCHEMA, WRITES } from './schema.js';

// A ledger imported from a network's snapshots (snapshot-import.ts), loaded into a new database as its genesis: every
// output booked up to the snapshot's target milestone (the genesis slot) with its index entries, the blocks of their
// transactions (known by ID only), the milestones' timestamps and the treasury output at the target. The slots after
// it (a delta's milestones) follow as the mirror writes any slot. Loaded as inx-indexer loads a ledger: the tables'
// keys and indexes are dropped first and built once at the end, all in the caller's one SQL transaction (a database
// holds the whole ledger or none of it). The rows go through COPY in the binary format (copy-rows.ts).
//
// The indexer's entries (4.5 rows an output, and their two indexes: most of the load) go in with the rest only for a
// small ledger; a larger one's are left to the database's writer, which builds them in steps while it serves
// (index-build.ts), as the embedded store's first writer does after an import (issue 58).

/** Told of progress every this many outputs. */
const PROGRESS = 10_000;
/** A ledger of at most this many outputs gets its indexer's entries in the load (a few seconds at most). */
export const INDEX_AT_LOAD = 50_000;

export interface LoadProgress {
  outputs: number;
}

/** Loads the imported genesis through `c` (in a transaction); told of progress every PROGRESS outputs. */
export async function loadImported(
  c: PgClient,
  committed: CommittedReads,
  onProgress?: (p: LoadProgress) => void,
  indexAtLoad = INDEX_AT_LOAD,
): Promise<void> {
  // The pool cancels a statement after 30 s, so that a reader answers 503 rather than hang; a load's COPY of tens of
  // millions of rows, or the building of a key over them, takes longer, and is this transaction's own business.
  await c.query('set local statement_timeout = 0');
  for (const s of DROP_FOR_BULK_LOAD) await c.query(s);
  await c.query(WRITES.treasury, [treasuryAtGenesis(committed)]);

  // Outputs in the store's order (creating slot, then ID), up to the genesis slot; each unspent there (a later slot
  // spends it), so each with its index entries. A connection runs one COPY at a time: the outputs are read twice,
  // once for their rows and once for their entries (or the entries are left to the writer's build).
  const outputs = await copyInto(c, 'outputs', OUTPUT_COLUMNS, outputRows(committed, onProgress));
  onProgress?.({ outputs });
  const indexed = outputs <= indexAtLoad;
  if (indexed) await copyInto(c, 'output_index', ENTRY_COLUMNS, entryRows(committed));
  // The blocks of the outputs' transactions, where the snapshot named one (a network's genesis outputs have none),
  // through a table of the load's own: two transactions that name one block are one row.
  await c.query(WRITES.stageBookedBlocks);
  await copyInto(c, 'booked_blocks', BLOCK_COLUMNS, blockRows(committed));
  await c.query(WRITES.bookedBlocks);
  await copyInto(c, 'milestone_times', TIME_COLUMNS, timeRows(committed));

  for (const s of BUILD_BULK_KEYS) await c.query(s);
  for (const s of SCHEMA) await c.query(s);
  if (indexed) await c.query('update status set output_index_built = true');
  else await c.query(START_INDEX_BUILD, [outputs]);
}

const OUTPUT_COLUMNS: [string, CopyColumn][] = [
  ['output_id', 'bytea'],
  ['created_slot', 'int4'],
  ['raw', 'bytea'],
  ['checksum', 'int4'],
];
const ENTRY_COLUMNS: [string, CopyColumn][] = [
  ['entry', 'bytea'],
  ['output_id', 'bytea'],
];
const BLOCK_COLUMNS: [string, CopyColumn][] = [
  ['block_id', 'bytea'],
  ['slot', 'int4'],
  ['tx_id', 'bytea'],
];
const TIME_COLUMNS: [string, CopyColumn][] = [
  ['slot', 'int4'],
  ['unix_time', 'int8'],
  ['time_seal', 'int4'],
];

/** The outputs booked up to the genesis slot, in the store's order, their records checked. */
function* genesisOutputs(committed: CommittedReads) {
  for (const [k, record] of committed.store.entries(Uint8Array.of(keys.tables.output))) {
    const slot = slotOfKey(k);
    if (slot > committed.params.genesisSlot) return;
    yield { slot, outputId: k.subarray(5), bytes: checkedOutputRecord(k, record).subarray(OUTPUT_RECORD_HEADER) };
  }
}

function* outputRows(committed: CommittedReads, onProgress?: (p: LoadProgress) => void): Generator<CopyField[]> {
  let n = 0;
  for (const { slot, outputId, bytes } of genesisOutputs(committed)) {
    yield [outputId, slot, bytes, rowChecksum(outputId, slot, bytes)];
    if (++n % PROGRESS === 0) onProgress?.({ outputs: n });
  }
}

function* entryRows(committed: CommittedReads): Generator<CopyField[]> {
  for (const { slot, outputId, bytes } of genesisOutputs(committed))
    for (const e of indexEntries(bytes, slot, outputId)) yield [e, outputId];
}

function* blockRows(committed: CommittedReads): Generator<CopyField[]> {
  for (const [k, bytes] of committed.store.entries(Uint8Array.of(keys.tables.transaction))) {
    const r: TransactionRecord = checkedTransaction(k, bytes);
    if (r.slot > committed.params.genesisSlot || r.blockId.every((b) => b === 0)) continue;
    yield [r.blockId, r.slot, k.subarray(1)];
  }
}

function* timeRows(committed: CommittedReads): Generator<CopyField[]> {
  for (const [k, bytes] of committed.store.entries(Uint8Array.of(keys.tables.milestoneTime))) {
    const slot = slotOfKey(k);
    if (slot > committed.params.genesisSlot) return;
    const time = checkedValue(u32, k, bytes, 'milestone time');
    yield [slot, time, timeSeal(slot, time, null)];
  }
}

/**
 * The treasury output at the target milestone: the one the first receipt after it consumed, else the ledger's
 * (no delta milestone changed it).
 */
function treasuryAtGenesis(committed: CommittedReads): Uint8Array {
  const after = keys.importedMilestone(committed.params.genesisSlot + 1);
  for (const [k, bytes] of committed.store.entries(Uint8Array.of(keys.tables.importedMilestone), after)) {
    const m = checkedValue(importedMilestone, k, bytes, 'imported milestone');
    if (m.treasuryInput !== undefined) return sealedValue(snapshotTreasuryOutput, keys.treasury, m.treasuryInput);
  }
  const treasury = checkedValue(
    snapshotTreasuryOutput,
    keys.treasury,
    committed.store.get(keys.treasury)!,
    'treasury output',
  );
  return sealedValue(snapshotTreasuryOutput, keys.treasury, treasury);
}
