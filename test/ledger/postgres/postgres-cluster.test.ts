import { describe, expect, it } from 'vitest';
import { privatePostgres } from '../../helpers/postgres.js';

// The test harness of the PostgreSQL store (issue 15): a private primary and a hot standby streaming from it. What
// the store's tests will rely on: a write on the primary reaches the standby, the standby is in recovery and refuses
// writes. Skipped, with the reason, where no PostgreSQL can be started (.ci/run installs Debian's package).

const pg = await privatePostgres({ standby: true });

describe.skipIf(pg === undefined)('a private PostgreSQL primary and hot standby', () => {
  it('a row committed on the primary appears on the standby; the standby is read-only', async () => {
    const { primary, standby } = pg!;
    expect(primary.sql('select pg_is_in_recovery()')).toBe('f');
    expect(standby.sql('select pg_is_in_recovery()')).toBe('t');
    primary.sql('create table probe (slot integer primary key, note text)');
    primary.sql("insert into probe values (1, 'committed on the primary')");
    const lsn = primary.sql('select pg_current_wal_lsn()');
    // Wait for an observed state: the standby has replayed up to the primary's position.
    for (;;) {
      if (standby.sql(`select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn`) === 't') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(standby.sql('select note from probe where slot = 1')).toBe('committed on the primary');
    expect(() => standby.sql("insert into probe values (2, 'x')")).toThrow(/read-only transaction/);
  });
});
