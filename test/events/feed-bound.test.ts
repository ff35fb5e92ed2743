// Issue 30, "Publishing never slows the writer … the writer's queue is bounded, and the bound is tested": a broker
// that takes nothing (every subscriber stuck) holds the feed on one slot's messages, while the writer commits slot
// after slot; let go, the feed publishes every slot it missed, in order, from the store.
import { describe, expect, it } from 'vitest';
import { SlotFeed } from '../../src/events/feed.js';
import type { EventMessage } from '../../src/events/slot-events.js';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';

const GENESIS = 1_700_000_000;
const SLOTS = 20;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });

describe('the feed behind a broker that takes nothing', () => {
  it('holds one slot in memory while the writer commits on, then publishes every slot in order', async () => {
    const sim = new Simulation({ params, seed: 3 });
    const ledger = openLedger({ params, genesis: sim.genesis(), clock: () => GENESIS + (SLOTS + 1) * 10 });
    let release!: () => void;
    const stuck = new Promise<void>((done) => {
      release = done;
    });
    let first!: () => void;
    const firstTaken = new Promise<void>((done) => {
      first = done;
    });
    const handed: EventMessage[][] = [];
    const feed = new SlotFeed(
      ledger,
      async (messages) => {
        handed.push([...messages]);
        first();
        await stuck;
      },
      1,
    );
    const stop = ledger.listen({ committed: () => feed.wake() });

    for (const e of sim.slot(1)) applyEvent(ledger, e);
    await firstTaken;
    // The broker holds slot 1's messages; the writer commits nineteen slots more, none of them waiting.
    for (let slot = 2; slot <= SLOTS; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
    expect((await ledger.latestCommitment()).slot).toBe(SLOTS);
    expect(handed).toHaveLength(1);
    expect(feed.cursor).toBe(1);

    release();
    while (feed.cursor <= SLOTS) await feed.settled();
    expect(handed).toHaveLength(SLOTS);
    // Each hand-over is one slot, in commit order: it ends with that slot's milestone info.
    const index = (batch: EventMessage[]) => JSON.parse(Buffer.from(batch.at(-1)!.payload).toString()).index;
    expect(handed.map(index)).toEqual(Array.from({ length: SLOTS }, (_, i) => i + 1));
    stop();
    ledger.close();
  });
});
