import { measurementsRecord } from '../../stardust/ledger-records.js';
import type { Awaitable } from '../../util/awaitable.js';
import { keys, LedgerError, readRecord, sealRecord } from '../common/index.js';
import { isAmount, type Measurements } from './analytic.js';
import { MEASUREMENT_NAMES, pickMeasurements, placesOf } from './record.js';

// Measurements by column (issue 46). A plot asks a name or two over 10,000 milestones, and reading 10,000 records of
// 1.1 KB in key order cost LMDB's range 25–30 ms alone. So the commit of a chunk's last milestone writes, for each
// measurement, its values over the chunk as one record (a column): a range reads a column a chunk for each name
// asked, and the records of the chunk still open.
//
// A column: which of the chunk's milestones were measured (a bitmap, bit i for the chunk's i-th milestone), which of
// those have this measurement (a bitmap), then the values of those, u64 little-endian, in milestone order.

/** Milestones a chunk: chunk c holds milestones c·CHUNK to c·CHUNK + CHUNK − 1. */
export const CHUNK = 1000;
const BITMAP = CHUNK / 8;
export const chunkOf = (index: number): number => Math.floor(index / CHUNK);
/** Whether a milestone is its chunk's last (its commit writes the chunk's columns). */
export const closesChunk = (index: number): boolean => index % CHUNK === CHUNK - 1;

/**
 * The columns of a chunk, from the records of its measured milestones, as writes: one for every measurement, so that
 * a chunk with its first measurement's column is whole; each sealed under its key (common/record-checks.ts).
 */
export function chunkColumns(chunk: number, records: { index: number; record: Uint8Array }[]) {
  const measured = new Uint8Array(BITMAP);
  const values = MEASUREMENT_NAMES.map(() => ({ present: new Uint8Array(BITMAP), values: [] as bigint[] }));
  for (const { index, record } of records) {
    const bit = index - chunk * CHUNK;
    if (chunkOf(index) !== chunk) throw new LedgerError('STORE_FAILURE', `milestone ${index} is not of chunk ${chunk}`);
    measured[bit >> 3]! |= 1 << (bit & 7);
    // By place, as the record names them: no name looked up a value.
    for (const { name: place, value } of readRecord(measurementsRecord, record, 'analytics')) {
      const v = values[place];
      if (v === undefined) throw new LedgerError('STORE_CORRUPT', `analytics: no measurement ${place}`);
      v.present[bit >> 3]! |= 1 << (bit & 7);
      v.values.push(value);
    }
  }
  return values.map((v, place): [Uint8Array, Uint8Array] => {
    const column = new Uint8Array(2 * BITMAP + 8 * v.values.length);
    column.set(measured, 0);
    column.set(v.present, BITMAP);
    const view = new DataView(column.buffer);
    v.values.forEach((x, i) => view.setBigUint64(2 * BITMAP + 8 * i, x, true));
    const key = keys.analyticsColumn(place, chunk);
    return [key, sealRecord(key, column)];
  });
}

/** Where measurements are read from: the chunks' columns asked, and the records of a range. */
export interface MeasuredSource {
  columns(places: number[], fromChunk: number, toChunk: number): Awaitable<AnalyticsColumn[]>;
  analytics(from: number, to: number): Awaitable<{ index: number; record: Uint8Array }[]>;
}
export interface AnalyticsColumn {
  place: number;
  chunk: number;
  column: Uint8Array;
}

/** The measured milestones from `from` to `to`, each with those of `names` it has, in order. */
export async function measuredRange(source: MeasuredSource, from: number, to: number, names: readonly string[]) {
  const wanted = placesOf(names);
  const places = [...wanted];
  const [first, last] = [chunkOf(from), chunkOf(to)];
  const byChunk = new Map<number, AnalyticsColumn[]>();
  for (const c of await source.columns(places, first, last)) {
    const found = byChunk.get(c.chunk) ?? [];
    found.push(c);
    byChunk.set(c.chunk, found);
  }
  const rows: (Measurements | undefined)[] = new Array(to - from + 1);
  // Chunks without every column asked are read from their records, a run of them at a time.
  const open: [number, number][] = [];
  for (let chunk = first; chunk <= last; chunk++) {
    const columns = byChunk.get(chunk);
    if (columns?.length === places.length) readColumns(columns, chunk, from, to, rows);
    else if (open.at(-1)?.[1] === chunk - 1) open.at(-1)![1] = chunk;
    else open.push([chunk, chunk]);
  }
  for (const [a, b] of open) {
    const records = await source.analytics(Math.max(from, a * CHUNK), Math.min(to, b * CHUNK + CHUNK - 1));
    for (const r of records) rows[r.index - from] = pickMeasurements(r.record, wanted);
  }
  const found: { index: number; measurements: Measurements }[] = [];
  rows.forEach((measurements, i) => {
    if (measurements !== undefined) found.push({ index: from + i, measurements });
  });
  return found;
}

const bitSet = (bytes: Uint8Array, at: number, bit: number) => (bytes[at + (bit >> 3)]! & (1 << (bit & 7))) !== 0;

/** The values of a chunk's columns into `rows` (the range from `from` to `to`, by milestone). */
function readColumns(
  columns: AnalyticsColumn[],
  chunk: number,
  from: number,
  to: number,
  rows: (Measurements | undefined)[],
) {
  const base = chunk * CHUNK;
  for (const { place, column } of columns) {
    let present = 0;
    for (let i = BITMAP; i < 2 * BITMAP && i < column.length; i++)
      for (let b = column[i]!; b !== 0; b &= b - 1) present++;
    if (column.length !== 2 * BITMAP + 8 * present)
      throw new LedgerError('STORE_CORRUPT', `the analytics column ${place} of chunk ${chunk} does not decode`);
    const name = MEASUREMENT_NAMES[place]!;
    const amount = isAmount(name);
    const view = new DataView(column.buffer, column.byteOffset, column.byteLength);
    let at = 2 * BITMAP;
    for (let bit = 0; bit < CHUNK; bit++) {
      const index = base + bit;
      const has = bitSet(column, BITMAP, bit);
      if (bitSet(column, 0, bit) && index >= from && index <= to) {
        rows[index - from] ??= {};
        const m = rows[index - from]!;
        if (has) m[name] = amount ? view.getBigUint64(at, true) : Number(view.getBigUint64(at, true));
      }
      if (has) at += 8;
    }
  }
}
