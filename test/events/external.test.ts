// Issue 30, "for many readers the writer can publish into an external broker instead (--mqtt-url)": the feed
// publishes into a real mosquitto (Debian's), a client of that broker gets every slot's messages in commit order, and
// when the broker goes away the writer commits on, the feed waits on the slot it was publishing, and once the broker
// is back the client's persistent session gets the slots it missed, in order, none twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlotFeed } from '../../src/events/feed.js';
import { startEvents } from '../../src/events/service.js';
import type { EventMessage } from '../../src/events/slot-events.js';
import { type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { MOSQUITTO, type Mosquitto, mosquitto, type Received, subscriber } from '../helpers/mqtt.js';

if (MOSQUITTO === undefined) console.warn('external broker tests skipped: no mosquitto (apt-get install mosquitto)');

const GENESIS = 1_700_000_000;
const SLOTS = 9;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });

describe.skipIf(MOSQUITTO === undefined)('publishing into mosquitto (--mqtt-url)', () => {
  let broker: Mosquitto;
  let ledger: Ledger;
  let events: Awaited<ReturnType<typeof startEvents>>;
  const sim = new Simulation({ params, seed: 11 });
  const said: string[] = [];

  beforeAll(async () => {
    broker = await mosquitto();
    ledger = openLedger({ params, genesis: sim.genesis(), clock: () => GENESIS + (SLOTS + 1) * 10 });
    events = await startEvents(ledger, { commits: ledger, mqttUrl: broker.url, onError: (l) => said.push(l) });
  });
  afterAll(async () => {
    await events?.close();
    await broker?.stop();
    ledger?.close();
  });

  const commit = (slot: number) => {
    for (const e of sim.slot(slot)) applyEvent(ledger, e);
  };
  const confirmed = (slot: number) => (r: Received[]) =>
    r.some((m) => m.topic === 'milestone-info/confirmed' && JSON.parse(m.payload.toString()).index === slot);

  it('delivers every slot in commit order, through the broker going away and coming back', async () => {
    expect(events.broker).toBeUndefined(); // this process hosts none
    const client = await subscriber(broker.url, ['#'], {
      clientId: 'an-explorer',
      clean: false,
      qos: 1,
      reconnectPeriod: 50,
    });
    for (let slot = 1; slot <= 3; slot++) commit(slot);
    await client.until(confirmed(3));

    await broker.stop();
    // The writer commits on while the broker is away: none of these waits for it.
    for (let slot = 4; slot <= SLOTS; slot++) commit(slot);
    expect(ledger.latestCommitment().slot).toBe(SLOTS);
    expect(events.feed.cursor).toBeLessThanOrEqual(4); // held on the slot it was publishing
    await broker.start();
    await client.until(confirmed(SLOTS));
    await client.end();

    // What the client got is exactly each slot's messages, slot after slot (a feed read from the store, after).
    const expected: EventMessage[] = [];
    const replay = new SlotFeed(ledger, async (m) => void expected.push(...m), 1);
    replay.wake();
    await replay.settled();
    expect(client.received.map((m) => m.topic)).toEqual(expected.map((m) => m.topic));
    for (let i = 0; i < expected.length; i++)
      expect(client.received[i]!.payload.toString('hex')).toBe(Buffer.from(expected[i]!.payload).toString('hex'));
    // It said so when the broker went away and when it was back.
    expect(said.some((l) => l.includes('is away'))).toBe(true);
    expect(said.filter((l) => l.startsWith('publishing to')).length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the milestone info retained: a client that comes later gets the latest at once', async () => {
    const late = await subscriber(broker.url, ['milestone-info/latest']);
    await late.until((r) => r.length === 1);
    expect(JSON.parse(late.received[0]!.payload.toString()).index).toBe(SLOTS);
    await late.end();
  });
});
