// The real client libraries against tangle-core over HTTP, on a simulated network's history stored in LMDB (issue 12):
// every method of @iota/iota.js 2.0.0-rc.4, @iota/sdk-wasm 1.1.3 and @iota/sdk-wasm 2.0.0-beta.1 (the Nova client,
// installed as @iota/sdk-wasm-nova) that reaches our routes. Each answer is checked against the reference
// implementation fed the same history (test/helpers/reference-ledger.ts), block ids recomputed by the client library
// itself; each library's error for an unknown transaction, a future slot and an unknown account; the same through a
// JWT-protected server; and two servers over copies of one store answer byte-identical bodies.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  createServer,
  type Ledger,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  type ServerOptions,
  toHex,
} from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { hexOf, ReferenceLedger } from '../../helpers/reference-ledger.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');
const sdk = require('@iota/sdk-wasm/node');
const nova = require('@iota/sdk-wasm-nova/node');

const GENESIS = 1_700_000_000;
const SLOTS = 30;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const clock = () => GENESIS + SLOTS * 10;
const SECRET = 'a secret of the node operator, long enough for HS256';
const UNKNOWN_TX = `0x${'ab'.repeat(32)}`;

let dir: string;
let ledger: Ledger;
let sim: Simulation;
let reference: ReferenceLedger;
const servers: (() => Promise<void>)[] = [];

async function serve(options: Omit<ServerOptions, 'ledger'> = {}, on: Ledger = ledger): Promise<string> {
  const server = createServer({ ledger: on, ...options });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push(() => new Promise<void>((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let origin: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tangle-clients-'));
  sim = new Simulation({ params, seed: 3 });
  const genesis = sim.genesis();
  ledger = openLedger({ path: join(dir, 'a'), params, genesis, clock });
  reference = new ReferenceLedger(params, genesis.accounts ?? []);
  for (let slot = 1; slot <= SLOTS; slot++) {
    for (const e of sim.slot(slot)) {
      applyEvent(ledger, e);
      reference.apply(e);
    }
  }
  origin = await serve();
});
afterAll(async () => {
  for (const close of servers) await close();
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

const expectedChanges = (slot: number) => reference.novaChanges(slot);
/** A block's parents, read by hand: u8 protocol version, u8 count, 32 bytes each. */
const parentsOf = (bytes: Uint8Array) =>
  Array.from({ length: bytes[1]! }, (_, i) => hexOf(bytes.subarray(2 + 32 * i, 34 + 32 * i)));
/** The message of a rejection, whatever the library throws (sdk-wasm 1.1.3 throws a JSON string). */
async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return typeof e === 'string' ? e : `${(e as Error).message} ${JSON.stringify(e)}`;
  }
  throw new Error('expected a rejection');
}

describe('@iota/iota.js 2.0.0-rc.4 (SingleNodeClient)', () => {
  it('transactionIncludedBlock and …Raw for every transaction: the block iota.js hashes to the reference block id, and the exact bytes', async () => {
    const client = new iota.SingleNodeClient(origin);
    expect(reference.blocks.size).toBeGreaterThan(30);
    for (const [id, block] of reference.blocks) {
      const model = await client.transactionIncludedBlock(id);
      expect(iota.TransactionHelper.calculateBlockId(model)).toBe(block.id);
      expect(hexOf(await client.transactionIncludedBlockRaw(id))).toBe(hexOf(block.bytes));
    }
  });
  it('health and routes', async () => {
    const client = new iota.SingleNodeClient(origin);
    expect(await client.health()).toBe(true);
    expect(await client.routes()).toEqual({
      routes: ['core/v2', 'core/v3', 'indexer/v1', 'explorer/v2', 'analytics/v1', 'tangle-core/v1', 'poi/v1'],
    });
  });
  it('an unknown transaction: a ClientError with HTTP status 404', async () => {
    const client = new iota.SingleNodeClient(origin);
    await expect(client.transactionIncludedBlock(UNKNOWN_TX)).rejects.toMatchObject({ httpStatus: 404 });
  });
});

describe('@iota/sdk-wasm 1.1.3 (Client)', () => {
  it('getIncludedBlock for every transaction (it asks /api/core/v2/info too): sdk-wasm hashes the block to the reference ids', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    for (const [id, block] of reference.blocks) {
      const json = await client.getIncludedBlock(id);
      expect(sdk.Utils.blockId(json)).toBe(block.id);
      expect(sdk.Utils.transactionId(json.payload)).toBe(id);
    }
  });
  it('getIncludedBlockMetadata: the including block, referenced by the slot that committed it', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    for (const [id, block] of [...reference.blocks].slice(0, 10)) {
      const slot = reference.commitments.find((c) => c.created.some((o) => o.startsWith(id)))!.slot;
      expect(await client.getIncludedBlockMetadata(id)).toEqual({
        blockId: block.id,
        parents: parentsOf(block.bytes),
        isSolid: true,
        referencedByMilestoneIndex: slot,
        ledgerInclusionState: 'included',
      });
    }
  });
  it('getInfo and getHealth: the network of the ledger, the latest committed slot as the milestone', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    const { nodeInfo } = await client.getInfo();
    const latest = reference.commitments.at(-1)!;
    expect(nodeInfo.status.isHealthy).toBe(true);
    expect(nodeInfo.status.latestMilestone).toEqual({
      index: SLOTS,
      timestamp: GENESIS + (SLOTS + 1) * 10,
      milestoneId: `0x${latest.id.slice(10)}`, // the commitment id without its first 4 bytes
    });
    expect(nodeInfo.protocol).toMatchObject({ networkName: 'testnet', bech32Hrp: 'rms', minPowScore: 0 });
    expect(nodeInfo.protocol.tokenSupply).toBe('1813620509061365');
    expect(await client.getHealth(origin)).toBe(true);
  });
  it('an unknown transaction: "not found" for the block and its metadata', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    expect(await rejection(client.getIncludedBlock(UNKNOWN_TX))).toMatch(/included-block was not found/);
    expect(await rejection(client.getIncludedBlockMetadata(UNKNOWN_TX))).toMatch(/metadata was not found/);
  });
});

