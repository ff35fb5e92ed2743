// Hostile HTTP (issue 6): each abuse gets its status in the usual envelope, and the server answers normally after.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, openLedger, PROTOCOL_PARAMETERS, protocolParameters, type Ledger } from '../../src/index.js';
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
function raw(pieces: (string | number)[]): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', fail);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      done({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    (async () => {
      for (const p of pieces) {
        if (typeof p === 'number') await new Promise((r) => setTimeout(r, p));
        else if (!socket.destroyed) socket.write(p, 'latin1');
      }
    })();
  });
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`;
const healthy = async () => expect((await raw([get('/api/core/v3/commitments/by-slot/10/utxo-changes')])).status).toBe(200);

describe('hostile requests', () => {
  it('oversize URL → 414; oversize headers → 431, in the envelope', async () => {
    const url = await raw([get(`/api/core/v3/commitments/by-slot/${'1'.repeat(9000)}/utxo-changes`)]);
    expect(url.status).toBe(414);
    expect(JSON.parse(url.body).error.code).toBe(414);
    const headers = await raw([get('/api/core/v3/commitments/by-slot/1/utxo-changes', `X-Big: ${'a'.repeat(20_000)}\r\n`)]);
    expect(headers.status).toBe(431);
    expect(JSON.parse(headers.body).error.code).toBe(431);
    await healthy();
  });
  it('bad percent-encoding, invalid UTF-8, control characters, garbage request lines → 400', async () => {
    for (const path of ['/api/core/v3/commitments/by-slot/%zz/utxo-changes', '/api/core/v3/accounts/%C3%28/congestion', '/api/core/v2/transactions/%00%ff/included-block']) {
      const a = await raw([get(path)]);
      expect(a.status, path).toBe(400);
      expect(JSON.parse(a.body).error.message).toMatch(/^invalid data provided/);
    }
    expect((await raw(['\x16\x03\x01 not http at all\r\n\r\n'])).status).toBe(400);
    expect((await raw(['GET /\x00 HTTP/1.1\r\n\r\n'])).status).toBe(400);
    await healthy();
  });
  it('a client that sends headers too slowly gets 408 and is disconnected', async () => {
    const slow = await raw(['GET /api/core/v3/commitments/by-slot/1/utxo-changes HTTP/1.1\r\n', 300, 'Host: x\r\n', 700, 'X-Late: 1\r\n', 900, '\r\n']);
    expect([408, 0]).toContain(slow.status); // Node answers 408, or closes when the socket times out first
    await healthy();
  });
  it('a GET that trickles a body is answered without waiting for it; POST/HEAD/OPTIONS with bodies → 405', async () => {
    const trickle = await raw([`GET /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 100000\r\n\r\n`, 'a'.repeat(100), 300, 'b'.repeat(100)]);
    expect(trickle.status).toBe(200);
    for (const method of ['POST', 'HEAD', 'OPTIONS', 'PUT']) {
      const a = await raw([`${method} /api/core/v3/commitments/by-slot/10/utxo-changes HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello`]);
      expect(a.status, method).toBe(405);
    }
    await healthy();
  });
  it('many connections that open and say nothing do not stop the server', async () => {
    const idle = Array.from({ length: 50 }, () => connect(port, '127.0.0.1'));
    await healthy();
    idle.forEach((s) => s.destroy());
  });
});
