// The node API over real HTTP (SPEC B4, B5): every row of the error table, the envelope, content types, both binary
// forms, JWT-protected routes, sync, unknown paths and methods, CORS, preflight, HEAD and gzip. Every 200 body is
// compared with an answer computed without tangle-core: the reference implementation of SPEC B1–B3 in
// test/helpers/reference-ledger.ts (fed the same history), the simulation's own block bytes, and @iota/sdk-wasm.

import { request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { includedBlockJson } from '../../src/http/kit/index.js';
import {
  type AliasOutput,
  addressToBech32,
  blockToJson,
  chainId,
  createServer,
  decodeBlock,
  type Ledger,
  type NftOutput,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { hexOf, MINIMAL_TRANSACTION_WORK, novaOutputId, ReferenceLedger } from '../helpers/reference-ledger.js';
import { hex, loadVectors } from '../helpers/vectors.js';
import { basic, genesisOutputs, owner, transferBlock } from '../helpers/wallet.js';

const sdk = createRequire(import.meta.url)('@iota/sdk-wasm/node') as {
  Utils: {
    blockId(block: unknown): string;
    transactionId(payload: unknown): string;
    blockBytes(block: unknown): Uint8Array;
  };
};

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

function call(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
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

async function listen(
  ledger: Ledger,
  options: Parameters<typeof createServer>[0] extends infer O ? Omit<O, 'ledger'> : never = {},
) {
  const server = createServer({ ledger, ...options });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

let ledger: Ledger;
let sim: Simulation;
let reference: ReferenceLedger;
let api: Awaited<ReturnType<typeof listen>>;
let txId: Uint8Array;
let account: string;

beforeAll(async () => {
  sim = new Simulation({ params, seed: 3 });
  const genesis = sim.genesis();
  ledger = openLedger({ params, genesis, clock });
  reference = new ReferenceLedger(params, genesis.accounts ?? []);
  for (let slot = 1; slot <= SLOTS; slot++) {
    for (const e of sim.slot(slot)) {
      applyEvent(ledger, e);
      reference.apply(e);
    }
  }
  // The transaction with the largest block (over 1 KiB, for gzip), found from the simulation's blocks by the reference.
  txId = hex([...reference.blocks.values()].reduce((a, b) => (b.bytes.length > a.bytes.length ? b : a)).transactionId!);
  account = addressToBech32({ type: 8, aliasId: sim.accounts.worker }, 'rms');
  api = await listen(ledger);
});
afterAll(() => api.close());

const nova = novaOutputId;
/** The slot whose commitment lists `id` as created, by the reference; genesis outputs: slot 0. */
function createdSlot(id: string): number {
  return reference.commitments.find((c) => c.created.includes(id))?.slot ?? 0;
}

const tx = () => `/api/core/v2/transactions/${toHex(txId)}/included-block`;
const utxo = (slot: string | number) => `/api/core/v3/commitments/by-slot/${slot}/utxo-changes`;
const congestion = (address: string, query = '') => `/api/core/v3/accounts/${address}/congestion${query}`;

function expectError(a: Answer, status: number) {
  expect(a.status).toBe(status);
  expect(a.headers['content-type']).toBe('application/json');
  const body = a.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(status);
  const text = {
    400: 'invalid data provided',
    403: 'not available for public use',
    404: 'could not find data',
    405: 'method not allowed',
    414: 'request URI too long',
    500: 'internal server error',
    503: 'service unavailable',
  }[status]!;
  expect(body.error.message.startsWith(text)).toBe(true);
  expect(body.error.message).not.toMatch(/\n\s+at /); // never a stack trace
  return body.error.message as string;
}

describe('GET /api/core/v2/transactions/:transactionId/included-block', () => {
  it('200: every transaction answers the block the simulation made for it; sdk-wasm encodes the JSON to those bytes and hashes it to its block id and the transaction id', async () => {
    expect(reference.blocks.size).toBeGreaterThan(30);
    for (const [id, block] of reference.blocks) {
      const a = await call(api.origin, `/api/core/v2/transactions/${id}/included-block`);
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(a.body.toString().endsWith('}\n')).toBe(true); // hornet's compact JSON with a trailing newline
      const json = a.json();
      expect(hexOf(sdk.Utils.blockBytes(json))).toBe(hexOf(block.bytes));
      expect(sdk.Utils.blockId(json)).toBe(block.id);
      expect(sdk.Utils.transactionId(json.payload)).toBe(id);
    }
  });
  it("200 binary (serializer-v1): the simulation's block bytes; upper-case IDs accepted", async () => {
    const a = await call(api.origin, tx().replace(toHex(txId).slice(2), toHex(txId).slice(2).toUpperCase()), {
      headers: { accept: 'application/vnd.iota.serializer-v1' },
    });
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/vnd.iota.serializer-v1');
    expect(hexOf(a.body)).toBe(hexOf(reference.blocks.get(toHex(txId))!.bytes));
  });
  it('400: not 0x + 64 hex digits, refused by the route with its own message', async () => {
    for (const bad of [
      '0x123',
      'abcd',
      `0x${'a'.repeat(63)}`,
      `0x${'a'.repeat(72)}`,
      `0x${'g'.repeat(64)}`,
      `x0x${'a'.repeat(64)}`,
      `0x${'a'.repeat(64)}zz`,
    ]) {
      const message = expectError(await call(api.origin, `/api/core/v2/transactions/${bad}/included-block`), 400);
      expect(message).toBe(`invalid data provided: invalid transaction ID: ${bad}`);
    }
  });
  it('404: unknown transaction', async () => {
    expectError(await call(api.origin, `/api/core/v2/transactions/0x${'ab'.repeat(32)}/included-block`), 404);
  });
  it("the API vectors: our body is hornet's byte for byte, the one with an NFT output too", () => {
    for (const c of loadVectors('api/stardust-included-block.json').cases) {
      expect(includedBlockJson(blockToJson(decodeBlock(hex(c.response200BinaryHex))))).toBe(
        c.response200JsonHornetBytes,
      );
    }
  });
});

describe('GET /api/core/v3/commitments/by-slot/:slot/utxo-changes', () => {
  it('200 for every committed slot: the commitment id, created and consumed outputs of the reference implementation, in JSON and binary (serializer-v2)', async () => {
    for (let slot = 1; slot <= SLOTS; slot++) {
      const reference34 = reference.commitment(slot)!;
      // Nova output ids (SPEC B1): the reference's 34-byte ids with the slot that created each output.
      const expected = {
        id: reference34.id,
        created: reference34.created.map((id) => nova(id, slot)),
        consumed: reference34.consumed.map((id) => nova(id, createdSlot(id))),
      };
      const a = await call(api.origin, utxo(slot));
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(a.json()).toEqual({
        commitmentId: expected.id,
        createdOutputs: expected.created,
        consumedOutputs: expected.consumed,
      });
      const b = await call(api.origin, utxo(slot), { headers: { accept: 'application/vnd.iota.serializer-v2' } });
      expect(b.headers['content-type']).toBe('application/vnd.iota.serializer-v2');
      // [36] commitmentId | u32 n | n × [38] | u32 m | m × [38], little-endian counts (SPEC B4).
      const count = (n: number) => hexOf(Uint8Array.of(n & 0xff, (n >> 8) & 0xff, 0, 0));
      const wire = [
        expected.id,
        count(expected.created.length),
        ...expected.created,
        count(expected.consumed.length),
        ...expected.consumed,
      ]
        .map((h) => h.slice(2))
        .join('');
      expect(b.body.toString('hex')).toBe(wire);
    }
    // Not vacuous: the history has slots that create and consume, and consumes outputs of earlier slots and genesis.
    expect(reference.commitments.some((c) => c.created.length > 0 && c.consumed.length > 0)).toBe(true);
    const spentLater = reference.commitments.flatMap((c) => c.consumed.map((id) => [createdSlot(id), c.slot]));
    expect(spentLater.some(([made, spent]) => made! > 0 && made! < spent!)).toBe(true);
    expect(spentLater.some(([made]) => made === 0)).toBe(true);
    expect((await call(api.origin, utxo(`000${SLOTS}`))).json().commitmentId).toBe(reference.commitment(SLOTS)!.id); // leading zeros, as iota-core
  });
  it('400: not a base-10 uint32', async () => {
    for (const bad of ['abc', '-1', '4294967296', '0x10', '1.5', ''])
      expect(expectError(await call(api.origin, utxo(bad)), 400), bad).toBe(
        `invalid data provided: invalid slot: ${bad}`,
      );
  });
  it('404: after the latest commitment, up to the last uint32, and the genesis slot', async () => {
    expect(expectError(await call(api.origin, utxo(SLOTS + 1)), 404)).toBe(
      `could not find data: commitment is from a future slot (${SLOTS + 1} > ${SLOTS})`,
    );
    expect(expectError(await call(api.origin, utxo(4294967294)), 404)).toBe(
      `could not find data: commitment is from a future slot (4294967294 > ${SLOTS})`,
    );
    expect(expectError(await call(api.origin, utxo(4294967295)), 404)).toBe(
      `could not find data: commitment is from a future slot (4294967295 > ${SLOTS})`,
    );
    expectError(await call(api.origin, utxo(0)), 404);
  });
  it('400 before genesis; 404 for a pruned slot', async () => {
    const late = protocolParameters(params, { genesisSlot: 5 });
    const l = openLedger({ params: late, clock });
    l.commitSlot(6);
    l.commitSlot(7);
    l.commitSlot(8);
    const s = await listen(l);
    const pruningIndex = async () => (await call(s.origin, '/api/core/v2/info')).json().status.pruningIndex;
    expect(await pruningIndex()).toBe(5); // nothing pruned: the genesis slot, as hornet answers before its first prune
    expect((await call(s.origin, utxo(6))).status).toBe(200); // answered, and kept by the server (it cannot change…)
    l.prune(7); // …until a prune takes it away: the kept answer must go with it
    expectError(await call(s.origin, utxo(3)), 400);
    expectError(await call(s.origin, utxo(6)), 404);
    expect((await call(s.origin, utxo(7))).status).toBe(200);
    expect(await pruningIndex()).toBe(6); // hornet: the last pruned index, and slot 6 is the last one gone
    await s.close();
  });
});

describe('GET /api/core/v3/accounts/:bech32Address/congestion', () => {
  it("200 for every account, at the latest commitment and at each older one it may ask for: the reference implementation's slot, RMC and credits", async () => {
    for (const [name, id] of Object.entries(sim.accounts)) {
      const address = addressToBech32({ type: 8, aliasId: id }, 'rms');
      for (let slot = SLOTS - params.maxCommittableAge; slot <= SLOTS; slot++) {
        const expected = reference.congestion(id, MINIMAL_TRANSACTION_WORK, slot);
        const query = slot === SLOTS ? '' : `?commitmentId=${reference.commitment(slot)!.id}`;
        const a = await call(api.origin, congestion(address, query));
        if (expected === undefined) expectError(a, 404);
        else expect(a.json(), `${name} at ${slot}`).toEqual(expected);
      }
    }
    // Not vacuous: the RMC moved and the poor account went negative, so it is not ready.
    expect(new Set(reference.commitments.map((c) => c.rmc)).size).toBeGreaterThan(1);
    expect(reference.congestion(sim.accounts.poor, MINIMAL_TRANSACTION_WORK)).toMatchObject({ ready: false });
    expect(
      BigInt(reference.congestion(sim.accounts.poor, MINIMAL_TRANSACTION_WORK)!.blockIssuanceCredits),
    ).toBeLessThan(0n);
  });
  it('binary (serializer-v2): u32 slot | u8 ready | u64 RMC | i64 credits, little-endian', async () => {
    const expected = reference.congestion(sim.accounts.poor, MINIMAL_TRANSACTION_WORK)!;
    const b = await call(api.origin, congestion(addressToBech32({ type: 8, aliasId: sim.accounts.poor }, 'rms')), {
      headers: { accept: 'application/vnd.iota.serializer-v2' },
    });
    expect(b.headers['content-type']).toBe('application/vnd.iota.serializer-v2');
    const wire = Buffer.alloc(21);
    wire.writeUInt32LE(expected.slot, 0);
    wire.writeUInt8(expected.ready ? 1 : 0, 4);
    wire.writeBigUInt64LE(BigInt(expected.referenceManaCost), 5);
    wire.writeBigInt64LE(BigInt(expected.blockIssuanceCredits), 13);
    expect(b.body.toString('hex')).toBe(wire.toString('hex'));
  });
  it('workScore decides ready at the exact boundary the reference computes; 0 and absent mean the default work (as in iota-core)', async () => {
    // The late account's credits put the boundary inside the uint32 range.
    const late = addressToBech32({ type: 8, aliasId: sim.accounts.late }, 'rms');
    const at = (q: string, who = late) => call(api.origin, congestion(who, q)).then((a) => a.json());
    const credits = BigInt(reference.congestion(sim.accounts.late, 0n)!.blockIssuanceCredits);
    // The largest work the account can still pay for at the latest RMC, and the next one.
    const affordable = credits / reference.latest.rmc;
    expect(affordable).toBeGreaterThan(MINIMAL_TRANSACTION_WORK);
    expect(affordable).toBeLessThan(4294967295n);
    expect((await at(`?workScore=${affordable}`)).ready).toBe(true);
    expect((await at(`?workScore=${affordable + 1n}`)).ready).toBe(false);
    expect((await at('?workScore=4294967295')).ready).toBe(false);
    // Where 0 and the default differ: an account with 100 credits cannot pay the default work, but "work 0" it could.
    const small = new Uint8Array(32).fill(7);
    const l = openLedger({
      params,
      genesis: { accounts: [{ accountId: small, blockIssuanceCredits: 100n }] },
      clock: () => GENESIS,
    });
    l.setSynced(true);
    const s = await listen(l);
    const ref = new ReferenceLedger(params, [{ accountId: small, blockIssuanceCredits: 100n }]);
    const smallAt = (q: string) =>
      call(s.origin, congestion(addressToBech32({ type: 8, aliasId: small }, 'rms'), q)).then((a) => a.json());
    const absent = await smallAt('');
    expect(absent).toEqual(ref.congestion(small, MINIMAL_TRANSACTION_WORK));
    expect(absent.ready).toBe(false);
    expect(await smallAt('?workScore=0')).toEqual(absent);
    expect(await smallAt('?workScore=')).toEqual(absent);
    expect((await smallAt('?workScore=100')).ready).toBe(true);
    expect((await smallAt('?workScore=101')).ready).toBe(false);
    await s.close();
  });
  it('400: bad bech32, wrong HRP, not an account address, bad workScore or commitmentId, each with its message', async () => {
    const ed = addressToBech32({ type: 0, pubKeyHash: new Uint8Array(32) }, 'rms');
    const smr = addressToBech32({ type: 8, aliasId: sim.accounts.worker }, 'smr');
    const flipped = account.slice(0, -1) + (account.endsWith('q') ? 'p' : 'q');
    const cases: [string, string][] = [
      [
        congestion('rms1notbech32'),
        'invalid bech32 address rms1notbech32 (expected prefix rms): not a bech32 string: character "o" is not in the bech32 alphabet',
      ],
      [congestion(flipped), `invalid bech32 address ${flipped} (expected prefix rms): bad bech32 checksum`],
      [congestion(smr), `invalid bech32 address ${smr} (expected prefix rms): another network's prefix`],
      [congestion(ed), `address ${ed} is not an account address`],
      [congestion(account, '?workScore=-1'), 'invalid workScore: -1'],
      [congestion(account, '?workScore=4294967296'), 'invalid workScore: 4294967296'],
      [congestion(account, '?workScore=abc'), 'invalid workScore: abc'],
      [congestion(account, '?commitmentId=0x1234'), 'invalid commitmentId: 0x1234'],
      [congestion(account, `?commitmentId=${'0'.repeat(74)}`), `invalid commitmentId: ${'0'.repeat(74)}`],
      [congestion(account, `?commitmentId=${reference.latest.id}00`), `invalid commitmentId: ${reference.latest.id}00`],
      [congestion(account, `?commitmentId=x${reference.latest.id}`), `invalid commitmentId: x${reference.latest.id}`],
    ];
    for (const [path, message] of cases)
      expect(expectError(await call(api.origin, path), 400)).toBe(`invalid data provided: ${message}`);
  });
  it('the bech32 parameter is read lower-cased (iota-core): an upper-case or mixed-case address answers the same', async () => {
    const lower = await call(api.origin, congestion(account));
    const upper = await call(api.origin, congestion(account.toUpperCase()));
    expect(upper.status).toBe(200);
    expect(upper.body.toString()).toBe(lower.body.toString());
    // BIP-173 refuses mixed case, but iota-core lower-cases the whole parameter before decoding it (docs/api.md).
    const mixed = [...account].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
    expect(mixed).not.toBe(account.toUpperCase());
    expect(mixed).not.toBe(account);
    const m = await call(api.origin, congestion(mixed));
    expect(m.status).toBe(200);
    expect(m.body.toString()).toBe(lower.body.toString());
  });
  it('an Accept list that names JSON first gets JSON on every route, whatever form the server answered and kept before', async () => {
    // A fresh server: its kept answers are empty, so what the first request leaves behind is all there is to reuse.
    const s = await listen(ledger);
    const paths: [string, string][] = [
      [tx(), 'application/vnd.iota.serializer-v1'],
      [utxo(SLOTS), 'application/vnd.iota.serializer-v2'],
      [congestion(account), 'application/vnd.iota.serializer-v2'],
    ];
    for (const [path, vendor] of paths) {
      const binary = await call(s.origin, path, { headers: { accept: vendor } });
      expect(binary.headers['content-type'], path).toBe(vendor);
      for (const accept of [`application/json, ${vendor}`, `application/json;q=0.5, ${vendor}`, '*/*', '']) {
        const a = await call(s.origin, path, { headers: { accept } });
        expect(a.headers['content-type'], `${path} ${accept}`).toBe('application/json; charset=utf-8');
        expect(() => JSON.parse(a.body.toString())).not.toThrow();
      }
      // and the other way round: JSON kept first, the vendor type still gets bytes
      expect((await call(s.origin, path, { headers: { accept: vendor } })).body).toEqual(binary.body);
    }
    await s.close();
  });
  it('an empty commitmentId means the latest, like none', async () => {
    expect((await call(api.origin, congestion(account, '?commitmentId='))).body.toString()).toBe(
      (await call(api.origin, congestion(account))).body.toString(),
    );
  });
  it('the binary forms only when Accept starts with the vendor type (hornet, iota-core)', async () => {
    const first = await call(api.origin, utxo(SLOTS), {
      headers: { accept: 'application/vnd.iota.serializer-v2, application/json' },
    });
    expect(first.headers['content-type']).toBe('application/vnd.iota.serializer-v2');
    const second = await call(api.origin, utxo(SLOTS), {
      headers: { accept: 'application/json, application/vnd.iota.serializer-v2' },
    });
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    const v1 = await call(api.origin, tx(), { headers: { accept: 'text/html, application/vnd.iota.serializer-v1' } });
    expect(v1.headers['content-type']).toBe('application/json; charset=utf-8');
  });
  it('404: unknown account, commitment of a future slot', async () => {
    expectError(
      await call(api.origin, congestion(addressToBech32({ type: 8, aliasId: new Uint8Array(32).fill(9) }, 'rms'))),
      404,
    );
    const future = new Uint8Array(36);
    new DataView(future.buffer).setUint32(32, SLOTS + 5, true);
    expectError(await call(api.origin, congestion(account, `?commitmentId=${toHex(future)}`)), 404);
  });
  it("400 with iota-core's message: a commitment ID that does not match the store; one older than latest − maxCommittableAge", async () => {
    const wrong = hex(reference.latest.id);
    wrong[3]! ^= 1;
    expect(expectError(await call(api.origin, congestion(account, `?commitmentId=${toHex(wrong)}`)), 400)).toBe(
      `invalid data provided: commitment in the store for slot ${SLOTS} does not match the given commitmentID ` +
        `(${reference.latest.id} != ${toHex(wrong)})`,
    );
    const stale = SLOTS - params.maxCommittableAge - 1;
    const old = reference.commitment(stale)!.id;
    expect(expectError(await call(api.origin, congestion(account, `?commitmentId=${old}`)), 400)).toBe(
      `invalid data provided: can't calculate account, target slot index older than allowed ` +
        `(${stale}<${SLOTS}-${params.maxCommittableAge})`,
    );
  });
  it('503 when not synced, before any parameter is checked', async () => {
    ledger.setSynced(false);
    try {
      const message = expectError(await call(api.origin, congestion('not-even-bech32')), 503);
      // It says what is true and what an operator can do about it.
      expect(message).toBe(
        `service unavailable: node is not synced: its latest committed slot ${SLOTS} is behind the clock (to serve ` +
          `imported history, start the server with --synced; an embedding node calls setSynced(true))`,
      );
      expect((await call(api.origin, utxo(SLOTS))).status).toBe(200); // only the congestion route
    } finally {
      ledger.setSynced(undefined);
    }
  });
});

describe('access, methods, paths, headers', () => {
  const secret = 'a secret of the node operator, long enough for HS256';
  const key = new TextEncoder().encode(secret);
  const token = (k = key, exp = '1h') =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(k);

  it('403 on a protected route without a token, with a wrong, expired or unsigned one; 200 with a valid one', async () => {
    const s = await listen(ledger, { publicRoutes: ['/api/core/v3/*'], jwtSecret: secret });
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    expectError(await call(s.origin, tx()), 403);
    expectError(
      await call(s.origin, tx(), {
        headers: bearer(await token(new TextEncoder().encode('another secret, also long enough'))),
      }),
      403,
    );
    expectError(await call(s.origin, tx(), { headers: bearer(await token(key, '-1m')) }), 403);
    expectError(await call(s.origin, tx(), { headers: bearer(new UnsecuredJWT({}).encode()) }), 403);
    expectError(await call(s.origin, tx(), { headers: { authorization: 'Basic abc' } }), 403);
    // HS256 only (SPEC B4): the same secret under HS512 is refused; nothing may stand before or after the token.
    const hs512 = await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(key);
    expectError(await call(s.origin, tx(), { headers: bearer(hs512) }), 403);
    const good = await token();
    expectError(await call(s.origin, tx(), { headers: { authorization: `xBearer ${good}` } }), 403);
    expectError(await call(s.origin, tx(), { headers: { authorization: `Bearer ${good} trailing` } }), 403);
    expect((await call(s.origin, tx(), { headers: bearer(good) })).status).toBe(200);
    expect((await call(s.origin, utxo(SLOTS))).status).toBe(200); // still public
    // A token without exp would be good forever: refused unless the operator allows such tokens.
    const forever = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(key);
    expectError(await call(s.origin, tx(), { headers: bearer(forever) }), 403);
    await s.close();
    const lenient = await listen(ledger, { publicRoutes: [], jwtSecret: secret, jwtAllowNonExpiring: true });
    expect((await call(lenient.origin, tx(), { headers: bearer(forever) })).status).toBe(200);
    expectError(await call(lenient.origin, tx(), { headers: bearer(await token(key, '-1m')) }), 403); // still expired
    await lenient.close();
  });
  it('404 for unknown paths, 405 with Allow for other methods, 414 for long URLs', async () => {
    expectError(await call(api.origin, '/api/core/v9/info'), 404);
    expectError(await call(api.origin, `${tx()}/`), 404);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const a = await call(api.origin, tx(), { method });
      expectError(a, 405);
      expect(a.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    expectError(await call(api.origin, `/api/core/v2/transactions/${'x'.repeat(9000)}/included-block`), 414);
  });
  it("OPTIONS answers a browser's preflight with 204 and the CORS headers of SPEC B5, without a token even on a protected route", async () => {
    const s = await listen(ledger, {
      publicRoutes: [],
      jwtSecret: 'a secret of the node operator, long enough for HS256',
    });
    for (const path of [tx(), utxo(SLOTS), congestion(account)]) {
      const a = await call(s.origin, path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://wallet.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(a.status).toBe(204);
      expect(a.body.length).toBe(0);
      expect(a.headers['access-control-allow-origin']).toBe('*');
      expect(a.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
      expect(a.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Accept');
    }
    expectError(await call(s.origin, '/api/nothing/here', { method: 'OPTIONS' }), 404);
    await s.close();
  });
  it('HEAD answers the status and headers of the GET, Content-Length included, with no body', async () => {
    for (const [path, headers] of [
      [tx(), {}],
      [tx(), { 'accept-encoding': 'gzip' }],
      [utxo(SLOTS), { accept: 'application/vnd.iota.serializer-v2' }],
      [utxo(SLOTS + 1), {}],
      [congestion('rms1bad'), {}],
    ] as const) {
      const get = await call(api.origin, path, { headers });
      const head = await call(api.origin, path, { method: 'HEAD', headers });
      expect(head.status).toBe(get.status);
      expect(head.body.length).toBe(0);
      for (const h of ['content-type', 'content-length', 'content-encoding', 'vary'])
        expect(head.headers[h], h).toBe(get.headers[h]);
      expect(Number(head.headers['content-length'])).toBe(get.body.length);
    }
  });
  it('CORS when an Origin is sent; gzip for bodies over 1 KiB when asked', async () => {
    expect((await call(api.origin, utxo(SLOTS))).headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await call(api.origin, utxo(SLOTS), { headers: { origin: 'https://example.org' } })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('*');
    const plain = await call(api.origin, tx());
    expect(plain.body.length).toBeGreaterThan(1024);
    const zipped = await call(api.origin, tx(), { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body)).toEqual(plain.body);
    const small = await call(api.origin, congestion(account), { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    // RFC 9110 weights: q=0 refuses gzip, also against a wildcard; a wildcard with a weight accepts it.
    for (const [header, zipped] of [
      ['gzip;q=0', false],
      ['gzip; q=0.0, deflate', false],
      ['*;q=0.5, gzip;q=0', false],
      ['*', true],
      ['identity, *;q=0.1', true],
      ['GZIP;Q=1', true],
      ['x-gzip', true],
      ['gzipped', false],
    ] as const) {
      expect(
        (await call(api.origin, tx(), { headers: { 'accept-encoding': header } })).headers['content-encoding'],
        header,
      ).toBe(zipped ? 'gzip' : undefined);
    }
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

describe('a transaction that mints an NFT and creates an alias, then one that transfers the NFT, served like any other', () => {
  it('included-block (JSON and binary) and utxo-changes answer it; sdk-wasm re-encodes the JSON to our bytes and ids', async () => {
    const start = genesisOutputs([1]);
    const own = openLedger({ params, genesis: { outputs: start }, clock: () => GENESIS + 10 });
    const issuer = [{ type: 1 as const, address: owner(1) }];
    const minted: NftOutput = {
      type: 6,
      amount: 100_000_000n,
      nativeTokens: [],
      nftId: new Uint8Array(32),
      unlockConditions: [{ type: 0, address: owner(2) }],
      features: [{ type: 2, data: new TextEncoder().encode('{"standard":"IRC27"}') }],
      immutableFeatures: [...issuer, { type: 2, data: Uint8Array.of(1, 2, 3) }],
    };
    const created: AliasOutput = {
      type: 4,
      amount: 100_000_000n,
      nativeTokens: [],
      aliasId: new Uint8Array(32),
      stateIndex: 0,
      stateMetadata: Uint8Array.of(7),
      foundryCounter: 0,
      unlockConditions: [
        { type: 4, address: owner(1) },
        { type: 5, address: owner(1) },
      ],
      features: [],
      immutableFeatures: issuer,
    };
    const bytes = transferBlock(params, start, [minted, created, basic(owner(1), 800_000_000n)]);
    const { blockId, transactionId } = own.acceptBlock(bytes, { slot: 1 });
    own.commitSlot(1);
    const server = await listen(own);
    try {
      const path = `/api/core/v2/transactions/${toHex(transactionId!)}/included-block`;
      const a = await call(server.origin, path);
      expect(a.status).toBe(200);
      const json = a.json();
      expect(json.payload.essence.outputs.map((o: { type: number }) => o.type)).toEqual([6, 4, 3]);
      expect(hexOf(sdk.Utils.blockBytes(json))).toBe(hexOf(bytes));
      expect(sdk.Utils.blockId(json)).toBe(toHex(blockId));
      expect(sdk.Utils.transactionId(json.payload)).toBe(toHex(transactionId!));
      const b = await call(server.origin, path, { headers: { accept: 'application/vnd.iota.serializer-v1' } });
      expect(hexOf(b.body)).toBe(hexOf(bytes));
      const changes = (await call(server.origin, utxo(1))).json();
      expect(changes.createdOutputs).toEqual([0, 1, 2].map((i) => nova(toHex(outputId(transactionId!, i)), 1)));
      expect(changes.consumedOutputs).toEqual([nova(toHex(start[0]!.outputId), 0)]);

      // Slot 2: its owner (key 2) passes the NFT on to key 3, under the id its minting output gave it.
      const mintedAt = outputId(transactionId!, 0);
      const nftId = chainId(mintedAt);
      const onward: NftOutput = { ...minted, nftId, unlockConditions: [{ type: 0, address: owner(3) }] };
      const transfer = transferBlock(params, [{ outputId: mintedAt, output: minted, key: 2 }], [onward], 0n, 2);
      const second = own.acceptBlock(transfer, { slot: 2 });
      own.commitSlot(2);
      const json2 = (
        await call(server.origin, `/api/core/v2/transactions/${toHex(second.transactionId!)}/included-block`)
      ).json();
      expect(json2.payload.essence.outputs[0].nftId).toBe(toHex(nftId));
      expect(sdk.Utils.blockId(json2)).toBe(toHex(second.blockId));
      const changes2 = (await call(server.origin, utxo(2))).json();
      expect(changes2.consumedOutputs).toEqual([nova(toHex(mintedAt), 1)]);
      expect(changes2.createdOutputs).toEqual([nova(toHex(outputId(second.transactionId!, 0)), 2)]);
    } finally {
      await server.close();
      own.close();
    }
  });
});

describe('SPEC B5 routes: edges the client tests do not reach', () => {
  it('by commitment id: the by-slot body; 400 malformed; 404 for an unknown id of a known slot and for a future slot', async () => {
    const c = reference.commitment(12)!;
    const bySlot = await call(api.origin, utxo(12));
    const byId = await call(api.origin, `/api/core/v3/commitments/${c.id}/utxo-changes`);
    expect(byId.status).toBe(200);
    expect(byId.body.toString()).toBe(bySlot.body.toString());
    const upper = await call(api.origin, `/api/core/v3/commitments/0x${c.id.slice(2).toUpperCase()}/utxo-changes`);
    expect(upper.body.toString()).toBe(bySlot.body.toString());
    for (const bad of ['0x12', c.id.slice(0, -2), `${c.id}00`, `0x${'g'.repeat(72)}`]) {
      const message = expectError(await call(api.origin, `/api/core/v3/commitments/${bad}/utxo-changes`), 400);
      expect(message).toBe(`invalid data provided: invalid commitmentId: ${bad}`);
    }
    const otherHash = `0x${'00'.repeat(32)}${c.id.slice(66)}`; // slot 12, another hash
    expectError(await call(api.origin, `/api/core/v3/commitments/${otherHash}/utxo-changes`), 404);
    const future = `${c.id.slice(0, 66)}${nova('0x', SLOTS + 1).slice(2, 10)}`;
    expectError(await call(api.origin, `/api/core/v3/commitments/${future}/utxo-changes`), 404);
  });
  it('/health and the info routes say unhealthy (503 for /health) when the ledger is behind the clock', async () => {
    const behind = openLedger({ params, genesis: { outputs: genesisOutputs([1]) }, clock: () => GENESIS + 10_000 });
    const s = await listen(behind);
    try {
      const health = await call(s.origin, '/health');
      expect(health.status).toBe(503);
      expect(health.json()).toEqual({ isHealthy: false });
      expect((await call(s.origin, '/api/core/v2/info')).json().status.isHealthy).toBe(false);
      expect((await call(s.origin, '/api/core/v3/info')).json().status.isHealthy).toBe(false);
      behind.setSynced(true);
      expect((await call(s.origin, '/health')).status).toBe(200);
    } finally {
      await s.close();
      behind.close();
    }
  });
  it('/health and the info routes say unhealthy once the writer recorded the store current more than 3 slots (30 s) ago, even when set synced', async () => {
    let now = GENESIS + 10_000;
    const ledger = openLedger({ params, genesis: { outputs: genesisOutputs([1]) }, clock: () => now });
    ledger.setSynced(true); // as `serve --synced` does: only the writer's record can take it out
    const s = await listen(ledger);
    try {
      expect((await call(s.origin, '/health')).json()).toEqual({ isHealthy: true }); // no writer records it: no lag
      ledger.markCurrent(now);
      for (const [after, status] of [
        [0, 200],
        [30, 200], // 3 slots of 10 s: still within
        [31, 503],
      ] as const) {
        now = GENESIS + 10_000 + after;
        const health = await call(s.origin, '/health');
        expect(health.status, `${after} s`).toBe(status);
        expect(health.json()).toEqual({ isHealthy: status === 200, lagSeconds: after });
        expect((await call(s.origin, '/api/core/v2/info')).json().status.isHealthy).toBe(status === 200);
        expect((await call(s.origin, '/api/core/v3/info')).json().status.isHealthy).toBe(status === 200);
      }
      ledger.markCurrent(now); // heard again
      expect((await call(s.origin, '/health')).json()).toEqual({ isHealthy: true, lagSeconds: 0 });
    } finally {
      await s.close();
      ledger.close();
    }
  });
  it('v3 info carries the ledger: latest commitment id, network, supply, genesis, ages, congestion parameters', async () => {
    const info = (await call(api.origin, '/api/core/v3/info')).json();
    expect(info.status.latestCommitmentId).toBe(reference.commitments.at(-1)!.id);
    expect(info.status.latestFinalizedSlot).toBe(SLOTS);
    const p = info.protocolParameters[0].parameters;
    expect(p).toMatchObject({
      networkName: 'testnet',
      bech32Hrp: 'rms',
      tokenSupply: '1813620509061365',
      genesisSlot: 0,
      genesisUnixTimestamp: String(GENESIS),
      slotDurationInSeconds: 10,
      minCommittableAge: 10,
      maxCommittableAge: 20,
    });
    expect(p.congestionControlParameters).toMatchObject({
      minReferenceManaCost: '1',
      increase: '1',
      decrease: '1',
      increaseThreshold: 400_000_000,
      decreaseThreshold: 250_000_000,
    });
    expect(p.workScoreParameters).toMatchObject({ block: 110_000, dataByte: 500, signatureEd25519: 15_000 });
  });
  it('metadata of a transaction whose slot is not committed yet: not referenced (no inclusion state), then included', async () => {
    const start = genesisOutputs([1]);
    const own = openLedger({ params, genesis: { outputs: start }, clock: () => GENESIS + 10 });
    const s = await listen(own);
    try {
      const { transactionId } = own.acceptBlock(transferBlock(params, start, [basic(owner(2), 1_000_000_000n)]), {
        slot: 1,
      });
      const path = `/api/core/v2/transactions/${toHex(transactionId!)}/included-block/metadata`;
      const before = (await call(s.origin, path)).json();
      expect(before).not.toHaveProperty('ledgerInclusionState');
      expect(before).toMatchObject({ isSolid: true, shouldPromote: false, shouldReattach: false });
      own.commitSlot(1);
      expect((await call(s.origin, path)).json()).toMatchObject({
        referencedByMilestoneIndex: 1,
        ledgerInclusionState: 'included',
      });
    } finally {
      await s.close();
      own.close();
    }
  });
});