describe('@iota/sdk-wasm 2.0.0-beta.1 (Nova Client)', () => {
  it('Client.create (it needs /api/core/v3/info), getUtxoChangesBySlot and getUtxoChanges for every slot: the reference lists in the Nova form', async () => {
    const client = await nova.Client.create({ nodes: [origin] });
    for (let slot = 1; slot <= SLOTS; slot++) {
      const expected = expectedChanges(slot);
      expect(await client.getUtxoChangesBySlot(slot)).toEqual(expected);
      expect(await client.getUtxoChanges(expected.commitmentId)).toEqual(expected);
    }
  });
  it('getAccountCongestion with and without a work score: the reference slot, RMC and credits', async () => {
    const client = await nova.Client.create({ nodes: [origin] });
    const latest = reference.commitments.at(-1)!;
    for (const account of [sim.accounts.whale, sim.accounts.worker, sim.accounts.poor]) {
      const credits = latest.credits.get(hexOf(account));
      if (credits === undefined) continue;
      const expected = {
        slot: SLOTS,
        referenceManaCost: latest.rmc.toString(),
        blockIssuanceCredits: credits.toString(),
      };
      expect(await client.getAccountCongestion(toHex(account))).toMatchObject(expected);
      const huge = await client.getAccountCongestion(toHex(account), 0xffffffff);
      expect(huge).toMatchObject({ ...expected, ready: credits >= 0xffffffffn * latest.rmc });
    }
  });
  it('errors: a future slot, an unknown commitment, an unknown account are "not found"', async () => {
    const client = await nova.Client.create({ nodes: [origin] });
    expect(await rejection(client.getUtxoChangesBySlot(SLOTS + 5))).toMatch(/was not found/);
    expect(await rejection(client.getUtxoChanges(`0x${'09'.repeat(36)}`))).toMatch(/was not found/);
    expect(await rejection(client.getAccountCongestion(`0x${'09'.repeat(32)}`))).toMatch(/congestion was not found/);
  });
});

