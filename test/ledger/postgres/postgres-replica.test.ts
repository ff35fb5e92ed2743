import { describe, expect, it } from 'vitest';
import {
  LedgerError,
  openLedger,
  type PostgresReader,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';

// A writer on the primary and a reader on the hot standby at the same time (issue 15): while the writer commits and
// publishes slot after slot, the standby's reader is asked in a loop for its latest slot and that slot's UTXO
// changes, and for the slot after it. Every answer is of a whole slot, the writer's own (same commitment, same
// outputs), and a slot the standby has not replayed is "from a future slot", never part of one. Skipped, with the
// reason, where no PostgreSQL can be started.

const pg = await privatePostgres({ standby: true });

const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
const SLOTS = 30;

describe.skipIf(pg === undefined)('a writer on the primary, a reader on the standby', () => {
  it('the reader answers whole slots, the writer’s, while the writer commits', async () => {
    const sim = new Simulation({ params, seed: 9 });
    const clock = () => GENESIS_TIME + 10 * SLOTS;
    const writer = await openLedger({ params, genesis: sim.genesis(), clock, store: databaseUrl(pg!.primary) });
    // The standby replays the schema and the genesis on its own: wait for the observed state, a reader that opens.
    let reader: PostgresReader;
    for (;;) {
      try {
        reader = await openLedger({ params, clock, store: databaseUrl(pg!.standby), readOnly: true });
        break;
      } catch (e) {
        if ((e as LedgerError).code !== 'STORE_CORRUPT') throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    // What the writer committed, by slot: the reader's answers are checked against these.
    const committed = new Map<number, string>();
    const record = (slot: number) => {
      const c = writer.utxoChanges(slot);
      committed.set(slot, [c.commitmentId, ...c.createdOutputs, ...c.consumedOutputs].map(toHex).join());
    };
    let writing = true;
    const writes = (async () => {
      for (let slot = 1; slot <= SLOTS; slot++) {
        for (const e of sim.slot(slot)) applyEvent(writer, e);
        for (let s = committed.size + 1; s <= writer.latestCommitment().slot; s++) record(s);
        await writer.published(); // the primary has it; the standby follows on its own
      }
      writing = false;
    })();
    let asked = 0;
    let seen = 0;
    const slotsSeen = new Set<number>();
    while (writing || seen < writer.latestCommitment().slot) {
      const latest = (await reader.latestCommitment()).slot;
      expect(latest).toBeGreaterThanOrEqual(seen); // never back in time
      seen = latest;
      if (latest >= 1) {
        const c = await reader.utxoChanges(latest);
        const got = [c.commitmentId, ...c.createdOutputs, ...c.consumedOutputs].map(toHex).join();
        expect(got, `slot ${latest}`).toBe(committed.get(latest));
        slotsSeen.add(latest);
      }
      const after = await Promise.resolve(reader.utxoChanges(latest + 1)).catch((e) => e);
      if (after instanceof LedgerError) expect(after.detail).toMatch(/future slot/);
      else
        expect([after.commitmentId, ...after.createdOutputs, ...after.consumedOutputs].map(toHex).join()).toBe(
          committed.get(latest + 1),
        ); // replayed between the two questions: then whole
      asked++;
      await new Promise((r) => setImmediate(r));
    }
    await writes;
    expect(seen).toBe(writer.latestCommitment().slot);
    // The reader followed the writer along the way, not only at the end.
    expect(slotsSeen.size).toBeGreaterThan(3);
    expect(asked).toBeGreaterThan(SLOTS);
    writer.close();
    await reader.close();
  }, 120_000);
});
