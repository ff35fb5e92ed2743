// The wallet's and explorer's core routes (issue 28: TIP-25 outputs, blocks, tips, milestones) through the real client
// libraries, on a simulated network's history in LMDB: 40 slots, so that the transaction blocks of the first 32 are
// found through the merged block index and the rest through the recent records. Every answer is checked against the
// reference implementation fed the same history (test/helpers/reference-ledger.ts) and against TIP-25's schemas.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { contractErrors } from '../../helpers/contracts.js';
import { hexOf, ReferenceLedger } from '../../helpers/reference-ledger.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');
const sdk = require('@iota/sdk-wasm/node');
const { ReadStream, WriteStream } = require('@iota/util.js');

const GENESIS = 1_700_000_000;
const SLOTS = 40;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const end = (slot: number) => GENESIS + (slot + 1) * 10; // genesis slot 0, 10 s slots
const V2 = '/api/core/v2';

let dir: string;
let ledger: Ledger;
let reference: ReferenceLedger;
let server: ReturnType<typeof createServer>;
let origin: string;
/** Every output the history created: its id, creating slot, block, and (if spent) the spending slot and block. */
const outputs = new Map<string, { slot: number; blockId: string; spent?: { slot: number; txId: string } }>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tangle-core-routes-'));
  const sim = new Simulation({ params, seed: 5 });
  const genesis = sim.genesis();
  ledger = openLedger({ path: join(dir, 'a'), params, genesis, clock: () => end(SLOTS) });
  reference = new ReferenceLedger(params, genesis.accounts ?? []);
  for (let slot = 1; slot <= SLOTS; slot++) {
    for (const e of sim.slot(slot)) {
      applyEvent(ledger, e);
      reference.apply(e);
    }
  }
  for (const [, { block, slot }] of reference.committedBlocks)
    for (const id of block.created) outputs.set(id, { slot, blockId: block.id });
  for (const [, { block, slot }] of reference.committedBlocks)
    for (const id of block.consumed) {
      const o = outputs.get(id);
      if (o !== undefined) o.spent = { slot, txId: block.transactionId! };
    }
  server = createServer({ ledger, errorCodeAsString: true });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string, accept = 'application/json'): Promise<{ status: number; body: any; raw: Buffer }> {
  const res = await fetch(origin + path, { headers: { accept } });
  const raw = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: res.status, body: json ? JSON.parse(raw.toString()) : undefined, raw };
}
/** Checks a 200 answer against TIP-25's schema of its route. */
async function valid(template: string, path: string): Promise<any> {
  const { status, body } = await get(path);
  expect(status).toBe(200);
  expect(contractErrors('core', template, 200, body)).toEqual([]);
  return body;
}

describe('outputs', () => {
  it('every output the history created: its metadata as the reference has it, through @iota/sdk-wasm 1.1.3', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    expect(outputs.size).toBeGreaterThan(100);
    const spent = [...outputs.values()].filter((o) => o.spent !== undefined).length;
    expect(spent).toBeGreaterThan(20);
    for (const [id, o] of outputs) {
      const { metadata } = await client.getOutput(id);
      expect(metadata).toEqual({
        blockId: o.blockId,
        transactionId: id.slice(0, 66),
        outputIndex: Number.parseInt(id.slice(68, 70) + id.slice(66, 68), 16),
        isSpent: o.spent !== undefined,
        ...(o.spent === undefined
          ? {}
          : {
              milestoneIndexSpent: o.spent.slot,
              milestoneTimestampSpent: end(o.spent.slot),
              transactionIdSpent: o.spent.txId,
            }),
        milestoneIndexBooked: o.slot,
        milestoneTimestampBooked: end(o.slot),
        ledgerIndex: SLOTS,
      });
    }
  });
  it('the output itself: JSON as iota.js reads it from the block, bytes as iota.js serializes them', async () => {
    const client = new iota.SingleNodeClient(origin);
    let checked = 0;
    for (const [, { block }] of reference.committedBlocks) {
      if (block.transactionId === undefined) continue;
      const parsed = iota.deserializeBlock(new ReadStream(block.bytes)).payload.essence.outputs;
      for (const [i, id] of block.created.entries()) {
        const answer = await client.output(id);
        expect(answer.output).toEqual(parsed[i]);
        const w = new WriteStream();
        iota.serializeOutput(w, parsed[i]);
        expect(hexOf(await client.outputRaw(id))).toBe(hexOf(w.finalBytes()));
        expect(await client.outputMetadata(id)).toEqual(answer.metadata);
        checked++;
      }
      if (checked > 60) break;
    }
    expect(checked).toBeGreaterThan(60);
  });
  it('TIP-25 schemas: an unspent and a spent output, their metadata', async () => {
    const [spentId] = [...outputs].find(([, o]) => o.spent !== undefined)!;
    const [unspentId] = [...outputs].find(([, o]) => o.spent === undefined)!;
    for (const id of [spentId, unspentId]) {
      await valid(`${V2}/outputs/{outputId}`, `${V2}/outputs/${id}`);
      await valid(`${V2}/outputs/{outputId}/metadata`, `${V2}/outputs/${id}/metadata`);
    }
  });
});

