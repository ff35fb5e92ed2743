// POST /api/core/v2/blocks and the faucet (issue 28), on the process that writes and through one that only reads:
// JSON and bytes, tips and proof of work filled in by the node, the block in its open slot until the slot commits,
// every refusal a 400 naming the rule, and @iota/iota.js 2.0-rc.4 posting a transfer it built and signed itself, then
// finding its output through its IndexerPluginClient. Each answer checked against TIP-25's and TIP-26's schemas.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  type BasicOutput,
  blockToJson,
  createServer,
  decodeBlock,
  findNonce,
  type Output,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  powScore,
  protocolParameters,
  type ServerOptions,
  toHex,
} from '../../../src/index.js';
import { ledgerIntake } from '../../../src/node/block-intake.js';
import { Faucet } from '../../../src/node/faucet.js';
import { contractErrors } from '../../helpers/contracts.js';
import { basic, genesisOutputs, owner, secret, transferBlock } from '../../helpers/wallet.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');
const bigInt = require('big-integer');

const GENESIS = 1_700_000_000;
const NOW = GENESIS + 100;
const genesis = genesisOutputs([1, 2, 3, 4]);
const hexOf = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const idOf = (bytes: Uint8Array) => hexOf(blake2b(bytes, { dkLen: 32 }));

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

async function node(
  params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS }),
  pow = true,
) {
  const ledger = openLedger({ params, genesis: { outputs: genesis }, clock: () => NOW });
  // A few committed slots, the last with a block: the tips a block without parents gets.
  const first = transferBlock(params, [genesis[3]!], [basic(owner(4), 1_000_000_000n)], 0n, 9);
  const nonce = findNonce(first.subarray(0, first.length - 8), params.minPowScore)!;
  const { blockId: tip } = ledger.acceptBlock(
    transferBlock(params, [genesis[3]!], [basic(owner(4), 1_000_000_000n)], nonce, 9),
    { slot: 8 },
  );
  for (let s = 1; s <= 9; s++) ledger.commitSlot(s);
  const origin = await listen({ ledger, blocks: ledgerIntake(ledger, { pow }), ...(pow ? { pow } : {}) });
  // The block every posted block takes as its parent: one the node knows, so that it is solid.
  return { ledger, origin, params, tip };
}

