// Issue 30: the node event API (TIP-28) through the `mqtt` npm client over WebSocket at /api/mqtt/v1, while a
// simulated network commits slot after slot. Each slot's messages are checked, as soon as the slot's milestone info
// arrives (and before the next slot commits), against what the REST routes answer for the same ids at that moment,
// byte for byte, and against an independent account of what the slot held: the reference ledger fed the same history
// (test/helpers/reference-ledger.ts), with block IDs, chain IDs and bech32 addresses computed by @noble/hashes,
// iota.js and sdk-wasm rather than by tangle-core.
import { createRequire } from 'node:module';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlotFeed } from '../../src/events/feed.js';
import type { startEvents } from '../../src/events/service.js';
import { type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { type SimEvent, Simulation } from '../../src/sim/simulator.js';
import { type Received, serveWithEvents, subscriber } from '../helpers/mqtt.js';
import { hexOf, ReferenceLedger } from '../helpers/reference-ledger.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');
const sdk = require('@iota/sdk-wasm/node');

const GENESIS = 1_700_000_000;
const SLOTS = 24;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const BINARY = 'application/vnd.iota.serializer-v1';

let ledger: Ledger;
let events: Awaited<ReturnType<typeof startEvents>>;
let served: Awaited<ReturnType<typeof serveWithEvents>>;
let origin: string;
let sim: Simulation;
let reference: ReferenceLedger;
/** What the live subscriber received, slot by slot. */
let live: Received[] = [];
/** The last slot committed into the ledger (its clock runs one slot ahead). */
let committedUpTo = SLOTS;

beforeAll(async () => {
  sim = new Simulation({ params, seed: 7 });
  const genesis = sim.genesis();
  ledger = openLedger({ params, genesis, clock: () => GENESIS + (committedUpTo + 1) * 10 });
  ledger.setSynced(true);
  reference = new ReferenceLedger(params, genesis.accounts ?? []);
  served = await serveWithEvents(ledger, { errorCodeAsString: true });
  events = served.events;
  origin = served.origin;
});
afterAll(async () => {
  await served.close();
  ledger.close();
});

const wsUrl = () => `${origin.replace('http', 'ws')}/api/mqtt/v1`;
async function rest(path: string, accept = 'application/json'): Promise<Buffer> {
  const res = await fetch(origin + path, { headers: { accept } });
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}
/** Commits `slot` of the simulation into the ledger and the reference alike. */
function commit(slot: number): void {
  committedUpTo = Math.max(committedUpTo, slot);
  for (const e of sim.slot(slot) as SimEvent[]) {
    applyEvent(ledger, e);
    reference.apply(e as never);
  }
}
const confirmed = (slot: number) => (r: Received[]) =>
  r.some((m) => m.topic === 'milestone-info/confirmed' && JSON.parse(m.payload.toString()).index === slot);
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const blockIdOf = (bytes: Uint8Array) => hex(blake2b(bytes, { dkLen: 32 }));

/** The address of an unlock condition in bech32, by iota.js. */
function bech32Of(address: { type: number; pubKeyHash?: string; aliasId?: string; nftId?: string }): string {
  const id = address.pubKeyHash ?? address.aliasId ?? address.nftId!;
  return iota.Bech32Helper.toBech32(address.type, Buffer.from(id.slice(2), 'hex'), params.bech32Hrp);
}
const CONDITION = [
  'address',
  'storage-return',
  undefined,
  'expiration',
  'state-controller',
  'governor',
  'immutable-alias',
];

