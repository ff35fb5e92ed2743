import { encode, u32 } from '../../codec/index.js';
import {
  importedMilestone,
  OUTPUT_RECORD_HEADER,
  type TransactionRecord,
  transactionRecord,
} from '../../model/ledger-records.js';
import { snapshotTreasuryOutput } from '../../model/snapshot.js';
import { checkedOutputRecord, keys, readRecord, rowChecksum } from '../common/index.js';
import type { CommittedReads } from '../core/index.js';
import { indexEntries } from '../indexer/index.js';
import type { PgClient } from './client.js';
import { BUILD_BULK_KEYS, DROP_FOR_BULK_LOAD, SCHEMA, WRITES } from './schema.js';

// A ledger imported from a network's snapshots (snapshot-import.ts), loaded into a new database as its genesis: every
// output booked up to the snapshot's target milestone (the genesis slot) with its index entries, the blocks of their
// transactions (known by ID only), the milestones' timestamps and the treasury output at the target. The slots after
// it (a delta's milestones) follow as the mirror writes any slot. Loaded as inx-indexer loads a ledger: the tables'
// keys and indexes are dropped first and built once at the end, all in the caller's one SQL transaction (a database
// holds the whole ledger or none of it).

/** Rows per statement: a network's snapshot holds millions of outputs, too many for one statement's parameters. */
const ROWS = 10_000;

export interface LoadProgress {
  outputs: number;
}

/** Loads the imported genesis through `c` (in a transaction); told of progress every ROWS outputs. */
export async function loadImported(
  c: PgClient,
  committed: CommittedReads,
  onProgress?: (p: LoadProgress) => void,
): Promise<void> {
  const genesis = committed.params.genesisSlot;
  for (const s of DROP_FOR_BULK_LOAD) await c.query(s);
  await c.query(WRITES.treasury, [treasuryAtGenesis(committed)]);
  const { store } = committed;

  let slots: number[] = [];
  let ids: Uint8Array[] = [];
  let raws: Uint8Array[] = [];
  let entries: Uint8Array[] = [];
  let owners: Uint8Array[] = [];
  let outputs = 0;
  const flushOutputs = async () => {
    if (ids.length > 0)
      await c.query(WRITES.bookedOutputs, [slots, ids, raws, ids.map((id, i) => rowChecksum(id, slots[i]!, raws[i]!))]);
    if (entries.length > 0) await c.query(WRITES.indexEntries, [entries, owners]);
    onProgress?.({ outputs });
    [slots, ids, raws, entries, owners] = [[], [], [], [], []];
  };
  // Outputs in the store's order (creating slot, then ID), up to the genesis slot; each unspent there (a later slot
  // spends it), so each with its index entries.
  for (const [k, record] of store.entries(Uint8Array.of(keys.tables.output))) {
    const slot = new DataView(k.buffer, k.byteOffset + 1, 4).getUint32(0, false);
    if (slot > genesis) break;
    const outputId = k.subarray(5);
    const bytes = checkedOutputRecord(k, record).subarray(OUTPUT_RECORD_HEADER);
    slots.push(slot);
    ids.push(outputId);
    raws.push(bytes);
    for (const e of indexEntries(bytes, slot, outputId)) {
      entries.push(e);
      owners.push(outputId);
    }
    if (++outputs % ROWS === 0) await flushOutputs();
  }
  await flushOutputs();

  // The blocks of the outputs' transactions, where the snapshot named one (a network's genesis outputs have none).
  let blocks: { id: Uint8Array[]; slot: number[]; tx: Uint8Array[] } = { id: [], slot: [], tx: [] };
  const flushBlocks = async () => {
    if (blocks.id.length > 0) await c.query(WRITES.bookedBlocks, [blocks.id, blocks.slot, blocks.tx]);
    blocks = { id: [], slot: [], tx: [] };
  };
  for (const [k, bytes] of store.entries(Uint8Array.of(keys.tables.transaction))) {
    const r: TransactionRecord = readRecord(transactionRecord, bytes, 'transaction');
    if (r.slot > genesis || r.blockId.every((b) => b === 0)) continue;
    blocks.id.push(r.blockId);
    blocks.slot.push(r.slot);
    blocks.tx.push(k.subarray(1));
    if (blocks.id.length === ROWS) await flushBlocks();
  }
  await flushBlocks();

  const times: { slot: number[]; time: number[] } = { slot: [], time: [] };
  for (const [k, bytes] of store.entries(Uint8Array.of(keys.tables.milestoneTime))) {
    const slot = new DataView(k.buffer, k.byteOffset + 1, 4).getUint32(0, false);
    if (slot > genesis) break;
    times.slot.push(slot);
    times.time.push(readRecord(u32, bytes, 'milestone time'));
  }
  for (let i = 0; i < times.slot.length; i += ROWS)
    await c.query(WRITES.milestoneTimes, [times.slot.slice(i, i + ROWS), times.time.slice(i, i + ROWS)]);

  for (const s of BUILD_BULK_KEYS) await c.query(s);
  for (const s of SCHEMA) await c.query(s);
  await c.query('update status set output_index_built = true');
}

/**
 * The treasury output at the target milestone: the one the first receipt after it consumed, else the ledger's
 * (no delta milestone changed it).
 */
function treasuryAtGenesis(committed: CommittedReads): Uint8Array {
  const after = keys.importedMilestone(committed.params.genesisSlot + 1);
  for (const [, bytes] of committed.store.entries(Uint8Array.of(keys.tables.importedMilestone), after)) {
    const m = readRecord(importedMilestone, bytes, 'imported milestone');
    if (m.treasuryInput !== undefined) return encode(snapshotTreasuryOutput, m.treasuryInput);
  }
  return committed.store.get(keys.treasury)!;
}
