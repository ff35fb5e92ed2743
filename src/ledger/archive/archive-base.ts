import { concatBytes } from '../../util/bytes.js';
import type { LedgerOutput } from '../analytics/index.js';
import { checkedRecord, keys, LedgerError, sealRecord } from '../common/index.js';
import { ArchiveWriter } from './archive-writer.js';

// The archive a ledger goes on from when it measures its first milestone (after a snapshot's import, or in a store
// kept before the archive): every unspent output's ledger update at its booking milestone, its held record, each
// address's balance and the richest-first index. It is written in steps before that milestone's commit, not in it:
// in it, the first milestone after a snapshot of 5,000,000 outputs made one write of some 15 million records, all
// held in memory first (issue 58: 11 GB resident and growing after nine minutes, the collector 57 % of the time).
//
// A step is one atomic write: a batch of outputs' records, the balances and richest entries they change (the
// archive writer reads each balance back from the steps before, as a milestone reads the one before it), and where
// the step got to. A writer stopped mid-way goes on from there at its next attempt: the unspent outputs cannot change
// meanwhile, for only that milestone's commit changes them, and it deletes the record. While the record is there the
// archive is being built: the archive's readers say so (503) rather than answer from a part of it.

type Write = [key: Uint8Array, value: Uint8Array | undefined];

/** Outputs a step writes: some 3 records each, a few MB a write (a step takes well under a second). */
export const ARCHIVE_BASE_BATCH = 20_000;

/** The build's record: the milestone the base stands at, whether it is done, the last output key written. */
export interface ArchiveBase {
  at: number;
  done: boolean;
  /** The output table key (keys.output) of the last output a step wrote; empty before the first step. */
  cursor: Uint8Array;
}

const encodeBase = (b: ArchiveBase): Uint8Array => {
  const head = new Uint8Array(5);
  new DataView(head.buffer).setUint32(0, b.at);
  head[4] = b.done ? 1 : 0;
  return sealRecord(keys.archiveBase, concatBytes([head, b.cursor]));
};

/** The build's record, checked; undefined where no base is being built (or one was, and its milestone applied). */
export function archiveBaseOf(read: (key: Uint8Array) => Uint8Array | undefined): ArchiveBase | undefined {
  const stored = read(keys.archiveBase);
  if (stored === undefined) return undefined;
  const record = checkedRecord(keys.archiveBase, stored, "the archive base's progress");
  const view = new DataView(record.buffer, record.byteOffset, record.length);
  if (record.length < 5 || view.getUint8(4) > 1)
    throw new LedgerError('STORE_CORRUPT', "the archive base's progress is damaged");
  return { at: view.getUint32(0), done: view.getUint8(4) === 1, cursor: record.slice(5) };
}

/** `store`, its archive whole. @throws LedgerError ARCHIVE_BUILDING while a base is built: never a part of it */
export function wholeArchive<S extends { get(key: Uint8Array): Uint8Array | undefined }>(store: S): S {
  if (store.get(keys.archiveBase) !== undefined)
    throw new LedgerError(
      'ARCHIVE_BUILDING',
      "the archive is being built from the ledger's unspent outputs (its first milestone after a snapshot): ask again",
    );
  return store;
}

/**
 * Builds the base at milestone `at` (the ledger's latest) from `unspent` (in the output table's key order, each with
 * its booking milestone's time), in steps of `batch` outputs written by `write`, each atomic; goes on from an
 * earlier build's last step. Done when the record says so. @throws LedgerError STORE_CORRUPT: a record of a build at
 * another milestone (the ledger moved on without measuring: the base would not be its unspent outputs)
 */
export function buildArchiveBase(
  io: { read(key: Uint8Array): Uint8Array | undefined; write(records: Write[]): void },
  at: number,
  unspent: Iterable<LedgerOutput & { time: number }>,
  batch = ARCHIVE_BASE_BATCH,
): void {
  const base = archiveBaseOf(io.read) ?? { at, done: false, cursor: new Uint8Array(0) };
  if (base.at !== at)
    throw new LedgerError('STORE_CORRUPT', `an archive base built at milestone ${base.at}, but the ledger is at ${at}`);
  if (base.done) return;
  let outputs: (LedgerOutput & { time: number })[] = [];
  let cursor = base.cursor;
  // A step's writer reads the balances the steps before it wrote (it is made after their writes).
  const step = (done: boolean) => {
    const writer = new ArchiveWriter(io.read);
    writer.holdAll(outputs);
    io.write([...writer.records(), [keys.archiveBase, encodeBase({ at, done, cursor })]]);
    outputs = [];
  };
  for (const o of unspent) {
    const key = keys.output(o.booked ?? 0, o.outputId);
    if (Buffer.compare(key, base.cursor) <= 0) continue; // written by a step before a stop
    outputs.push(o);
    cursor = key;
    if (outputs.length === batch) step(false);
  }
  step(true);
}