describe('blocks', () => {
  it('every committed block: JSON that sdk-wasm hashes to its id, its exact bytes, its metadata', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    let withoutTransaction = 0;
    for (const [id, { block, slot }] of reference.committedBlocks) {
      expect(sdk.Utils.blockId(await client.getBlock(id))).toBe(id);
      expect(hexOf(await client.getBlockRaw(id))).toBe(hexOf(block.bytes));
      const parents = Array.from({ length: block.bytes[1]! }, (_, i) =>
        hexOf(block.bytes.subarray(2 + 32 * i, 34 + 32 * i)),
      );
      if (block.transactionId === undefined) withoutTransaction++;
      expect(await client.getBlockMetadata(id)).toEqual({
        blockId: id,
        parents,
        isSolid: true,
        referencedByMilestoneIndex: slot,
        ledgerInclusionState: block.transactionId === undefined ? 'noTransaction' : 'included',
      });
    }
    expect(reference.committedBlocks.size).toBeGreaterThan(100);
    expect(withoutTransaction).toBeGreaterThan(0);
  }, 180_000); // a bound on a hang: every block of the reference ledger through sdk-wasm, on a busy suite
  it('TIP-25 schemas: a transaction block and its metadata', async () => {
    const [id] = [...reference.committedBlocks].find(([, b]) => b.block.transactionId !== undefined)!;
    await valid(`${V2}/blocks/{blockId}`, `${V2}/blocks/${id}`);
    await valid(`${V2}/blocks/{blockId}/metadata`, `${V2}/blocks/${id}/metadata`);
  });
});

