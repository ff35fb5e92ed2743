// The node API over real HTTP (SPEC B4): every row of the error table, the envelope, content types, both binary forms,
// JWT-protected routes, sync, unknown paths and methods, CORS and gzip.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '../../src/codec/index.js';
import { includedBlockJson } from '../../src/http/routes.js';
import {
  addressToBech32,
  blockFromJson,
  blockToJson,
  congestionResponse,
  createServer,
  decodeBlock,
  encodeBlock,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
  utxoChangesResponse,
  type Ledger,
} from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { hex, loadVectors } from '../helpers/vectors.js';

const GENESIS = 1_700_000_000;
const SLOTS = 30;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const clock = () => GENESIS + SLOTS * 10; // the node is synced at slot 30

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: () => any;
}

function call(origin: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(origin + path, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        done({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

async function listen(ledger: Ledger, options: Parameters<typeof createServer>[0] extends infer O ? Omit<O, 'ledger'> : never = {}) {
  const server = createServer({ ledger, ...options });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

let ledger: Ledger;
let sim: Simulation;
let api: Awaited<ReturnType<typeof listen>>;
let txId: Uint8Array;
let account: string;

beforeAll(async () => {
  sim = new Simulation({ params, seed: 3 });
  ledger = openLedger({ params, genesis: sim.genesis(), clock });
  for (let slot = 1; slot <= SLOTS; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
  txId = ledger.utxoChanges(SLOTS).createdOutputs[0]!.subarray(0, 32);
  account = addressToBech32({ type: 8, aliasId: sim.accounts.worker }, 'rms');
  api = await listen(ledger);
});
afterAll(() => api.close());

const tx = () => `/api/core/v2/transactions/${toHex(txId)}/included-block`;
const utxo = (slot: string | number) => `/api/core/v3/commitments/by-slot/${slot}/utxo-changes`;
const congestion = (address: string, query = '') => `/api/core/v3/accounts/${address}/congestion${query}`;

function expectError(a: Answer, status: number) {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toBe('application/json');
  const body = a.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(status);
  const text = { 400: 'invalid data provided', 403: 'not available for public use', 404: 'could not find data', 405: 'method not allowed', 414: 'request URI too long', 500: 'internal server error', 503: 'service unavailable' }[status]!;
  expect(body.error.message.startsWith(text)).toBe(true);
  expect(body.error.message).not.toMatch(/\n\s+at /); // never a stack trace
  return body.error.message as string;
}

describe('GET /api/core/v2/transactions/:transactionId/included-block', () => {
  it('200: the block that applied the transaction, as hornet writes it', async () => {
    const a = await call(api.origin, tx());
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    const found = ledger.includedBlock(txId);
    expect(a.body.toString()).toBe(includedBlockJson(found.json));
    expect(encodeBlock(blockFromJson(a.json()))).toEqual(found.bytes);
  });
  it('200 binary (serializer-v1): the stored block bytes; upper-case IDs accepted', async () => {
    const a = await call(api.origin, tx().replace(toHex(txId).slice(2), toHex(txId).slice(2).toUpperCase()), { headers: { accept: 'application/vnd.iota.serializer-v1' } });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/vnd.iota.serializer-v1');
    expect(new Uint8Array(a.body)).toEqual(ledger.includedBlock(txId).bytes);
  });
  it('400: not 0x + 64 hex digits', async () => {
    for (const bad of ['0x123', 'abcd', `0x${'a'.repeat(63)}`, `0x${'a'.repeat(72)}`, `0x${'g'.repeat(64)}`]) {
      expectError(await call(api.origin, `/api/core/v2/transactions/${bad}/included-block`), 400);
    }
  });
  it('404: unknown transaction', async () => {
    expectError(await call(api.origin, `/api/core/v2/transactions/0x${'ab'.repeat(32)}/included-block`), 404);
  });
  it('the API vectors: our body is hornet\'s byte for byte (the one with an NFT output is out of scope)', () => {
    const [basicOnly, withNft] = loadVectors('api/stardust-included-block.json').cases;
    expect(includedBlockJson(blockToJson(decodeBlock(hex(basicOnly.response200BinaryHex))))).toBe(basicOnly.response200JsonHornetBytes);
    expect(() => decodeBlock(hex(withNft.response200BinaryHex))).toThrow(/UNSUPPORTED_TYPE at payload\.essence\.outputs\[0\].*NFT Output/);
  });
});

describe('GET /api/core/v3/commitments/by-slot/:slot/utxo-changes', () => {
  it('200 JSON and binary (serializer-v2) agree with the ledger', async () => {
    const expected = ledger.utxoChanges(SLOTS);
    const a = await call(api.origin, utxo(SLOTS));
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.json()).toEqual({ commitmentId: toHex(expected.commitmentId), createdOutputs: expected.createdOutputs.map(toHex), consumedOutputs: expected.consumedOutputs.map(toHex) });
    const b = await call(api.origin, utxo(SLOTS), { headers: { accept: 'application/vnd.iota.serializer-v2' } });
    expect(b.headers['content-type']).toBe('application/vnd.iota.serializer-v2');
    expect(decode(utxoChangesResponse, new Uint8Array(b.body))).toEqual(expected);
    expect((await call(api.origin, utxo(`000${SLOTS}`))).status).toBe(200); // leading zeros, as iota-core
  });
  it('400: not a base-10 uint32', async () => {
    for (const bad of ['abc', '-1', '4294967296', '0x10', '1.5', '']) expectError(await call(api.origin, utxo(bad)), bad === '' ? 400 : 400);
  });
  it('404: after the latest commitment, the genesis slot', async () => {
    expect(expectError(await call(api.origin, utxo(SLOTS + 1)), 404)).toMatch(/future slot/);
    expectError(await call(api.origin, utxo(0)), 404);
  });
  it('400 before genesis; 404 for a pruned slot', async () => {
    const late = protocolParameters(params, { genesisSlot: 5 });
    const l = openLedger({ params: late, clock });
    l.commitSlot(6);
    l.commitSlot(7);
    l.prune(7);
    const s = await listen(l);
    expectError(await call(s.origin, utxo(3)), 400);
    expectError(await call(s.origin, utxo(6)), 404);
    expect((await call(s.origin, utxo(7))).status).toBe(200);
    await s.close();
  });
});

describe('GET /api/core/v3/accounts/:bech32Address/congestion', () => {
  it('200 JSON and binary agree with the ledger; workScore and commitmentId are honoured', async () => {
    const a = await call(api.origin, congestion(account));
    expect(a.status).toBe(200);
    const expected = ledger.congestion(sim.accounts.worker);
    expect(a.json()).toEqual({ slot: expected.slot, ready: expected.ready, referenceManaCost: String(expected.referenceManaCost), blockIssuanceCredits: String(expected.blockIssuanceCredits) });
    const b = await call(api.origin, congestion(account), { headers: { accept: 'application/vnd.iota.serializer-v2' } });
    expect(b.body.length).toBe(21);
    expect(decode(congestionResponse, new Uint8Array(b.body))).toEqual(expected);
    const older = ledger.commitmentOf(SLOTS - 3)!;
    const c = await call(api.origin, congestion(account.toUpperCase(), `?workScore=4294967295&commitmentId=${toHex(older.commitmentId)}`));
    expect(c.json()).toMatchObject({ slot: SLOTS - 3, ready: true, referenceManaCost: String(older.commitment.referenceManaCost) });
    // the simulation's poor account went negative: not ready
    const poor = addressToBech32({ type: 8, aliasId: sim.accounts.poor }, 'rms');
    expect((await call(api.origin, congestion(poor))).json()).toMatchObject({ ready: false });
  });
  it('400: bad bech32, wrong HRP, not an account address, bad workScore or commitmentId', async () => {
    const ed = addressToBech32({ type: 0, pubKeyHash: new Uint8Array(32) }, 'rms');
    const smr = addressToBech32({ type: 8, aliasId: sim.accounts.worker }, 'smr');
    for (const path of [
      congestion('rms1notbech32'),
      congestion(account.slice(0, -1) + (account.endsWith('q') ? 'p' : 'q')),
      congestion(smr),
      congestion(ed),
      congestion(account, '?workScore=-1'),
      congestion(account, '?workScore=4294967296'),
      congestion(account, '?workScore=abc'),
      congestion(account, '?commitmentId=0x1234'),
      congestion(account, `?commitmentId=${'0'.repeat(74)}`),
    ]) {
      expectError(await call(api.origin, path), 400);
    }
  });
  it('404: unknown account, commitment of a future slot', async () => {
    expectError(await call(api.origin, congestion(addressToBech32({ type: 8, aliasId: new Uint8Array(32).fill(9) }, 'rms'))), 404);
    const future = new Uint8Array(36);
    new DataView(future.buffer).setUint32(32, SLOTS + 5, true);
    expectError(await call(api.origin, congestion(account, `?commitmentId=${toHex(future)}`)), 404);
  });
  it('500: a commitment ID that does not match the store; one older than latest − maxCommittableAge', async () => {
    const wrong = ledger.latestCommitment().commitmentId.slice();
    wrong[3]! ^= 1;
    expectError(await call(api.origin, congestion(account, `?commitmentId=${toHex(wrong)}`)), 500);
    const old = ledger.commitmentOf(SLOTS - params.maxCommittableAge - 1)!.commitmentId;
    expectError(await call(api.origin, congestion(account, `?commitmentId=${toHex(old)}`)), 500);
  });
  it('503 when not synced, before any parameter is checked', async () => {
    ledger.setSynced(false);
    try {
      expectError(await call(api.origin, congestion('not-even-bech32')), 503);
      expect((await call(api.origin, utxo(SLOTS))).status).toBe(200); // only the congestion route
    } finally {
      ledger.setSynced(undefined);
    }
  });
});

describe('access, methods, paths, headers', () => {
  const secret = 'a secret of the node operator, long enough for HS256';
  const key = new TextEncoder().encode(secret);
  const token = (k = key, exp = '1h') => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(k);

  it('403 on a protected route without a token, with a wrong, expired or unsigned one; 200 with a valid one', async () => {
    const s = await listen(ledger, { publicRoutes: ['/api/core/v3/*'], jwtSecret: secret });
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    expectError(await call(s.origin, tx()), 403);
    expectError(await call(s.origin, tx(), { headers: bearer(await token(new TextEncoder().encode('another secret, also long enough'))) }), 403);
    expectError(await call(s.origin, tx(), { headers: bearer(await token(key, '-1m')) }), 403);
    expectError(await call(s.origin, tx(), { headers: bearer(new UnsecuredJWT({}).encode()) }), 403);
    expectError(await call(s.origin, tx(), { headers: { authorization: 'Basic abc' } }), 403);
    expect((await call(s.origin, tx(), { headers: bearer(await token()) })).status).toBe(200);
    expect((await call(s.origin, utxo(SLOTS))).status).toBe(200); // still public
    await s.close();
  });
  it('404 for unknown paths, 405 with Allow for other methods, 414 for long URLs', async () => {
    expectError(await call(api.origin, '/api/core/v2/info'), 404);
    expectError(await call(api.origin, tx() + '/'), 404);
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']) {
      const a = await call(api.origin, tx(), { method });
      expect(a.status).toBe(405);
      expect(a.headers.allow).toBe('GET');
    }
    expectError(await call(api.origin, `/api/core/v2/transactions/${'x'.repeat(9000)}/included-block`), 414);
  });
  it('CORS when an Origin is sent; gzip for bodies over 1 KiB when asked', async () => {
    expect((await call(api.origin, utxo(SLOTS))).headers['access-control-allow-origin']).toBeUndefined();
    expect((await call(api.origin, utxo(SLOTS), { headers: { origin: 'https://example.org' } })).headers['access-control-allow-origin']).toBe('*');
    const plain = await call(api.origin, tx());
    expect(plain.body.length).toBeGreaterThan(1024);
    const zipped = await call(api.origin, tx(), { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
    const small = await call(api.origin, congestion(account), { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Origin, Accept-Encoding');
  });
  it('error codes as strings when configured (hornet/iota-core clients)', async () => {
    const s = await listen(ledger, { errorCodeAsString: true });
    const a = await call(s.origin, utxo(SLOTS + 1));
    expect(a.json().error.code).toBe('404');
    await s.close();
  });
  it('a failing store answers 500 without internals', async () => {
    const l = openLedger({ params, clock });
    const s = await listen(l);
    l.close();
    expect(expectError(await call(s.origin, utxo(0)), 500)).not.toMatch(/at .*\.ts|node:/);
    await s.close();
  });
});
