import { encode, toHex, u32 } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import { transactionPayloadBytes } from '../../stardust/block.js';
import { equalBytes } from '../../util/bytes.js';
import { SEALED_TABLES } from '../archive/index.js';
import {
  blockRecord,
  checkedRecord,
  checkedValue,
  corrupt,
  keys,
  LedgerError,
  readRecord,
  sealedValue,
  sealRecord,
  UPGRADE_COMMAND,
} from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';
import { settleOutputChecksums } from './output-checksums.js';

// The layout of an embedded store (issue 57): a number, kept under keys.layout, that names how its records are laid
// out, and the ordered steps that take a store from one layout to the next. A writer opening an older store runs the
// steps it lacks before anything else reads it; a reader of an older store is refused with the command that upgrades
// it, since it cannot tell an older record from a damaged one. A store without the number is of layout 1: every store
// tangle-core wrote before there was one. (Output records got their checksums earlier, by a marker of their own that
// output-checksums.ts settles before these steps run: a store of layout 1 may still lack them.)
//
// A step rewrites records in batches of a few megabytes, each written with where it got to (keys.upgradeAt), so that
// a large store's upgrade needs no more memory than a batch and resumes where it stopped after a crash; the number
// moves on in the step's last batch. A reader never sees half a step: it is refused until the number moves.

/** The layout this tangle-core writes and reads. */
export const STORE_LAYOUT = 7;
/** The first layout whose indexes and metadata are sealed (the step to it says which). */
export const INDEXES_SEALED = 7;
/** The first layout whose snapshot's own records (an imported ledger's network, treasury, …) are sealed. */
export const SNAPSHOT_RECORDS_SEALED = 5;
/** The layout of a store that names none. */
const UNNAMED_LAYOUT = 1;
/** The last layout whose number was stored bare (a u32 alone); from the next on it is sealed like a record. */
const LAST_BARE_LAYOUT = 5;
/** About how many bytes of records one batch of a step rewrites. */
const BATCH_BYTES = 8 << 20;

export { UPGRADE_COMMAND };

interface UpgradeStep {
  /** The layout the step leaves the store in (it starts from the one before). */
  to: number;
  /** The tables whose records it rewrites, in ascending order, and how one is rewritten (undefined: left as is). */
  tables: readonly number[];
  /** Single records it rewrites too (of tables it does not rewrite whole), in its last batch. */
  records?: readonly Uint8Array[];
  rewrite(key: Uint8Array, record: Uint8Array): Uint8Array | undefined;
}

