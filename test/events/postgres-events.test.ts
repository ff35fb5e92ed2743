// Issue 30, "readers over PostgreSQL learn of new slots by LISTEN/NOTIFY, not by polling": an event API over a
// PostgresReader of the primary is woken only by the writer's notices (it has no timer), and publishes each slot as
// the writer's own ledger has it; when its listening connection is killed (pg_terminate_backend) it connects again
// and misses nothing; over the hot standby, where PostgreSQL runs no LISTEN, it says so and looks for slots instead.
// Skipped, with the reason, where no PostgreSQL can be started.
import { afterAll, describe, expect, it } from 'vitest';
import { SlotFeed } from '../../src/events/feed.js';
import { startEvents } from '../../src/events/service.js';
import type { EventMessage } from '../../src/events/slot-events.js';
import {
  type Ledger,
  type LedgerError,
  openLedger,
  type PostgresReader,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { openPool } from '../../src/ledger/postgres/client.js';
import { commitNotices } from '../../src/ledger/postgres/commit-notices.js';
import { applyEvent } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { type Received, subscriber } from '../helpers/mqtt.js';
import { databaseUrl, privatePostgres } from '../helpers/postgres.js';

const pg = await privatePostgres({ standby: true });
const GENESIS = 1_700_000_000;
const SLOTS = 12;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const clock = () => GENESIS + 10 * (SLOTS + 1);

const confirmed = (slot: number) => (r: Received[]) =>
  r.some((m) => m.topic === 'milestone-info/confirmed' && JSON.parse(m.payload.toString()).index === slot);

/** Opens a reader of `url`, waiting for the observed state (a standby that has replayed the schema). */
async function reader(url: string): Promise<PostgresReader> {
  for (;;) {
    try {
      return await openLedger({ params, clock, store: url, readOnly: true });
    } catch (e) {
      if ((e as LedgerError).code !== 'STORE_CORRUPT') throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Every slot's messages from `from` to `to`, read from the writer's own ledger. */
async function expected(ledger: Ledger, from: number, to: number): Promise<EventMessage[]> {
  const all: EventMessage[] = [];
  const feed = new SlotFeed(ledger, async (m) => void all.push(...m), from);
  feed.wake();
  await feed.settled();
  const end = all.findIndex(
    (m) => m.topic === 'milestone-info/confirmed' && JSON.parse(Buffer.from(m.payload).toString()).index === to,
  );
  return all.slice(0, end + 1);
}

const same = (got: Received[], want: EventMessage[]) => {
  expect(got.map((m) => m.topic)).toEqual(want.map((m) => m.topic));
  for (let i = 0; i < want.length; i++)
    expect(got[i]!.payload.toString('hex')).toBe(Buffer.from(want[i]!.payload).toString('hex'));
};

describe.skipIf(pg === undefined)('the event API of a reader of the database', () => {
  const closing: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of closing.reverse()) await c();
  });

  it('on the primary: woken by the writer’s notices alone, through its connection being killed', async () => {
    const sim = new Simulation({ params, seed: 5 });
    const url = databaseUrl(pg!.primary);
    const writer = await openLedger({ params, genesis: sim.genesis(), clock, store: url });
    closing.push(() => writer.close());
    const db = await reader(url);
    closing.push(() => db.close());
    const said: string[] = [];
    const events = await startEvents(db, { commits: commitNotices(url, (l) => said.push(l)), tcpPort: 0 });
    closing.push(() => events.close());
    const port = (events.tcp!.address() as { port: number }).port;
    const sub = await subscriber(`mqtt://127.0.0.1:${port}`, ['#']);
    const commit = async (slot: number) => {
      for (const e of sim.slot(slot)) applyEvent(writer, e);
      await writer.published();
    };
    for (let slot = 1; slot <= 4; slot++) await commit(slot);
    await sub.until(confirmed(4));

    // The listening connection is killed by the server (as a restart or a failover would): it comes back.
    const admin = openPool(url, 1);
    const killed = await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen %' and pid <> pg_backend_pid()",
    );
    await admin.end();
    expect(killed.rows.length).toBe(1);
    for (let slot = 5; slot <= 8; slot++) await commit(slot);
    await sub.until(confirmed(8));
    same(sub.received, await expected(writer, 1, 8));
    expect(said).toEqual([]); // never fell back to looking
    await sub.end();

    // A reader of the hot standby: no LISTEN there; it says so, looks for slots, and publishes them all the same.
    const standby = await reader(databaseUrl(pg!.standby));
    closing.push(() => standby.close());
    // Its feed starts after the standby's latest slot: once it has replayed slot 8 (the observed state).
    while ((await standby.latestCommitment()).slot < 8) await new Promise((r) => setTimeout(r, 20));
    const heard: string[] = [];
    const notices = commitNotices(databaseUrl(pg!.standby), (l) => heard.push(l), 50);
    const onStandby = await startEvents(standby, { commits: notices, tcpPort: 0 });
    closing.push(() => onStandby.close());
    const second = await subscriber(`mqtt://127.0.0.1:${(onStandby.tcp!.address() as { port: number }).port}`, ['#']);
    for (let slot = 9; slot <= SLOTS; slot++) await commit(slot);
    await second.until(confirmed(SLOTS));
    same(second.received, await expected(writer, 9, SLOTS));
    expect(heard).toEqual([expect.stringMatching(/cannot LISTEN \(a hot standby\)/)]);
    await second.end();
  });
});