describe('tips and milestones', () => {
  it('tips: up to 8 blocks of the newest slot with blocks, in id order (iota.js and sdk-wasm)', async () => {
    const newest = [...reference.committedBlocks.values()].at(-1)!.slot;
    const ids = [...reference.committedBlocks].filter(([, b]) => b.slot === newest).map(([id]) => id);
    const expected = ids.sort().slice(0, 8);
    expect(await new sdk.Client({ nodes: [origin] }).getTips()).toEqual(expected);
    expect((await new iota.SingleNodeClient(origin).tips()).tips).toEqual(expected);
    await valid(`${V2}/tips`, `${V2}/tips`);
  });
  it('every committed slot as a milestone, by index and by id: its fields from the reference commitments', async () => {
    const client = new sdk.Client({ nodes: [origin] });
    const iotaClient = new iota.SingleNodeClient(origin);
    for (let slot = 1; slot <= SLOTS; slot++) {
      const c = reference.commitment(slot)!;
      const previous = reference.commitment(slot - 1)!;
      const milestoneId = `0x${c.id.slice(10)}`; // the commitment id without its first 4 bytes
      const m = await client.getMilestoneByIndex(slot);
      expect(m).toMatchObject({ type: 7, index: slot, timestamp: end(slot), protocolVersion: 2 });
      expect(m.previousMilestoneId).toBe(`0x${previous.id.slice(10)}`);
      // The metadata is the commitment: its hash is the commitment id's first 32 bytes.
      expect(hexOf(blake2b(Buffer.from(m.metadata.slice(2), 'hex'), { dkLen: 32 }))).toBe(c.id.slice(0, 66));
      const ids = [...reference.committedBlocks].filter(([, b]) => b.slot === slot).map(([id]) => id);
      expect(m.parents).toEqual(ids.length === 0 ? [`0x${'00'.repeat(32)}`] : ids.sort().slice(0, 8));
      expect(await client.getMilestoneById(milestoneId)).toEqual(m);
      expect(await iotaClient.milestoneByIndex(slot)).toEqual(m);
      const changes = { index: slot, createdOutputs: c.created, consumedOutputs: c.consumed };
      expect(await client.getUtxoChangesByIndex(slot)).toEqual(changes);
      expect(await client.getUtxoChangesById(milestoneId)).toEqual(changes);
    }
    const { body } = await get(`${V2}/info`);
    expect(body.status.latestMilestone.milestoneId).toBe(`0x${reference.commitment(SLOTS)!.id.slice(10)}`);
  });
  it('TIP-25 schemas: a milestone and its UTXO changes, by index and by id', async () => {
    const id = `0x${reference.commitment(7)!.id.slice(10)}`;
    await valid(`${V2}/milestones/by-index/{index}`, `${V2}/milestones/by-index/7`);
    await valid(`${V2}/milestones/by-index/{index}/utxo-changes`, `${V2}/milestones/by-index/7/utxo-changes`);
    await valid(`${V2}/milestones/{milestoneId}`, `${V2}/milestones/${id}`);
    await valid(`${V2}/milestones/{milestoneId}/utxo-changes`, `${V2}/milestones/${id}/utxo-changes`);
  });
});

describe('errors', () => {
  it('malformed ids are 400, unknown ones 404, each in the envelope TIP-25 gives', async () => {
    const cases: [string, string, number][] = [
      [`${V2}/outputs/{outputId}`, `${V2}/outputs/0x1234`, 400],
      [`${V2}/outputs/{outputId}`, `${V2}/outputs/0x${'ab'.repeat(34)}`, 404],
      [`${V2}/outputs/{outputId}/metadata`, `${V2}/outputs/zz/metadata`, 400],
      [`${V2}/blocks/{blockId}`, `${V2}/blocks/0x${'ab'.repeat(33)}`, 400],
      [`${V2}/blocks/{blockId}`, `${V2}/blocks/0x${'ab'.repeat(32)}`, 404],
      [`${V2}/blocks/{blockId}/metadata`, `${V2}/blocks/0x${'ab'.repeat(32)}/metadata`, 404],
      [`${V2}/milestones/by-index/{index}`, `${V2}/milestones/by-index/41`, 404],
      [`${V2}/milestones/by-index/{index}`, `${V2}/milestones/by-index/-1`, 400],
      [`${V2}/milestones/{milestoneId}`, `${V2}/milestones/0x${'ab'.repeat(32)}`, 404],
      [`${V2}/milestones/{milestoneId}/utxo-changes`, `${V2}/milestones/0x${'ab'.repeat(31)}/utxo-changes`, 400],
    ];
    for (const [template, path, status] of cases) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(contractErrors('core', template, status, answer.body)).toEqual([]);
    }
  });
  it('a milestone id whose slot is committed but whose hash is another: 404', async () => {
    const id = reference.commitment(7)!.id.slice(10);
    const forged = `0x${id.slice(0, 10)}${id[10] === '0' ? '1' : '0'}${id.slice(11)}`;
    expect((await get(`${V2}/milestones/${forged}`)).status).toBe(404);
  });
  it('an unsynced node answers 503 for tips and block metadata (hornet checkNodeAlmostSynced), the rest as before', async () => {
    ledger.setSynced(false);
    try {
      expect((await get(`${V2}/tips`)).status).toBe(503);
      expect((await get(`${V2}/blocks/0x${'ab'.repeat(32)}/metadata`)).status).toBe(503);
      expect((await get(`${V2}/milestones/by-index/3`)).status).toBe(200);
    } finally {
      ledger.setSynced(undefined);
    }
  });
});

