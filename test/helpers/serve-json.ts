import type { AddressInfo } from 'node:net';
import { createServer } from '../../src/http/server.js';
import type { LedgerReader } from '../../src/ledger/core/ledger-reader.js';

/**
 * The API over a ledger (or a database reader) on a free port: `get` answers a route's status and JSON body (or text,
 * where it is not JSON: a CSV), and its Link header.
 */
export async function serveJson(ledger: LedgerReader) {
  const server = createServer({ ledger });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (route: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${origin}${route}`, { headers });
      const json = res.headers.get('content-type')?.includes('json') === true;
      return {
        status: res.status,
        body: (json ? await res.json() : await res.text()) as unknown,
        link: res.headers.get('link'),
      };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
