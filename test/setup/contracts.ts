// Every JSON answer a test file gets from a tangle-core server of the sources, checked against the published contract
// of its route after the file (issue 28): TIP-25 for /api/core/v2, TIP-26 for /api/indexer/v1, TIP-48 for
// /api/core/v3, with the reviewed errata of test/http/core/contracts-errata.json. An answer to a path no contract names
// (an unknown route) or with a status its route does not declare (hornet's and iota-core's own statuses beyond the
// TIP, counted in the summary) is not checked; the rest must conform. Error codes are written as integers by default
// (SPEC B4; `errorCodeAsString` writes hornet's strings): they are read as the strings they stand for.
//
// Most files start no server: they load neither the API (the observer is set through its registered symbol, as
// observeAnswers in src/http/server.ts sets it) nor the validators (Ajv, the YAML reader, the contracts: loaded after
// the file, by a file that got an answer). Loading them in every file's setup took 7 to 15 s of a one-file run of
// test/codec/hex.test.ts on the shared machine, 0.2 to 0.4 s without.
import { afterAll } from 'vitest';
import type { ObservedAnswer } from '../../src/http/server.js';

const OBSERVER = Symbol.for('tangle-core.observeAnswers');
const observers = globalThis as { [OBSERVER]?: ((answer: ObservedAnswer) => void) | undefined };
const observeAnswers = (fn: ((answer: ObservedAnswer) => void) | undefined) => {
  observers[OBSERVER] = fn;
};

interface Seen {
  method: string;
  url: string;
  status: number;
  body: string;
}
const seen: Seen[] = [];
observeAnswers((a) => seen.push(a));

afterAll(async () => {
  observeAnswers(undefined);
  if (seen.length === 0) return;
  const { contractErrors, contractOf, declares, templateOf } = await import('../helpers/contracts.js');
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
}, 180_000); // loading and compiling the validators took over vitest's 10 s for a hook with two suites on two cores
