import type { AddressInfo } from 'node:net';
import { createServer } from '../../src/index.js';
import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';

// The damage tests' question (issue 57): what each route answers, status and body, from a fresh server of a store
// (so that no answer an earlier server kept hides the store's own), and what the server logged of damaged records.

/** Each route's status and body from a fresh server of `of` (no answer kept), and what it logged. */
export async function routeAnswers(of: LedgerReader, routes: string[]) {
  const logged: string[] = [];
  const server = createServer({ ledger: of, onStoreError: (e) => logged.push(`${e.code}: ${e.detail}`) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const found: [number, string][] = [];
  for (const route of routes) {
    const res = await fetch(origin + route);
    found.push([res.status, await res.text()]);
  }
  await new Promise((done) => server.close(done));
  return { found, logged };
}