async function listen(options: ServerOptions): Promise<string> {
  const server = createServer({ errorCodeAsString: true, ...options });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(() => new Promise<void>((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const post = async (origin: string, body: Uint8Array | string, type: string, path = '/api/core/v2/blocks') => {
  const res = await fetch(origin + path, { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, location: res.headers.get('location'), body: (await res.json()) as any };
};
const BYTES = 'application/vnd.iota.serializer-v1';

let n: Awaited<ReturnType<typeof node>>;
beforeAll(async () => {
  n = await node();
});

describe('POST /api/core/v2/blocks on the writer', () => {
  it('bytes: 201, the block ID (and Location), the block pending in the open slot, included once it commits', async () => {
    const bytes = transferBlock(n.params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)], 0n, n.tip);
    const answer = await post(n.origin, bytes, BYTES);
    expect(answer).toEqual({ status: 201, location: idOf(bytes), body: { blockId: idOf(bytes) } });
    expect(contractErrors('core', '/api/core/v2/blocks', 201, answer.body, 'post')).toEqual([]);
    const meta = await (await fetch(`${n.origin}/api/core/v2/blocks/${idOf(bytes)}/metadata`)).json();
    expect(meta).toMatchObject({ blockId: idOf(bytes), shouldPromote: false, shouldReattach: false });
    n.ledger.commitSlot(10);
    const after = await (await fetch(`${n.origin}/api/core/v2/blocks/${idOf(bytes)}/metadata`)).json();
    expect(after).toMatchObject({ referencedByMilestoneIndex: 10, ledgerInclusionState: 'included' });
  });

  it('JSON without parents or nonce: the node gives it the tips (sorted) and nonce 0 (minPowScore 0)', async () => {
    const bytes = transferBlock(n.params, [genesis[1]!], [basic(owner(3), 1_000_000_000n)]);
    const { parents: _, nonce: __, ...json } = blockToJson(decodeBlock(bytes)) as Record<string, unknown>;
    const tips = ((await (await fetch(`${n.origin}/api/core/v2/tips`)).json()) as any).tips as string[];
    const answer = await post(n.origin, JSON.stringify(json), 'application/json; charset=utf-8');
    expect(answer.status).toBe(201);
    const stored = (await (await fetch(`${n.origin}/api/core/v2/blocks/${answer.body.blockId}`)).json()) as any;
    expect(stored.parents).toEqual([...tips].sort());
    expect(stored.payload).toEqual(json.payload);
  });

  it('a block without a nonce on a network that asks for work: the node finds one (pow); without pow, refused', async () => {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS, minPowScore: 50 });
    const withPow = await node(params, true);
    const bytes = transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)], 0n, withPow.tip);
    expect(powScore(bytes)).toBeLessThan(50);
    const answer = await post(withPow.origin, bytes, BYTES);
    expect(answer.status).toBe(201);
    const raw = await fetch(`${withPow.origin}/api/core/v2/blocks/${answer.body.blockId}`, {
      headers: { accept: BYTES },
    });
    expect(powScore(new Uint8Array(await raw.arrayBuffer()))).toBeGreaterThanOrEqual(50);
    expect(((await (await fetch(`${withPow.origin}/api/core/v2/info`)).json()) as any).features).toEqual(['pow']);
    const without = await node(params, false);
    const refused = await post(without.origin, bytes, BYTES);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/POW/);
    expect(((await (await fetch(`${without.origin}/api/core/v2/info`)).json()) as any).features).toEqual([]);
  });

  it('refusals: 400 in the envelope, naming the rule and the field', async () => {
    const spent = transferBlock(n.params, [genesis[0]!], [basic(owner(3), 1_000_000_000n)], 0n, n.tip);
    // hornet attaches no block whose parents it lacks: a parent the node never saw is refused, never called solid.
    const orphan = transferBlock(n.params, [genesis[1]!], [basic(owner(3), 1_000_000_000n)], 0n, 0xee);
    const cases: [Uint8Array | string, string, RegExp][] = [
      [spent, BYTES, /INPUT_ALREADY_SPENT/],
      [orphan, BYTES, new RegExp(`parent 0x${'ee'.repeat(32)} is not known to this node: the block is not solid`)],
      ['{"protocolVersion":2,"parents":[],"payload":{"type":5,"tag":"0xzz"}}', 'application/json', /tag/],
      ['{"protocolVersion":1}', 'application/json', /protocolVersion invalid/],
      ['not json', 'application/json', /not JSON/],
      ['[]', 'application/json', /not a JSON object/],
      [new Uint8Array([2, 1, 5]), BYTES, /invalid block, error: [A-Z_]+/],
      ['{}', 'text/plain', /unsupported content type "text\/plain"/],
      [new Uint8Array(32 * 1024 + 1), BYTES, /larger than 32768 bytes/],
    ];
    for (const [body, type, message] of cases) {
      const answer = await post(n.origin, body, type);
      expect([type, answer.status]).toEqual([type, 400]);
      expect(answer.body.error.message).toMatch(message);
      expect(contractErrors('core', '/api/core/v2/blocks', 400, answer.body, 'post')).toEqual([]);
    }
    expect((await fetch(`${n.origin}/api/core/v2/blocks/${idOf(orphan)}/metadata`)).status).toBe(404);
    // hornet's checkNodeAlmostSynced: an unsynced node takes no block, however good.
    const good = transferBlock(n.params, [genesis[1]!], [basic(owner(3), 1_000_000_000n)], 0n, n.tip);
    n.ledger.setSynced(false);
    try {
      const unsynced = await post(n.origin, good, BYTES);
      expect([unsynced.status, unsynced.body.error.message]).toEqual([503, expect.stringMatching(/not synced/)]);
    } finally {
      n.ledger.setSynced(undefined);
    }
    expect((await fetch(`${n.origin}/api/core/v2/blocks/${idOf(good)}/metadata`)).status).toBe(404);
    // Other methods: 405 naming POST.
    const get = await fetch(`${n.origin}/api/core/v2/blocks`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
  });
});