const STEPS: readonly UpgradeStep[] = [
  {
    // Blocks were stored as their bytes; now as records sealed with their key, that name their transaction and its
    // place (common/block-record.ts). A block whose bytes no longer hash to its ID is left as it was: it fails its
    // checksum on every read, as it failed its hash before, rather than be sealed as sound.
    to: 2,
    tables: [keys.tables.block],
    rewrite(key, bytes) {
      if (!equalBytes(blake2b256(bytes), key.subarray(5))) return undefined;
      const payload = transactionPayloadBytes(bytes);
      return blockRecord(key, bytes, payload && blake2b256(payload));
    },
  },
  {
    // The records of applied milestones, their analytics and the archive gain their seal (common/record-checks.ts):
    // each once, which the layout's number and the step's progress ensure (a seal cannot tell itself from a
    // record's last four bytes, so a record must never be sealed twice).
    to: 3,
    tables: [...SEALED_TABLES].sort((a, b) => a - b),
    rewrite: (key, record) => sealRecord(key, record),
  },
  {
    // The white-flag records of applied milestones (each block's verdict, served as its metadata and the explorer's
    // cone) gain their seal too (common/white-flag-verdict.ts), once, as the records above.
    to: 4,
    tables: [keys.tables.whiteFlag],
    rewrite: (key, record) => sealRecord(key, record),
  },
  {
    // The records a snapshot's import writes beside the ledger (ledger/snapshot/), served by the milestone, output
    // and treasury routes and read back by a snapshot's export, gain their seal too, once: the milestone times (also
    // written for each milestone history/ applies), the solid entry points, a delta's milestones, and the network
    // and treasury output among the store's metadata (the only ones of that table it rewrites).
    to: SNAPSHOT_RECORDS_SEALED,
    tables: [keys.tables.solidEntryPoints, keys.tables.importedMilestone, keys.tables.milestoneTime],
    records: [keys.importedNetwork, keys.treasury],
    rewrite: (key, record) => sealRecord(key, record),
  },
  {
    // The transaction index's records (core/transaction-index.ts: each transaction's block and slot, and each recent
    // slot's transactions), served as an output's `blockId` and a transaction's included block, gain their seal too
    // (common/transaction-records.ts), once; and the layout's own number is sealed from here on (storeLayout).
    to: 6,
    tables: [keys.tables.recent, keys.tables.transaction],
    rewrite: (key, record) => sealRecord(key, record),
  },
  {
    // The last records a route serves unsealed gain their seal (issue 57), once: the block index (a block without a
    // transaction → its slot), the spenders an imported milestone kept, each chain's current output, the output
    // index's entries (keys alone: each gains the 4-byte seal of its key as its value, common's entrySeal), and the
    // store's metadata (its latest slot and commitment, where recent transactions start, when it was last current,
    // an index build's progress). An upgrade's own progress record is sealed from here on (resumeAt). The markers
    // whose information is their presence (outputChecksums, outputIndexBuilt) keep a bare byte: no read uses it.
    to: INDEXES_SEALED,
    tables: [keys.tables.blockIndex, keys.tables.spentBy, keys.tables.outputIndex, keys.tables.chain],
    records: [keys.meta, keys.recentFrom, keys.currentAt, keys.outputIndexBuilding],
    rewrite: (key, record) => sealRecord(key, record),
  },
];

/**
 * What a store's opening settles before anything reads it: its output records' checksums (their own marker), then
 * its layout. @throws LedgerError STORE_OUTDATED (a reader of an older store), STORE_CORRUPT (a newer layout)
 */
export function settleStore(store: KeyValueStore, readOnly: boolean): void {
  settleOutputChecksums(store, readOnly);
  settleLayout(store, readOnly);
}

/**
 * The layout a store is in (its number, or that of a store without one). Layouts 2 to 5 stored it bare; later ones
 * seal it, so that a flipped bit is damage, not a layout a newer tangle-core wrote. @throws LedgerError STORE_CORRUPT
 */
export function storeLayout(store: KeyValueStore): number {
  const bytes = store.get(keys.layout);
  if (bytes === undefined) return UNNAMED_LAYOUT;
  if (bytes.length !== 4) return checkedValue(u32, keys.layout, bytes, 'store layout');
  const bare = readRecord(u32, bytes, 'store layout');
  if (bare <= UNNAMED_LAYOUT || bare > LAST_BARE_LAYOUT)
    throw corrupt(`the stored store layout (key ${toHex(keys.layout)})`, `no tangle-core wrote layout ${bare} bare`);
  return bare;
}

/** The layout's number as a store keeps it: sealed. A new store's genesis writes this layout's (committed-state.ts). */
export const layoutRecord = (layout = STORE_LAYOUT) => sealedValue(u32, keys.layout, layout);

/**
 * At a writer's opening: the steps an older store lacks, run in order (a new store's number is written). At a
 * reader's: an older store that holds records a missing step rewrites is refused with the command that upgrades it.
 * A store of a newer layout than this tangle-core's is refused by both.
 * @throws LedgerError STORE_OUTDATED (a reader), STORE_CORRUPT (a newer layout)
 */
