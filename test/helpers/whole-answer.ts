import { expect } from 'vitest';

// An answer a server may send in parts (http/server.ts: a list of byte arrays, as the analytics range is) checked
// whole three ways: its bytes as sent, the Content-Length a HEAD gives, and its gzip (fetch inflates it).

/** Expects `url` to answer exactly `want`, plain, as HEAD and gzipped (above the server's 1 kB threshold). */
export async function expectWholeAnswer(url: string, want: string, label: string): Promise<void> {
  const identity = { 'accept-encoding': 'identity' }; // (fetch asks gzip unless told)
  expect(await (await fetch(url, { headers: identity })).text(), label).toBe(want);
  const head = await fetch(url, { method: 'HEAD', headers: identity });
  expect(head.headers.get('content-length'), `${label} HEAD`).toBe(String(Buffer.byteLength(want)));
  const zipped = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  expect([zipped.headers.get('content-encoding'), await zipped.text()], `${label} gzip`).toEqual([
    want.length > 1024 ? 'gzip' : null,
    want,
  ]);
}
