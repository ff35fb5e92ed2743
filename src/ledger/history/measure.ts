import { InclusionState } from '../../stardust/ledger-records.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import { bytesKey } from '../../util/bytes.js';
import {
  CHUNK,
  chunkColumns,
  chunkOf,
  closesChunk,
  type LedgerOutput,
  ledgerTotals,
  type Measurements,
  measureMilestone,
  measurementsFromRecord,
  measurementsToRecord,
} from '../analytics/index.js';
import {
  AccountsWriter,
  ArchiveWriter,
  accountStateAt,
  buildArchiveBase,
  HoldingsWriter,
  holdingAt,
  keepsRichest,
  richestCheckpoint,
} from '../archive/index.js';
import { bookingTime, checkedRecord, keys, LedgerError, sealRecord } from '../common/index.js';
import type { Ledger, MilestoneWriter } from '../core/index.js';
import type { Cone, Judged } from './cone.js';

// A milestone's analytics (ledger/analytics/), measured once its cone is judged and written in its commit: the
// archive's statistics are never behind or ahead of the ledger they describe. The ledger's totals go on from the
// milestone before; a ledger's first measured milestone starts them from its unspent outputs.

const VERDICT = {
  [InclusionState.NoTransaction]: 'noTransaction',
  [InclusionState.Included]: 'included',
  [InclusionState.Conflicting]: 'conflicting',
} as const;

/** The records of milestone `m`'s analytics and archive, to write (or delete: undefined) in its commit, in order. */
export function measureCone(
  ledger: Ledger,
  writer: MilestoneWriter,
  m: MilestonePayload,
  cone: Cone,
  judged: Judged,
): [Uint8Array, Uint8Array | undefined][] {
  const p = ledger.params;
  const ctx = { index: m.index, timestamp: m.timestamp, rent: p.rentStructure, tokenSupply: p.tokenSupply };
  const before = analyticsOf(writer, m.index - 1);
  const archive = new ArchiveWriter((key) => writer.record(key));
  const last = (prefix: Uint8Array, start: Uint8Array) => writer.lastRecord(prefix, start);
  const accounts = new AccountsWriter((address) => accountStateAt(last, address, m.index - 1)?.state);
  const holdings = new HoldingsWriter((prefix) => holdingAt(last, prefix, m.index - 1)?.value.slice());
  let previous: Measurements;
  let base: [Uint8Array, undefined][] = [];
  if (before !== undefined) previous = measurementsFromRecord(before);
  else {
    // The ledger's first measured milestone: its totals start from the unspent outputs, and its archive from the base
    // prepareArchive built of them before the cone was taken; this commit ends the build.
    previous = ledgerTotals(unspent(ledger), ctx);
    base = [[keys.archiveBase, undefined]];
  }
  // The accounts start where the archive does, or, in a store kept before them (issue 61), at the first milestone
  // applied since: from the unspent outputs, in this commit.
  if (
    writer.lastRecord(Uint8Array.of(keys.tables.accountsOfMilestone), keys.accountsOfMilestone(m.index)) === undefined
  )
    accounts.holdAll(unspent(ledger));
  // Likewise the holdings (holdings.ts), from the first milestone applied since they are kept.
  if (
    writer.lastRecord(Uint8Array.of(keys.tables.holdingsOfMilestone), keys.holdingsOfMilestone(m.index)) === undefined
  )
    holdings.holdAll(unspent(ledger));
  const measurements = measureMilestone({
    ctx,
    blocks: judged.entries.map((e, i) => ({
      bytes: cone.bytes.get(bytesKey(e.blockId))!,
      inclusion: VERDICT[e.inclusion as InclusionState],
      transaction: judged.transactions[i],
    })),
    consumed: (id) => {
      const o = writer.output(id);
      if (o === undefined) throw new LedgerError('STORE_CORRUPT', 'an output a milestone applied spending is gone');
      return o;
    },
    previous,
    book: archive,
    more: [archive, accounts, holdings],
  });
  const record = measurementsToRecord(measurements);
  const key = keys.analytics(m.index);
  const records = [...archive.records(), ...accounts.records(m.index), ...holdings.records(m.index), ...base];
  if (keepsRichest(m.index)) records.push(richestCheckpoint(m.index, standing(writer), archive.moved()));
  return [[key, sealRecord(key, record)], ...records, ...columns(writer, m.index, record)];
}

/**
 * Before milestone `index` is taken in: where it is the ledger's first measured milestone, the archive it goes on
 * from, built in steps of its own (archive/archive-base.ts; a build stopped before goes on).
 */
export function prepareArchive(ledger: Ledger, writer: MilestoneWriter, index: number, batch?: number): void {
  if (writer.record(keys.analytics(index - 1)) !== undefined) return; // measured: checked where it is read
  const io = { read: (key: Uint8Array) => writer.record(key), write: writer.writeOwn.bind(writer) };
  buildArchiveBase(io, index - 1, timed(ledger, writer, unspent(ledger)), batch);
}

/** A milestone's analytics record as committed (sealed: common/record-checks.ts), checked; undefined: none. */
function analyticsOf(writer: MilestoneWriter, index: number): Uint8Array | undefined {
  const key = keys.analytics(index);
  const sealed = writer.record(key);
  return sealed && checkedRecord(key, sealed, `analytics of milestone ${index}`);
}

/** A chunk's last milestone writes the chunk's columns, from its measured milestones' records and its own. */
function columns(writer: MilestoneWriter, index: number, record: Uint8Array) {
  if (!closesChunk(index)) return [];
  const chunk = chunkOf(index);
  const records = [];
  for (let i = chunk * CHUNK; i < index; i++) {
    const r = analyticsOf(writer, i);
    if (r !== undefined) records.push({ index: i, record: r });
  }
  records.push({ index, record });
  return chunkColumns(chunk, records);
}

/** Each output with its booking milestone's time (kept for an imported ledger's; else its slot's end). */
function* timed(ledger: Ledger, writer: MilestoneWriter, outputs: Iterable<LedgerOutput>) {
  const times = new Map<number, number>();
  for (const o of outputs) {
    const slot = o.booked ?? 0;
    let time = times.get(slot);
    if (time === undefined) {
      time = bookingTime((key) => writer.record(key), ledger.params, slot);
      times.set(slot, time);
    }
    yield { ...o, time };
  }
}

/** The committed richest-first index (archive-writer.ts), each entry checked: a checkpoint reads its first ones. */
function* standing(writer: MilestoneWriter) {
  for (const [k, v] of writer.records(Uint8Array.of(keys.tables.richest))) {
    checkedRecord(k, v, 'richest-first entry');
    const balance = ~new DataView(k.buffer, k.byteOffset + 1, 8).getBigUint64(0) & 0xffff_ffff_ffff_ffffn;
    yield { address: k.slice(9), balance };
  }
}

function* unspent(ledger: Ledger): Generator<LedgerOutput> {
  for (const [outputId, r] of ledger.unspentOutputs()) yield { outputId, output: r.output, booked: r.createdSlot };
}