describe('a server that only reads', () => {
  it('without a writer: 503 saying so; with one (--writer-url): the POST reaches it, the metadata too', async () => {
    const reader = openLedger({ params: n.params, genesis: { outputs: genesis }, clock: () => NOW });
    closers.push(async () => reader.close());
    const alone = await listen({ ledger: reader });
    const bytes = transferBlock(n.params, [genesis[2]!], [basic(owner(1), 1_000_000_000n)], 0n, n.tip);
    const refused = await post(alone, bytes, BYTES);
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toMatch(/--writer-url/);
    const forwarding = await listen({ ledger: reader, writerUrl: n.origin });
    expect(await post(forwarding, bytes, BYTES)).toEqual({
      status: 201,
      location: idOf(bytes),
      body: { blockId: idOf(bytes) },
    });
    // The reader's own store has no such block: it asks the writer, which has it in its open slot.
    const meta = await fetch(`${forwarding}/api/core/v2/blocks/${idOf(bytes)}/metadata`);
    expect(meta.status).toBe(200);
    expect(((await meta.json()) as any).blockId).toBe(idOf(bytes));
    expect((await fetch(`${forwarding}/api/core/v2/blocks/0x${'ee'.repeat(32)}/metadata`)).status).toBe(404);
    // The explorer's lookup likewise names it a block (it said none, and the explorer "nothing named" it); what the
    // writer does not hold either is none, 200.
    const lookup = async (name: string) =>
      (await (await fetch(`${forwarding}/api/tangle-core/v1/lookup/${name}`)).json()) as { kind: string };
    expect(await lookup(idOf(bytes))).toEqual({ kind: 'block' });
    expect(await lookup(`0x${'ee'.repeat(32)}`)).toEqual({ kind: 'none' });
  });
});

