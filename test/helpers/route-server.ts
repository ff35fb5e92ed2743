import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createServer } from '../../src/index.js';
import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';

// The damage tests' server (issue 57): a fresh one per question, so that no answer an earlier server kept hides what
// the store holds now, logging the damaged records it met. (route-answers.ts asks it a list of routes at once.)

/**
 * A server of `of` on an ephemeral port: its origin, its get (status and body: JSON parsed, anything else as its
 * text, a cone's bytes say), what it logged of damaged records, its stop.
 */
export async function serve(of: LedgerReader) {
  const logged: string[] = [];
  const server = createServer({ ledger: of, onStoreError: (e) => logged.push(`${e.code}: ${e.detail}`) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (route: string) => {
    const res = await fetch(origin + route);
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  return { origin, get, logged, stop: () => new Promise((done) => server.close(done)) };
}

/**
 * Each route answers 500 from a fresh server of `of`, which logs STORE_CORRUPT once a route, naming the record as
 * `named` (a pattern: `.*\(key 0x…\)` for a key) matches.
 */
export async function expectStoreCorrupt(of: LedgerReader, routes: string[], named: string) {
  const { get, logged, stop } = await serve(of);
  for (const route of routes) expect((await get(route)).status, route).toBe(500);
  await stop();
  expect(logged.length).toBe(routes.length);
  for (const line of logged) expect(line).toMatch(new RegExp(`^STORE_CORRUPT: the stored ${named}`));
}
