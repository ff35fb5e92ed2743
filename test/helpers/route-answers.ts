import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';
import { serve } from './route-server.js';

// The damage tests' question (issue 57): what each route answers, status and body, from a fresh server of a store
// (so that no answer an earlier server kept hides the store's own), and what the server logged of damaged records.

/** Each route's status and body from a fresh server of `of` (no answer kept), and what it logged. */
export async function routeAnswers(of: LedgerReader, routes: string[]) {
  const { origin, logged, stop } = await serve(of);
  const found: [number, string][] = [];
  for (const route of routes) {
    const res = await fetch(origin + route);
    found.push([res.status, await res.text()]);
  }
  await stop();
  return { found, logged };
}