describe('a block accepted into an open slot (runs last: it commits slot 41)', () => {
  it('is a tip, not referenced yet; referenced, and no longer a tip of its own, once its slot commits', async () => {
    // A block without payload, by hand (TIP-24): version 2, one parent, an empty payload, nonce 0 (minPowScore 0).
    const parent = [...reference.committedBlocks.keys()].at(-1)!;
    const bytes = new Uint8Array(1 + 1 + 32 + 4 + 8);
    bytes[0] = 2;
    bytes[1] = 1;
    bytes.set(Buffer.from(parent.slice(2), 'hex'), 2);
    const id = hexOf(blake2b(bytes, { dkLen: 32 }));
    ledger.acceptBlock(bytes, { slot: SLOTS + 1 });
    expect((await get(`${V2}/tips`)).body).toEqual({ tips: [id] });
    const pending = await valid(`${V2}/blocks/{blockId}/metadata`, `${V2}/blocks/${id}/metadata`);
    expect(pending).toEqual({
      blockId: id,
      parents: [parent],
      isSolid: true,
      shouldPromote: false,
      shouldReattach: false,
    });
    expect(hexOf((await get(`${V2}/blocks/${id}`, 'application/vnd.iota.serializer-v1')).raw)).toBe(hexOf(bytes));
    ledger.commitSlot(SLOTS + 1);
    expect((await get(`${V2}/blocks/${id}/metadata`)).body).toEqual({
      blockId: id,
      parents: [parent],
      isSolid: true,
      referencedByMilestoneIndex: SLOTS + 1,
      ledgerInclusionState: 'noTransaction',
    });
    expect((await get(`${V2}/tips`)).body).toEqual({ tips: [id] }); // the newest committed slot's only block
  });

  it('a synced node whose last 64 slots hold no block has no tips: 503 (hornet), never 200 with an empty list', async () => {
    for (let slot = SLOTS + 2; slot <= SLOTS + 1 + 64; slot++) ledger.commitSlot(slot);
    ledger.setSynced(true);
    try {
      const answer = await get(`${V2}/tips`);
      expect([answer.status, answer.body.error.message]).toEqual([503, expect.stringMatching(/no tips available/)]);
      expect((await get(`${V2}/info`)).body.status.isHealthy).toBe(true);
    } finally {
      ledger.setSynced(undefined);
    }
  });
});

describe('the lookup route (the explorer asks it what a name is before it asks a route that would answer 404)', () => {
  const look = async (name: string) => {
    const res = await fetch(`${origin}/api/tangle-core/v1/lookup/${name}`);
    return { status: res.status, body: await res.json() };
  };
  it('names a block, a transaction, an output and a milestone index as the reference ledger holds them; a miss is 200 none', async () => {
    const [outputId, { slot, blockId, spent }] = [...outputs].find(([, o]) => o.spent !== undefined)!;
    expect(await look(blockId)).toEqual({ status: 200, body: { kind: 'block' } });
    expect(await look(spent!.txId)).toEqual({ status: 200, body: { kind: 'transaction' } });
    expect(await look(outputId)).toEqual({ status: 200, body: { kind: 'output' } });
    expect(await look(String(slot))).toEqual({ status: 200, body: { kind: 'milestone', index: slot } });
    expect(await look(String(SLOTS + 1000))).toEqual({ status: 200, body: { kind: 'none' } });
    expect(await look(`0x${'ab'.repeat(32)}`)).toEqual({ status: 200, body: { kind: 'none' } });
    expect(await look(`0x${'ab'.repeat(34)}`)).toEqual({ status: 200, body: { kind: 'none' } });
  });
  it('refuses what is neither an index nor an ID of 32 or 34 bytes: 400', async () => {
    for (const name of ['0x12', `0x${'zz'.repeat(32)}`, 'abc', '99999999999'])
      expect((await look(name)).status, name).toBe(400);
  });
});
