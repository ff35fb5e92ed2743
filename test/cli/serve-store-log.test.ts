// What a running PostgreSQL reader logs of the damage it answers 500 for (the new user's check of issue 57, finding
// 8): every such answer is one line on its stderr, `tangle-core: STORE_CORRUPT: …` naming what is damaged, none
// de-duplicated (docs/reliability.md). The check saw one line for 167 answers of 500: the latest commitment's row
// deleted under a running reader made each read throw a TypeError (fixed in the reader: STORE_CORRUPT naming the
// row), and an error that is not the store's answered 500 with nothing logged. On a real process: `serve --store`.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCli, stopCli } from '../helpers/cli.js';
import { privatePostgres } from '../helpers/postgres.js';
import { type ChronicleDatabase, chronicleDatabase, damageDir } from '../helpers/postgres-damage.js';
import { serve } from '../helpers/route-server.js';

const pg = await privatePostgres();
const dir = damageDir('tangle-serve-log-');
let db: ChronicleDatabase;
beforeAll(async () => {
  if (pg !== undefined) db = await chronicleDatabase(pg, dir, 'logged');
}, 60_000); // a snapshot imported and two milestones applied: seconds, more on a busy machine
afterAll(() => db?.close());

describe.skipIf(pg === undefined)('serve --store URL --read-only', () => {
  it('the latest commitment row deleted under it: each answer of 500 logged, repeated ones too', async () => {
    const args = ['serve', '--store', db.url, '--read-only', '--synced', '--port', '0', '--no-mqtt'];
    const { child, out, err } = await startCli(args, /listening on (http:\S+)/);
    try {
      const origin = /listening on (http:\S+)/.exec(out())![1]!;
      const ask = async (route: string) => [(await fetch(origin + route)).status, route] as const;
      expect(await ask('/api/core/v2/info')).toEqual([200, '/api/core/v2/info']);
      await db.pool.query('delete from commitments where slot = 17340');
      const routes = [
        '/api/core/v2/info',
        '/api/core/v2/info',
        '/api/explorer/v2/milestones',
        '/api/core/v2/milestones/by-index/17340/utxo-changes',
        '/api/core/v2/milestones/by-index/17340/utxo-changes',
      ];
      const answers = [];
      for (const route of routes) answers.push(await ask(route));
      expect(answers).toEqual(routes.map((r) => [500, r]));
      // The lines are written before each answer is sent; the pipe delivers them when it does: wait to see them.
      const lines = () =>
        err()
          .split('\n')
          .filter((l) => l.includes('STORE_CORRUPT'));
      while (lines().length < routes.length) await new Promise((go) => child.stderr!.once('data', go));
      const latest = 'tangle-core: STORE_CORRUPT: the latest commitment (slot 17340): its row is missing';
      const bySlot = 'tangle-core: STORE_CORRUPT: the commitment of slot 17340: the database holds no row of it';
      expect(lines()).toEqual([latest, latest, latest, bySlot, bySlot]);
    } finally {
      await stopCli(child);
    }
  });
});

describe.skipIf(pg === undefined)('a 500 that is not the store’s damage', () => {
  it('is logged too: one line naming the error and where it was thrown', async () => {
    const server = await serve(db.ledger);
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => written.push(String(s)) > 0);
    try {
      db.ledger.close(); // its LMDB environment closed under the server
      const r = await server.get('/api/core/v2/info');
      expect(r).toEqual({
        status: 500,
        body: { error: { code: 500, message: 'internal server error: the ledger is closed' } },
      });
      // Before: nothing at all (only STORE_CORRUPT and STORE_FAILURE were logged).
      const lines = written.filter((l) => l.startsWith('tangle-core: '));
      expect(lines).toEqual([
        expect.stringMatching(/^tangle-core: internal error: CLOSED: the ledger is closed \(at .+:\d+:\d+\)?\)\n$/),
      ]);
      expect(server.logged).toEqual([]); // not the store's damage
    } finally {
      spy.mockRestore();
      await server.stop();
    }
  });
});
