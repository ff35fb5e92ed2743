import type { AddressInfo } from 'node:net';
import { createServer } from '../../src/http/server.js';
import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';

/** The API over a ledger (or a database reader) on a free port: `get` answers a route's status and JSON body. */
export async function serveJson(ledger: LedgerReader) {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (route: string) => {
      const res = await fetch(`${origin}${route}`);
      return { status: res.status, body: (await res.json()) as unknown };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