export function settleLayout(store: KeyValueStore, readOnly: boolean): void {
  const layout = storeLayout(store);
  if (layout > STORE_LAYOUT)
    throw new LedgerError(
      'STORE_CORRUPT',
      `this store is of layout ${layout}, written by a newer tangle-core: this one reads layout ${STORE_LAYOUT}`,
    );
  if (layout === STORE_LAYOUT) return;
  const missing = STEPS.filter((s) => s.to > layout);
  const holdsOlder = missing.some(
    (s) => s.tables.some((t) => holdsAny(store, t)) || s.records?.some((k) => store.get(k)),
  );
  if (readOnly) {
    if (holdsOlder)
      throw new LedgerError(
        'STORE_OUTDATED',
        `this store is of layout ${layout}, this tangle-core reads layout ${STORE_LAYOUT}: upgrade it with ` +
          `\`${UPGRADE_COMMAND}\` (or open it once with its writer: serve --db, import), then read it`,
      );
    return;
  }
  // One line where an operator sees it (a large store's upgrade takes a while); a new store is said nothing of.
  if (holdsOlder) process.stderr.write(`tangle-core: upgrading the store from layout ${layout} to ${STORE_LAYOUT}\n`);
  for (const step of missing) runStep(store, step);
}

function holdsAny(store: KeyValueStore, table: number): boolean {
  for (const _ of store.entries(Uint8Array.of(table))) return true;
  return false;
}

/** One step, in batches, from where an interrupted run of it stopped; the last batch moves the number on. */
function runStep(store: KeyValueStore, step: UpgradeStep): void {
  let start = resumeAt(store, step);
  let batch = new WriteBatch();
  let bytes = 0;
  for (const table of step.tables) {
    // Tables before the one an interrupted run stopped in are done; that one goes on past its last key.
    if (start !== undefined && table < start[0]!) continue;
    let from = start !== undefined && table === start[0] ? start : undefined;
    for (;;) {
      let last: Uint8Array | undefined;
      // A range read, then its write: no write while a range of the store is open.
      for (const [key, record] of store.entries(Uint8Array.of(table), from)) {
        const rewritten = step.rewrite(key, record);
        if (rewritten !== undefined) batch.put(key.slice(), rewritten);
        bytes += record.length + key.length;
        if (bytes >= BATCH_BYTES) {
          last = key.slice();
          break;
        }
      }
      if (last === undefined) break; // this table is done; its rewrites go with the next batch
      const progress = new Uint8Array(4 + last.length);
      progress.set(encode(u32, step.to));
      progress.set(last, 4);
      batch.put(keys.upgradeAt, sealRecord(keys.upgradeAt, progress));
      store.write(batch);
      batch = new WriteBatch();
      bytes = 0;
      from = after(last);
    }
    start = undefined;
  }
  for (const key of step.records ?? []) {
    const record = store.get(key);
    const rewritten = record && step.rewrite(key, record);
    if (rewritten !== undefined) batch.put(key, rewritten);
  }
  batch.put(keys.layout, layoutRecord(step.to));
  batch.delete(keys.upgradeAt);
  store.write(batch);
}

/**
 * Where an interrupted run of `step` stopped: past the last key it rewrote (undefined: from the start). The record
 * is sealed (from layout 7's tangle-core on); one an older tangle-core left bare is of a step before layout 7, so a
 * bare record is read only for those (it fails its seal but for a chance of 1 in 2^32). @throws STORE_CORRUPT
 */
function resumeAt(store: KeyValueStore, step: UpgradeStep): Uint8Array | undefined {
  const stored = store.get(keys.upgradeAt);
  if (stored === undefined) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = checkedRecord(keys.upgradeAt, stored, 'upgrade progress');
  } catch (e) {
    if (step.to >= INDEXES_SEALED) throw e;
    bytes = stored;
  }
  // The layout the step upgrades to (u32), then the last key it rewrote.
  return readRecord(u32, bytes.subarray(0, 4), 'upgrade progress') === step.to ? after(bytes.subarray(4)) : undefined;
}

/** The first key after `key` (entries take a start that is included). */
const after = (key: Uint8Array) => {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
};