describe('@iota/iota.js 2.0.0-rc.4', () => {
  it('sendAdvanced: a transfer iota.js builds and signs, posted with blockSubmit; then its IndexerPluginClient finds it', async () => {
    const client = new iota.SingleNodeClient(n.origin);
    const keyPair = new iota.Ed25519Seed(secret(4)).keyPair();
    const from = genesis[3]!;
    // Key 4's genesis output was spent in slot 8 into a new output of 1,000 SMR: spend that one.
    const indexer = new iota.IndexerPluginClient(client);
    const owner4 = addressToBech32(owner(4), 'rms');
    const before = await indexer.basicOutputs({ addressBech32: owner4 });
    expect(before.items).toHaveLength(1);
    const id = before.items[0] as string;
    const { output } = await client.output(id);
    const to = owner(1) as { pubKeyHash: Uint8Array };
    const sent = await iota.sendAdvanced(
      client,
      [
        {
          input: { type: 0, transactionId: id.slice(0, 66), transactionOutputIndex: 0 },
          addressKeyPair: keyPair,
          consumingOutput: output,
        },
      ],
      [{ address: hexOf(to.pubKeyHash), addressType: 0, amount: bigInt('1000000000') }],
    );
    expect(sent.blockId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(from.key).toBe(4);
    n.ledger.commitSlot(n.ledger.latestCommitment().slot + 1);
    const owner1 = addressToBech32(owner(1), 'rms');
    const page = await indexer.basicOutputs({ addressBech32: owner1 });
    const body = { ledgerIndex: page.ledgerIndex, pageSize: page.pageSize, items: page.items };
    expect(contractErrors('indexer', '/api/indexer/v1/outputs/basic', 200, body)).toEqual([]);
    const created = iota.TransactionHelper.outputIdFromTransactionData(
      hexOf(iota.TransactionHelper.getTransactionPayloadHash(sent.block.payload)),
      0,
    );
    expect(page.items).toContain(created);
    expect((await indexer.basicOutputs({ addressBech32: owner4 })).items).toEqual([]);
    expect(toHex(new Uint8Array(32))).toMatch(/^0x0+$/);
  });
});

describe("the faucet (inx-faucet's POST /api/enqueue)", () => {
  it('202 with the queue; funded when the slot commits; 429 for a second request in one slot, 400 once funded', async () => {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
    const outputs = [...genesis, { ...genesisOutputs([9], 10_000_000_000_000n)[0]! }];
    const ledger = openLedger({ params, genesis: { outputs }, clock: () => NOW });
    closers.push(async () => ledger.close());
    ledger.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(1), 1_000_000_000n)], 0n, 5), { slot: 1 });
    for (let s = 1; s <= 9; s++) ledger.commitSlot(s);
    const faucet = new Faucet(ledger, { secret: secret(9), amount: 1_000_000_000n });
    const origin = await listen({ ledger, faucet });
    const enqueue = (address: unknown, type = 'application/json') =>
      post(origin, JSON.stringify({ address }), type, '/api/enqueue');
    const someone = addressToBech32(owner(7), 'rms');
    expect(await enqueue(someone)).toEqual({
      status: 202,
      location: null,
      body: { address: someone, waitingRequests: 1 },
    });
    expect((await enqueue(someone)).status).toBe(429);
    const other = addressToBech32(owner(8), 'rms');
    expect((await enqueue(other)).body).toEqual({ address: other, waitingRequests: 2 });
    ledger.commitSlot(10);
    const indexed = await (await fetch(`${origin}/api/indexer/v1/outputs/basic?address=${someone}`)).json();
    expect((indexed as any).items).toHaveLength(1);
    const funded = await enqueue(someone);
    expect([funded.status, funded.body.error.message]).toEqual([400, expect.stringMatching(/holds enough funds/)]);
    for (const [address, type, message] of [
      ['rms1bad', 'application/json', /invalid address rms1bad/],
      [addressToBech32(owner(6), 'smr'), 'application/json', /another network's prefix/],
      [42, 'application/json', /no "address" string/],
      [someone, 'text/plain', /must be application\/json/],
    ] as const) {
      const refused = await enqueue(address, type);
      expect([refused.status, refused.body.error.message]).toEqual([400, expect.stringMatching(message)]);
    }
  });

  /** A faucet of key 9 holding `holds`, over 9 committed slots; `extra` outputs in the genesis besides. */
  async function faucetNode(holds: bigint, extra: { outputId: Uint8Array; output: Output }[] = []) {
    const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
    const outputs = [...genesis, genesisOutputs([9], holds)[0]!, ...extra];
    const ledger = openLedger({ params, genesis: { outputs }, clock: () => NOW });
    closers.push(async () => ledger.close());
    ledger.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(1), 1_000_000_000n)], 0n, 5), { slot: 1 });
    for (let s = 1; s <= 9; s++) ledger.commitSlot(s);
    const origin = await listen({ ledger, faucet: new Faucet(ledger, { secret: secret(9), amount: 1_000_000_000n }) });
    return (k: number) =>
      post(origin, JSON.stringify({ address: addressToBech32(owner(k), 'rms') }), 'application/json', '/api/enqueue');
  }

  it('runs dry when what it holds would not leave another payout: 1.5 times the amount pays nothing, 2 times once', async () => {
    const half = await faucetNode(1_500_000_000n);
    const dry = await half(7);
    expect([dry.status, dry.body.error.message]).toEqual([503, expect.stringMatching(/the faucet has run dry/)]);
    const twice = await faucetNode(2_000_000_000n);
    expect((await twice(7)).status).toBe(202);
    expect((await twice(8)).status).toBe(503);
  });

  it('an address holding only a timelocked output is not funded already: it gets its payout', async () => {
    const locked: BasicOutput = {
      ...basic(owner(7), 5_000_000_000n),
      unlockConditions: [
        { type: 0, address: owner(7) },
        { type: 2, unixTime: NOW + 1_000_000 },
      ],
    };
    const ask = await faucetNode(10_000_000_000_000n, [
      { outputId: outputId(new Uint8Array(32).fill(0xb7), 0), output: locked },
    ]);
    expect((await ask(7)).status).toBe(202);
  });
});
