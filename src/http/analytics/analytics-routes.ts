import {
  type LedgerReader,
  MEASUREMENT_NAMES,
  type Measurements,
  measuredRange,
  measurementsFromRecord,
  pickMeasurements,
  placesOf,
} from '../../ledger/index.js';
import {
  HttpProblem,
  JSON_TYPE,
  parseUint32,
  quote,
  type Reply,
  type Route,
  type RouteContext,
  wants,
} from '../kit/index.js';
import { rangeRows } from './range-fragments.js';

// A milestone's analytics (issue 46), measured as it was applied and stored in its commit: inx-chronicle's names and
// meanings, counts as numbers and token amounts as strings (they pass 2^53). One milestone, or a range for plotting
// (JSON, or CSV with a column per measurement).

/** The most milestones a range answers (a day of Shimmer's milestones is about 17,000). */
const MAX_RANGE = 100_000;
const CSV_TYPE = 'text/csv; charset=utf-8';
/** (Not a Buffer: this module loads in a browser too, through the package's index.) */
const CLOSE = new TextEncoder().encode(']}');

const asJson = (m: Measurements, names: readonly string[]) =>
  Object.fromEntries(names.filter((n) => n in m).map((n) => [n, typeof m[n] === 'bigint' ? String(m[n]) : m[n]]));

/** `{"milestoneIndex": N, "measurements": {name: value}}` of a milestone whose analytics are kept. */
async function milestoneAnalytics(ledger: LedgerReader, param: string): Promise<Reply> {
  const index = parseUint32(param, 'milestone index');
  const record = (await ledger.analytics?.(index, index))?.[0]?.record;
  if (record === undefined) throw new HttpProblem(404, `no analytics kept for milestone ${index}`);
  const body = { milestoneIndex: index, measurements: asJson(measurementsFromRecord(record), MEASUREMENT_NAMES) };
  // A milestone's analytics never change once written.
  return { body: JSON.stringify(body), contentType: JSON_TYPE, immutable: true };
}

/** The measured milestones of a range: from the columns of whole chunks and the open chunk's records. */
async function measured(ledger: LedgerReader, from: number, to: number, names: readonly string[]) {
  const explorer = ledger.explorer?.();
  if (explorer !== undefined) return measuredRange(explorer, from, to, names);
  const places = placesOf(names);
  const records = (await ledger.analytics?.(from, to)) ?? [];
  return records.map((r) => ({ index: r.index, measurements: pickMeasurements(r.record, places) }));
}

/** `?from&to&names`: the measured milestones of the range, each with the measurements asked (default all). */
async function rangeAnalytics({ ledger, query, accept, server }: RouteContext): Promise<Reply> {
  for (const name of query.keys()) {
    if (!['from', 'to', 'names'].includes(name))
      throw new HttpProblem(400, `unknown query parameter for this route: ${quote(name)}`);
  }
  const [fromText, toText] = [query.get('from'), query.get('to')];
  if (fromText === null || toText === null) throw new HttpProblem(400, 'query parameters from and to are required');
  const from = parseUint32(fromText, 'from');
  const to = parseUint32(toText, 'to');
  if (to < from) throw new HttpProblem(400, `to (${to}) is before from (${from})`);
  if (to - from >= MAX_RANGE) throw new HttpProblem(400, `a range holds at most ${MAX_RANGE} milestones`);
  const names = query.get('names')?.split(',') ?? MEASUREMENT_NAMES;
  const unknown = names.find((n) => !MEASUREMENT_NAMES.includes(n));
  if (unknown !== undefined) throw new HttpProblem(400, `unknown measurement: ${quote(unknown)}`);
  if (!wants(accept, 'text/csv')) {
    // JSON rows rendered once and kept (range-fragments.ts): the same bytes as one stringify.
    const render = async (a: number, b: number) =>
      (await measured(ledger, a, b, names)).map((r) => ({
        index: r.index,
        json: JSON.stringify({ milestoneIndex: r.index, measurements: asJson(r.measurements, names) }),
      }));
    const firstMeasured = async () => ledger.explorer?.().firstArchived();
    const rows = await rangeRows({ ledger, server }, { from, to, names }, render, firstMeasured);
    const head = Buffer.from(`{"from":${from},"to":${to},"milestones":[`);
    return { body: [head, ...rows, CLOSE], contentType: JSON_TYPE };
  }
  const rows = await measured(ledger, from, to, names);
  const lines = rows.map((r) => [r.index, ...names.map((n) => String(r.measurements[n] ?? ''))].join(','));
  return {
    body: `${['milestoneIndex', ...names].join(',')}\n${lines.map((l) => `${l}\n`).join('')}`,
    contentType: CSV_TYPE,
  };
}

export const analyticsRoutes: Route[] = [
  {
    pattern: '/api/analytics/v1/milestones',
    path: /^\/api\/analytics\/v1\/milestones$/,
    handle: rangeAnalytics,
  },
  {
    pattern: '/api/analytics/v1/milestones/*',
    path: /^\/api\/analytics\/v1\/milestones\/([^/]*)$/,
    handle: ({ ledger, params }) => milestoneAnalytics(ledger, params[0]!),
  },
];