describe('a slot at a time, every topic', () => {
  it('equals the REST answers of that moment and the reference ledger, in commit order', async () => {
    const sub = await subscriber(wsUrl(), ['#']);
    expect(sub.granted).toEqual([0]);
    // And an MQTT 5 client beside it, which must receive the same messages in the same order (mqtt5.ts translates).
    const sub5 = await subscriber(wsUrl(), ['#'], { protocolVersion: 5 });
    let seen = 0;
    let blocksSeen = 0;
    const taggedSeen = { 'blocks/tagged-data': 0, 'blocks/transaction/tagged-data': 0 };
    let outputsSeen = 0;
    const chainKinds = new Set<string>();
    for (let slot = 1; slot <= SLOTS; slot++) {
      commit(slot);
      await sub.until(confirmed(slot));
      const batch = sub.received.slice(seen);
      seen = sub.received.length;
      const of = (t: string) => batch.filter((m) => m.topic === t);
      // Last: the milestone info, as /info has it now.
      const info = JSON.parse((await rest('/api/core/v2/info')).toString()).status.latestMilestone;
      expect(batch.slice(-2).map((m) => m.topic)).toEqual(['milestone-info/latest', 'milestone-info/confirmed']);
      for (const m of batch.slice(-2)) expect(m.payload.toString()).toBe(JSON.stringify(info));
      expect(info.index).toBe(slot);
      // The slot's "milestone", in bytes, after its blocks.
      expect(of('milestones')).toHaveLength(1);
      expect(of('milestones')[0]!.payload).toEqual(await rest(`/api/core/v2/milestones/by-index/${slot}`, BINARY));
      const milestoneAt = batch.findIndex((m) => m.topic === 'milestones');
      expect(batch.slice(milestoneAt).some((m) => m.topic === 'blocks')).toBe(false);

      // Blocks: exactly the reference's committed blocks of the slot, each as /blocks/{id} in binary.
      const expected = [...reference.committedBlocks].filter(([, b]) => b.slot === slot);
      const blocks = of('blocks');
      expect(blocks.map((m) => blockIdOf(m.payload)).sort()).toEqual(expected.map(([id]) => id).sort());
      // Compared as hex: vitest's deep equality walks a 32 KiB buffer byte by byte, slowly.
      for (const m of blocks)
        expect(hexOf(m.payload)).toBe(hexOf(await rest(`/api/core/v2/blocks/${blockIdOf(m.payload)}`, BINARY)));
      const txBlocks = expected.filter(([, b]) => b.block.transactionId !== undefined);
      expect(
        of('blocks/transaction')
          .map((m) => blockIdOf(m.payload))
          .sort(),
      ).toEqual(txBlocks.map(([id]) => id).sort());
      blocksSeen += blocks.length;
      // Tagged data, by iota.js's reading of each block: its topics, and the tag's own topic where the tag is not
      // empty (a transaction's inner tagged data on blocks/transaction/tagged-data).
      for (const [kind, carriers] of [
        ['blocks/tagged-data', expected.filter(([, b]) => b.block.tag !== undefined && !b.block.transactionId)],
        [
          'blocks/transaction/tagged-data',
          expected.filter(([, b]) => b.block.tag !== undefined && b.block.transactionId),
        ],
      ] as const) {
        expect(
          of(kind)
            .map((m) => blockIdOf(m.payload))
            .sort(),
          kind,
        ).toEqual(carriers.map(([id]) => id).sort());
        const tagged = batch.filter((m) => m.topic.startsWith(`${kind}/`));
        const withTag = carriers.filter(([, b]) => b.block.tag !== '0x');
        expect(tagged.map((m) => `${m.topic} ${blockIdOf(m.payload)}`).sort(), kind).toEqual(
          withTag.map(([id, b]) => `${kind}/${b.block.tag} ${id}`).sort(),
        );
        taggedSeen[kind] += carriers.length;
      }

      // Each block's metadata (referenced by this slot), on its own topic and on `referenced`.
      for (const [id] of expected) {
        const body = (await rest(`/api/core/v2/blocks/${id}/metadata`)).toString();
        expect(of(`block-metadata/${id}`).map((m) => m.payload.toString())).toEqual([body]);
        expect(JSON.parse(body).referencedByMilestoneIndex).toBe(slot);
      }
      expect(of('block-metadata/referenced')).toHaveLength(expected.length);
      // Each transaction's included block, as /transactions/{id}/included-block in binary.
      for (const [, { block }] of txBlocks) {
        const path = `/api/core/v2/transactions/${block.transactionId}/included-block`;
        expect(of(`transactions/${block.transactionId}/included-block`).map((m) => m.payload)).toEqual([
          await rest(path, BINARY),
        ]);
      }

      // Outputs: created, then spent, exactly the reference commitment's; the last message of each id is /outputs/{id}.
      const c = reference.commitment(slot)!;
      const outputMessages = batch.filter((m) => /^outputs\/0x[0-9a-f]{68}$/.test(m.topic));
      const created = outputMessages.filter((m) => !JSON.parse(m.payload.toString()).metadata.isSpent);
      const spent = outputMessages.filter((m) => JSON.parse(m.payload.toString()).metadata.isSpent);
      expect(created.map((m) => m.topic.slice(8)).sort()).toEqual([...c.created].sort());
      expect(spent.map((m) => m.topic.slice(8)).sort()).toEqual([...c.consumed].sort());
      expect(outputMessages.indexOf(spent[0]!)).toBeGreaterThanOrEqual(spent.length === 0 ? -1 : created.length);
      for (const m of outputMessages) {
        const now = (await rest(`/api/core/v2/${m.topic}`)).toString();
        const last = outputMessages.filter((x) => x.topic === m.topic).at(-1);
        if (m === last) expect(m.payload.toString()).toBe(now);
        else expect(JSON.parse(m.payload.toString()).output).toEqual(JSON.parse(now).output);
        expect(JSON.parse(m.payload.toString()).metadata.ledgerIndex).toBe(slot);
      }
      outputsSeen += outputMessages.length;

      // Unlock topics: one per unlock condition naming an address (bech32 by iota.js), with the output's message.
      const byId = new Map(
        outputMessages.map((m) => [m.topic.slice(8) + m.payload.toString().includes('"isSpent":true'), m]),
      );
      const unlock = batch.filter((m) => m.topic.startsWith('outputs/unlock/'));
      const wanted: string[] = [];
      for (const m of outputMessages) {
        const body = JSON.parse(m.payload.toString());
        for (const uc of body.output.unlockConditions) {
          const name = CONDITION[uc.type];
          const address = uc.address ?? uc.returnAddress;
          if (name === undefined || address === undefined) continue;
          wanted.push(`outputs/unlock/${name}/${bech32Of(address)}${body.metadata.isSpent ? '/spent' : ''}`);
        }
      }
      expect(unlock.map((m) => m.topic).sort()).toEqual(wanted.sort());
      for (const m of unlock) {
        const body = JSON.parse(m.payload.toString());
        const id =
          body.metadata.transactionId +
          hexOf(Uint8Array.of(body.metadata.outputIndex & 0xff, body.metadata.outputIndex >> 8)).slice(2);
        expect(hexOf(m.payload)).toBe(hexOf(byId.get(id + body.metadata.isSpent)!.payload));
      }

      // Chain topics: the chain's id by sdk-wasm (an alias or NFT created with id zero: from its output id).
      for (const m of batch.filter((x) => /^outputs\/(alias|nft|foundry)\//.test(x.topic))) {
        const [, kind, id] = m.topic.split('/');
        const body = JSON.parse(m.payload.toString());
        const outputId = sdk.Utils.computeOutputId(body.metadata.transactionId, body.metadata.outputIndex);
        const zero = `0x${'0'.repeat(64)}`;
        const expectedId =
          kind === 'alias'
            ? body.output.aliasId === zero
              ? sdk.Utils.computeAliasId(outputId)
              : body.output.aliasId
            : kind === 'nft'
              ? body.output.nftId === zero
                ? sdk.Utils.computeNftId(outputId)
                : body.output.nftId
              : sdk.Utils.computeFoundryId(
                  body.output.unlockConditions[0].address.aliasId,
                  body.output.serialNumber,
                  body.output.tokenScheme.type,
                );
        expect(id).toBe(expectedId);
        expect(body.metadata.isSpent).toBe(false);
        chainKinds.add(kind!);
      }
    }
    // The history reached every kind of topic (else the checks above prove little).
    expect(blocksSeen).toBeGreaterThan(SLOTS);
    expect(taggedSeen['blocks/tagged-data']).toBeGreaterThan(0);
    expect(taggedSeen['blocks/transaction/tagged-data']).toBeGreaterThan(0);
    expect(outputsSeen).toBeGreaterThan(SLOTS);
    expect([...chainKinds].sort()).toEqual(['alias', 'foundry', 'nft']);
    live = sub.received;
    await sub.end();
    await sub5.until(confirmed(SLOTS));
    expect(sub5.received.length).toBe(live.length);
    for (let i = 0; i < live.length; i++) {
      expect(sub5.received[i]!.topic).toBe(live[i]!.topic);
      expect(hexOf(sub5.received[i]!.payload), live[i]!.topic).toBe(hexOf(live[i]!.payload));
    }
    await sub5.end();
  });

  it('are the same from a feed that starts behind: each slot as it was when committed', async () => {
    // A feed started at slot 1 once all slots are committed reads each slot from the store long after the outputs it
    // created were spent: it must still publish them unspent, with that slot's ledger index, as the live feed did.
    expect(live.length).toBeGreaterThan(0);
    const late: Received[] = [];
    const feed = new SlotFeed(
      ledger,
      async (messages) => {
        for (const m of messages) late.push({ topic: m.topic, payload: Buffer.from(m.payload) });
      },
      1,
    );
    feed.wake();
    await feed.settled();
    expect(feed.cursor).toBe(SLOTS + 1);
    expect(late.length).toBe(live.length);
    for (let i = 0; i < live.length; i++) {
      expect(late[i]!.topic).toBe(live[i]!.topic);
      expect(late[i]!.payload.toString('hex'), late[i]!.topic).toBe(live[i]!.payload.toString('hex'));
    }
  });
});

describe('a subscriber that comes and goes', () => {
  /** Resolves once the feed has published `slot` (an observed state, not a time). */
  async function published(slot: number): Promise<void> {
    while (events.feed.cursor <= slot) await events.feed.settled();
  }

  // MQTT 3.1.1's persistent session, then MQTT 5's (a session expiry), each over five more slots.
  it.each([
    { version: '3.1.1', base: SLOTS, session: { clientId: 'a-wallet', clean: false } },
    {
      version: '5',
      base: SLOTS + 5,
      session: {
        clientId: 'a-v5-wallet',
        clean: false,
        protocolVersion: 5,
        properties: { sessionExpiryInterval: 600 },
      },
    },
  ] as const)(
    'over MQTT $version, a persistent session gets every block and milestone once across a reconnect, in order',
    async ({ base, session: asked }) => {
      const session = { ...asked, qos: 1 as const };
      const first = await subscriber(wsUrl(), ['blocks', 'milestone-info/confirmed'], session);
      expect(first.granted).toEqual([1, 1]);
      commit(base + 1);
      await first.until(confirmed(base + 1));
      await first.end();
      // Away for three slots: the broker keeps their messages for the session.
      for (let slot = base + 2; slot <= base + 4; slot++) commit(slot);
      await published(base + 4);
      expect(events.broker!.sessions.queued(session.clientId)).toBeGreaterThan(3);
      // Back, without subscribing again: the session still holds the subscriptions.
      const second = await subscriber(wsUrl(), [], session);
      commit(base + 5);
      await second.until(confirmed(base + 5));
      await second.end();

      const all = [...first.received, ...second.received];
      const milestones = all.filter((m) => m.topic === 'milestone-info/confirmed');
      // The first is what the topic held at the subscription (slot SLOTS), then one per slot committed since.
      const indices = milestones.map((m) => JSON.parse(m.payload.toString()).index);
      expect(indices).toEqual([0, 1, 2, 3, 4, 5].map((k) => base + k));
      const ids = all.filter((m) => m.topic === 'blocks').map((m) => blockIdOf(m.payload));
      const expected = [...reference.committedBlocks]
        .filter(([, b]) => b.slot > base && b.slot <= base + 5)
        .map(([id]) => id);
      expect(expected.length).toBeGreaterThan(5);
      expect(ids.length).toBe(expected.length); // none twice
      expect([...ids].sort()).toEqual([...expected].sort()); // none missed
      // Commit order: each block arrives after the previous slot's milestone info and before its own slot's.
      const at = (slot: number) => all.indexOf(milestones[indices.indexOf(slot)]!);
      for (const m of all.filter((x) => x.topic === 'blocks')) {
        const slot = reference.committedBlocks.get(blockIdOf(m.payload))!.slot;
        expect(at(slot - 1)).toBeLessThan(all.indexOf(m));
        expect(at(slot)).toBeGreaterThan(all.indexOf(m));
      }
      // Every message acknowledged, none left held for the session (the broker's count, once it has read the PUBACKs).
      while (events.broker!.sessions.queued(session.clientId) > 0) await new Promise((done) => setTimeout(done, 5));
    },
  );

  it('subscribing to a topic by name first gets what it holds now, as the REST route answers it', async () => {
    const outputId = live.find((m) => /^outputs\/0x[0-9a-f]{68}$/.test(m.topic))!.topic.slice(8);
    const block = live.find((m) => m.topic === 'blocks/transaction')!.payload;
    const blockId = blockIdOf(block);
    const txId = reference.committedBlocks.get(blockId)!.block.transactionId!;
    const unknown = `outputs/0x${'ab'.repeat(34)}`;
    // In this order, one at a time: the unknown output has nothing to send, the rest arrive in order.
    const topics = [
      unknown,
      `outputs/${outputId}`,
      `block-metadata/${blockId}`,
      `transactions/${txId}/included-block`,
      'milestone-info/latest',
    ];
    const sub = await subscriber(wsUrl(), topics);
    await sub.until((r) => r.length === 4);
    expect(sub.received.map((m) => m.topic)).toEqual(topics.slice(1));
    const [output, metadata, included, info] = sub.received.map((m) => m.payload);
    expect(output!.toString()).toBe((await rest(`/api/core/v2/outputs/${outputId}`)).toString());
    expect(metadata!.toString()).toBe((await rest(`/api/core/v2/blocks/${blockId}/metadata`)).toString());
    expect(included).toEqual(await rest(`/api/core/v2/transactions/${txId}/included-block`, BINARY));
    expect(included).toEqual(block);
    const latest = JSON.parse((await rest('/api/core/v2/info')).toString()).status.latestMilestone;
    expect(info!.toString()).toBe(JSON.stringify(latest));
    await sub.end();
    // And the node says it has the event API, as hornet does when inx-mqtt is attached.
    expect(JSON.parse((await rest('/api/routes')).toString()).routes).toEqual([
      'core/v2',
      'core/v3',
      'indexer/v1',
      'mqtt/v1',
      'explorer/v2',
      'analytics/v1',
      'tangle-core/v1',
      'poi/v1',
    ]);
  });
});
