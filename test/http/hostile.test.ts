// Hostile HTTP (issue 6): each abuse gets its status in the usual envelope, and the server answers normally after.

import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
let ledger: Ledger;
let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  const sim = new Simulation({ params, seed: 4 });
  ledger = openLedger({ params, genesis: sim.genesis(), clock: () => 1_700_000_000 + 100 });
  for (let slot = 1; slot <= 10; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
  const server = createServer({ ledger, headersTimeoutMs: 600, requestTimeoutMs: 1200 });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((done) => server.close(() => done()));
});
afterAll(() => close());

/** Sends raw bytes (optionally in timed pieces) and returns the status line and body the server answers with. */
function raw(pieces: (string | number)[]): Promise<{ status: number; head: string; body: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', fail);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      const end = data.indexOf('\r\n\r\n');
      done({ status, head: data.slice(0, end), body: data.slice(end + 4) });
    });
    (async () => {
      for (const p of pieces) {
        if (typeof p === 'number') await new Promise((r) => setTimeout(r, p));
        else if (!socket.destroyed) socket.write(p, 'latin1');
      }
    })();
  });
}

/**
 * How many characters of `message` repeat `input`: the total length of the runs of 8 or more characters of the message
 * that occur in the input (case-insensitive: the congestion route lower-cases its parameter). Counts every repeat.
 */