describe('a JWT-protected node', () => {
  it('each library with the token gets the answers; without it, 403', async () => {
    const protectedOrigin = await serve({ publicRoutes: ['/health', '/api/routes'], jwtSecret: SECRET });
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    const [id, block] = [...reference.blocks][0]!;
    await expect(new iota.SingleNodeClient(protectedOrigin).transactionIncludedBlock(id)).rejects.toMatchObject({
      httpStatus: 403,
    });
    const withToken = new iota.SingleNodeClient(protectedOrigin, { headers: { Authorization: `Bearer ${jwt}` } });
    expect(iota.TransactionHelper.calculateBlockId(await withToken.transactionIncludedBlock(id))).toBe(block.id);
    const v1 = new sdk.Client({ nodes: [{ url: protectedOrigin, auth: { jwt } }] });
    expect(sdk.Utils.blockId(await v1.getIncludedBlock(id))).toBe(block.id);
    const v2 = await nova.Client.create({ nodes: [{ url: protectedOrigin, auth: { jwt } }] });
    expect(await v2.getUtxoChangesBySlot(5)).toEqual(expectedChanges(5));
    // Every new route follows the same rule: 403 in the error envelope without the token, 200 with it; the public
    // ones answer without.
    const status = (path: string, headers: Record<string, string> = {}) =>
      fetch(protectedOrigin + path, { headers }).then(async (r) => [r.status, await r.text()] as const);
    for (const path of [
      '/api/core/v2/info',
      '/api/core/v3/info',
      `/api/core/v2/transactions/${id}/included-block/metadata`,
      `/api/core/v3/commitments/${reference.commitment(5)!.id}/utxo-changes`,
    ]) {
      const [refused, body] = await status(path);
      expect(refused, path).toBe(403);
      expect(JSON.parse(body)).toEqual({ error: { code: 403, message: 'not available for public use' } });
      expect((await status(path, { authorization: `Bearer ${jwt}` }))[0], path).toBe(200);
    }
    for (const path of ['/health', '/api/routes']) expect((await status(path))[0], path).toBe(200);
  });
});

describe('replicas', () => {
  /** The raw body of a GET (quorum clients compare the text). */
  const body = (at: string, path: string, accept = 'application/json') =>
    new Promise<string>((done, fail) => {
      request(at + path, { headers: { accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(`${res.statusCode} ${Buffer.concat(chunks).toString('hex')}`));
      })
        .on('error', fail)
        .end();
    });
  it('two servers over copies of one LMDB store answer byte-identical bodies on every route', async () => {
    // A copy as an operator makes one for a second machine: the data, not the first writer's lock file.
    cpSync(join(dir, 'a'), join(dir, 'b'), { recursive: true, filter: (f) => !f.endsWith('writer.lock') });
    const copy = openLedger({ path: join(dir, 'b'), params, clock });
    try {
      const other = await serve({}, copy);
      const [id] = [...reference.blocks.keys()];
      const account = `/api/core/v3/accounts/${addressToBech32({ type: 8, aliasId: sim.accounts.worker }, 'rms')}/congestion`;
      const paths = [
        '/health',
        '/api/routes',
        '/api/core/v2/info',
        '/api/core/v3/info',
        `/api/core/v2/transactions/${id}/included-block`,
        `/api/core/v2/transactions/${id}/included-block/metadata`,
        ...Array.from({ length: SLOTS }, (_, i) => `/api/core/v3/commitments/by-slot/${i + 1}/utxo-changes`),
        `/api/core/v3/commitments/${reference.commitment(7)!.id}/utxo-changes`,
        account,
        `${account}?workScore=5000`,
      ];
      for (const path of paths) {
        for (const accept of [
          'application/json',
          'application/vnd.iota.serializer-v1',
          'application/vnd.iota.serializer-v2',
        ]) {
          const [a, b] = await Promise.all([body(origin, path, accept), body(other, path, accept)]);
          expect(a.startsWith('200 '), `${path} ${accept}`).toBe(true);
          expect(b, `${path} ${accept}`).toBe(a);
        }
      }
    } finally {
      copy.close();
    }
  });
});
