// Every JSON answer a test file gets from a tangle-core server of the sources, checked against the published contract
// of its route after the file (issue 28): TIP-25 for /api/core/v2, TIP-26 for /api/indexer/v1, TIP-48 for
// /api/core/v3, with the reviewed errata of test/http/contracts-errata.json. An answer to a path no contract names
// (an unknown route) or with a status its route does not declare (hornet's and iota-core's own statuses beyond the
// TIP, counted in the summary) is not checked; the rest must conform. Error codes are written as integers by default
// (SPEC B4; `errorCodeAsString` writes hornet's strings): they are read as the strings they stand for.
import { afterAll } from 'vitest';
import { observeAnswers } from '../../src/http/server.js';
import { contractErrors, contractOf, declares, templateOf } from '../helpers/contracts.js';

interface Seen {
  method: string;
  url: string;
  status: number;
  body: string;
}
const seen: Seen[] = [];
observeAnswers((a) => seen.push(a));

afterAll(() => {
  observeAnswers(undefined);
  const problems: string[] = [];
  for (const a of seen) {
    const path = a.url.split('?')[0]!;
    const contract = contractOf(path);
    const method = a.method.toLowerCase();
    if (contract === undefined || (method !== 'get' && method !== 'post')) continue;
    const template = templateOf(contract, path);
    if (template === undefined || !declares(contract, template, method, a.status)) continue;
    let body: { error?: { code?: unknown } };
    try {
      body = JSON.parse(a.body);
    } catch {
      problems.push(`${a.method} ${a.url} ${a.status}: not JSON`);
      continue;
    }
    if (typeof body?.error?.code === 'number')
      body = { ...body, error: { ...body.error, code: String(body.error.code) } };
    const errors = contractErrors(contract, template, a.status, body, method);
    if (errors.length > 0) problems.push(`${a.method} ${a.url.slice(0, 120)} ${a.status}: ${errors.join('; ')}`);
  }
  seen.length = 0;
  if (problems.length > 0)
    throw new Error(`answers that break their contract:\n${[...new Set(problems)].slice(0, 20).join('\n')}`);
});
