import { measurementsFromRecord } from '../ledger/analytics/index.js';
import type { LedgerReader } from '../ledger/core/index.js';
import { HttpProblem } from './problem.js';
import { JSON_TYPE, parseUint32, type Route } from './route-kit.js';

// A milestone's analytics (issue 46), measured as it was applied and stored in its commit: inx-chronicle's names and
// meanings, counts as numbers and token amounts as strings (they pass 2^53).

/** `{"milestoneIndex": N, "measurements": {name: value}}` of a milestone whose analytics are kept. */
async function milestoneAnalytics(ledger: LedgerReader, param: string) {
  const index = parseUint32(param, 'milestone index');
  const record = (await ledger.milestone?.(index))?.analytics;
  if (record === undefined) throw new HttpProblem(404, `no analytics kept for milestone ${index}`);
  const measurements = Object.fromEntries(
    Object.entries(measurementsFromRecord(record)).map(([name, v]) => [name, typeof v === 'bigint' ? String(v) : v]),
  );
  // A milestone's analytics never change once written.
  return { body: JSON.stringify({ milestoneIndex: index, measurements }), contentType: JSON_TYPE, immutable: true };
}

export const analyticsRoutes: Route[] = [
  {
    pattern: '/api/analytics/v1/milestones/*',
    path: /^\/api\/analytics\/v1\/milestones\/([^/]*)$/,
    handle: ({ ledger, params }) => milestoneAnalytics(ledger, params[0]!),
  },
];