function echoed(message: string, input: string): number {
  const m = message.toLowerCase();
  const text = input.toLowerCase();
  let total = 0;
  for (let i = 0; i < m.length; ) {
    let j = i;
    while (j < m.length && text.includes(m.slice(i, j + 1))) j++;
    if (j - i >= 8) {
      total += j - i;
      i = j;
    } else i++;
  }
  return total;
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`;
const healthy = async () =>
  expect((await raw([get('/api/core/v3/commitments/by-slot/10/utxo-changes')])).status).toBe(200);

describe('hostile requests', () => {
  it('oversize URL → 414; oversize headers → 431, in the envelope', async () => {
    const url = await raw([get(`/api/core/v3/commitments/by-slot/${'1'.repeat(9000)}/utxo-changes`)]);
    expect(url.status).toBe(414);
    expect(JSON.parse(url.body).error.code).toBe(414);
    const headers = await raw([
      get('/api/core/v3/commitments/by-slot/1/utxo-changes', `X-Big: ${'a'.repeat(20_000)}\r\n`),
    ]);
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body).error.code).toBe(431);
    await healthy();
  });
  it('bad percent-encoding, invalid UTF-8, control characters, garbage request lines → 400', async () => {
    for (const path of [
      '/api/core/v3/commitments/by-slot/%zz/utxo-changes',
      '/api/core/v3/accounts/%C3%28/congestion',
      '/api/core/v2/transactions/%00%ff/included-block',
    ]) {
      const a = await raw([get(path)]);
      expect(a.status, path).toBe(400);
      expect(JSON.parse(a.body).error.message).toMatch(/^invalid data provided/);
    }
    expect((await raw(['\x16\x03\x01 not http at all\r\n\r\n'])).status).toBe(400);
    expect((await raw(['GET /\x00 HTTP/1.1\r\n\r\n'])).status).toBe(400);
    await healthy();
  });
  it('a client that sends headers too slowly gets 408 and is disconnected', async () => {
    // Headers that never end: the server must answer 408 when its header timeout passes, then close. The client writes
    // nothing after the answer could come (a write after the server's close would make the kernel reset the
    // connection and lose the answer), so the answer is observed whatever the machine's speed.
    const slow = await raw(['GET /api/core/v3/commitments/by-slot/1/utxo-changes HTTP/1.1\r\n', 'Host: x\r\n']);
    expect(slow.status).toBe(408);
    expect(JSON.parse(slow.body)).toEqual({ error: { code: 408, message: 'request timeout' } });
    await healthy();
  });
  it("a URL over 8 KiB is 414 at every length, also past the header parser's 16 KiB limit; headers are 431", async () => {
    for (const length of [8193, 9000, 16_000, 16_384, 17_000, 64_000, 70_000, 1_000_000]) {
      const path = `/api/core/v3/commitments/by-slot/${'1'.repeat(length - 46)}/utxo-changes`;
      expect(path.length).toBe(length);
      const a = await raw([get(path)]);
      expect(a.status, String(length)).toBe(414);
      expect(JSON.parse(a.body).error.code).toBe(414);
    }
    // Short URL, headers over the limit: 431, not 414.
    const headers = await raw([get('/health', `X-Big: ${'a'.repeat(17_000)}\r\n`)]);
    expect(headers.status).toBe(431);
    await healthy();
  });
  it('CONNECT (a proxy tunnel) is answered 405 in the envelope with Allow, and the connection closed', async () => {
    const a = await raw(['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
    expect(a.status).toBe(405);
    expect(a.head).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/);
    expect(JSON.parse(a.body)).toEqual({ error: { code: 405, message: 'method not allowed' } });
    await healthy();
  });
  it('a GET that trickles a body is answered without waiting for it; POST/PUT/DELETE with bodies → 405; HEAD and OPTIONS with bodies are answered', async () => {
    const trickle = await raw([
      `GET /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.1\r\nHost: x\r\nConnection: ` +
        `close\r\nContent-Length: 100000\r\n\r\n`,
      'a'.repeat(100),
      300,
      'b'.repeat(100),
    ]);
    expect(trickle.status).toBe(200);
    for (const [method, status] of [
      ['POST', 405],
      ['PUT', 405],
      ['DELETE', 405],
      ['HEAD', 200],
      ['OPTIONS', 204],
    ] as const) {
      const a = await raw([
        `${method} /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.1\r\nHost: x\r\nConnection: ` +
          `close\r\nContent-Length: 5\r\n\r\nhello`,
      ]);
      expect(a.status, method).toBe(status);
    }
    await healthy();
  });
  it('requests Node would refuse before a handler come in the envelope: no Host (HTTP/1.1), an unsupported Expect', async () => {
    const noHost = await raw([
      'GET /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.1\r\nConnection: close\r\n\r\n',
    ]);
    expect(noHost.status).toBe(400);
    expect(JSON.parse(noHost.body).error.message).toBe(
      'invalid data provided: an HTTP/1.1 request needs a Host header',
    );
    // HTTP/1.0 has no Host header to require.
    expect((await raw(['GET /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.0\r\n\r\n'])).status).toBe(200);
    const expect417 = await raw([
      get('/api/core/v3/commitments/by-slot/10/utxo-changes', 'Expect: something-else\r\n'),
    ]);
    expect(expect417.status).toBe(417);
    expect(JSON.parse(expect417.body)).toEqual({
      error: { code: 417, message: 'expectation failed: only "Expect: 100-continue" is supported' },
    });
    const cont = await raw([get('/api/core/v3/commitments/by-slot/10/utxo-changes', 'Expect: 100-continue\r\n')]);
    expect(cont.status).toBe(100); // the interim answer first, then the request is served
    expect(cont.body).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    await healthy();
  });
  it('the asterisk form: OPTIONS * describes the server (204), any other method on * is not a route (404)', async () => {
    expect((await raw(['OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'])).status).toBe(204);
    const star = await raw(['GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(star.status).toBe(404);
    expect(JSON.parse(star.body).error.code).toBe(404);
  });
  it('a URL of exactly 8 KiB is served; one byte more is 414', async () => {
    const path = '/api/core/v3/commitments/by-slot/10/utxo-changes?';
    const at = (n: number) => raw([get(`${path}${'x'.repeat(n - path.length)}`)]);
    expect((await at(8192)).status).toBe(200);
    expect((await at(8193)).status).toBe(414);
  });
  it('an absolute-form request target (RFC 9112 §3.2.2) is routed like its path', async () => {
    const absolute = await raw([get('http://node.example:14265/api/core/v3/commitments/by-slot/10/utxo-changes?x=1')]);
    const plain = await raw([get('/api/core/v3/commitments/by-slot/10/utxo-changes')]);
    expect(absolute.status).toBe(200);
    expect(absolute.body).toBe(plain.body);
    expect((await raw([get('ftp://node.example/api')])).status).toBe(400);
    expect((await raw([get('junkhttp://node.example/api/core/v3/commitments/by-slot/10/utxo-changes')])).status).toBe(
      400,
    );
  });
  it('%2F inside a path parameter is part of the parameter, never a separator', async () => {
    // Raw segments: by-slot/{10%2Futxo-changes} has no utxo-changes segment after it, so no route matches: 404.
    expect((await raw([get('/api/core/v3/commitments/by-slot/10%2Futxo-changes')])).status).toBe(404);
    // The parameter "1/0" (a slash inside): the route matches and refuses the parameter: 400.
    const slashed = await raw([get('/api/core/v3/commitments/by-slot/1%2F0/utxo-changes')]);
    expect(slashed.status).toBe(400);
    expect(JSON.parse(slashed.body).error.message).toBe('invalid data provided: invalid slot: 1/0');
    // Other escapes decode as usual: %31%30 is "10".
    expect((await raw([get('/api/core/v3/commitments/by-slot/%31%30/utxo-changes')])).status).toBe(200);
    const tx = `/api/core/v2/transactions/0x${'ab'.repeat(16)}%2F${'ab'.repeat(15)}a/included-block`;
    expect((await raw([get(tx)])).status).toBe(400);
  });
  it('no error message repeats more than 100 characters of its input, the bech32 reason included', async () => {
    const long = (n: number, unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const bech32Like = `rms1${long(86, 'qpzry9x8')}`; // right length, bad checksum: the library's reason repeats it
    const inputs: [string, string][] = [
      [`/api/core/v2/transactions/${long(7000, 'z')}/included-block`, long(7000, 'z')],
      [`/api/core/v2/transactions/0x${long(6000, 'a')}/included-block`, `0x${long(6000, 'a')}`],
      [`/api/core/v3/commitments/by-slot/${long(7000, '9')}/utxo-changes`, long(7000, '9')],
      [`/api/core/v3/accounts/${long(7000, 'rms1q')}/congestion`, long(7000, 'rms1q')],
      [`/api/core/v3/accounts/${bech32Like}/congestion`, bech32Like],
      [
        `/api/core/v3/accounts/${bech32Like.toUpperCase().slice(0, 45)}${bech32Like.slice(45)}/congestion`,
        bech32Like.slice(45),
      ],
      [`/api/core/v3/accounts/${'smr1'}${long(86, 'qpzry9x8')}/congestion`, long(86, 'qpzry9x8')],
      [`/api/core/v3/accounts/rms1${long(100, 'b')}/congestion`, long(100, 'b')],
      [`/api/core/v3/accounts/rms1${long(80, 'q')}b/congestion`, long(80, 'q')],
      [`/api/core/v3/accounts/${long(80, 'x')}/congestion`, long(80, 'x')],
    ];
    for (const [path, input] of inputs) {
      const a = await raw([get(path)]);
      expect(a.status, path.slice(0, 60)).toBe(400);
      const message: string = JSON.parse(a.body).error.message;
      expect(echoed(message, input), `${path.slice(0, 60)}: ${message}`).toBeLessThanOrEqual(100);
    }
  });
  it('many connections that open and say nothing do not stop the server', async () => {
    const idle = Array.from({ length: 50 }, () => connect(port, '127.0.0.1'));
    await healthy();
    idle.forEach((s) => s.destroy());
  });
});
