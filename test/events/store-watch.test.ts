// A reader of an LMDB store another process writes (issue 43): its event feed is told of each commit by the file
// system (the store's data file changes), not by looking every 100 ms. With the fallback look set to an hour, every
// slot the writer commits still reaches a subscriber of the reader's broker, in order.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEvents } from '../../src/events/service.js';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters } from '../../src/index.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { subscriber } from '../helpers/mqtt.js';

const GENESIS = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const dir = mkdtempSync(join(tmpdir(), 'tangle-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a reader's feed, told by the store's file", () => {
  it('publishes each slot its writer commits, with no poll to find them', async () => {
    const sim = new Simulation({ params, seed: 11 });
    const writer = openLedger({ path: dir, params, genesis: sim.genesis(), clock: () => GENESIS + 100 * 10 });
    writer.setSynced(true);
    const reader = openLedger({ path: dir, params, readOnly: true });
    const events = await startEvents(reader, { watchPath: dir, pollMs: 3_600_000, tcpPort: 0 });
    try {
      const url = `mqtt://127.0.0.1:${(events.tcp!.address() as AddressInfo).port}`;
      const sub = await subscriber(url, ['milestone-info/latest']);
      const indices = () => sub.received.map((m) => JSON.parse(m.payload.toString()).index as number);
      for (let slot = 1; slot <= 5; slot++) {
        for (const e of sim.slot(slot)) applyEvent(writer, e);
        await sub.until(() => indices().includes(slot));
      }
      expect(indices()).toEqual([0, 1, 2, 3, 4, 5]); // the latest on subscribing (genesis), then each commit
      await sub.end();
    } finally {
      await events.close();
      reader.close();
      writer.close();
    }
  });
});
