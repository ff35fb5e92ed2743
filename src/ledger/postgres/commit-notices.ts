import { FIRST_DELAY_MS, nextDelay } from '../../util/backoff.js';
import type { LedgerListener } from '../common/index.js';
import { isUnavailable, openPool, type PgClient } from './client.js';
import { COMMIT_CHANNEL } from './schema.js';

// How a reader of the shared database learns that the writer has committed a slot: the writer NOTIFYs in the slot's
// own transaction (mirror.ts), so the notice arrives once the slot is readable; the reader LISTENs on a connection of
// its own. Notices sent while that connection is down are lost, so each (re)connection also tells of a commit: the
// event feed reads from its cursor, and misses nothing. A hot standby cannot LISTEN (PostgreSQL runs no LISTEN during
// recovery, and NOTIFY is not replicated): there the reader looks for new slots every `pollMs` instead.

export interface CommitNotices {
  listen(listener: LedgerListener): () => void;
}

interface ListeningClient extends PgClient {
  on(event: 'error', listener: (e: Error) => void): void;
  on(event: 'notification', listener: (n: { channel: string; payload?: string }) => void): void;
}

/** Notices of the writer's commits into the database at `url`, and what happened to them, said by `say`. */
export function commitNotices(url: string, say: (line: string) => void, pollMs = 1000): CommitNotices {
  return {
    listen(listener) {
      const pool = openPool(url, 1);
      // -1: no one slot (a catch-up, a poll); the feed reads from its cursor to the latest whatever the slot.
      const committed = (slot = -1) => listener.committed?.(slot);
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let client: ListeningClient | undefined;
      let delay = FIRST_DELAY_MS;

      const poll = () => {
        say(`this database cannot LISTEN (a hot standby): new slots are looked for every ${pollMs} ms`);
        timer = setInterval(() => committed(), pollMs);
        timer.unref();
      };
      const connect = async (): Promise<void> => {
        try {
          client = (await pool.connect()) as ListeningClient;
          client.on('notification', (n) => n.channel === COMMIT_CHANNEL && committed(Number(n.payload)));
          client.on('error', () => retry());
          await client.query(`listen ${COMMIT_CHANNEL}`);
          delay = FIRST_DELAY_MS;
          committed(); // whatever was committed while this connection was not listening
        } catch (e) {
          if (isUnavailable(e)) return retry();
          client?.release(true);
          client = undefined;
          if (!stopped) poll();
        }
      };
      const retry = () => {
        client?.release(true);
        client = undefined;
        if (stopped || timer !== undefined) return;
        timer = setTimeout(() => {
          timer = undefined;
          void connect();
        }, delay);
        timer.unref();
        delay = nextDelay(delay);
      };
      void connect();
      return () => {
        stopped = true;
        clearTimeout(timer);
        clearInterval(timer);
        client?.release(true);
        void pool.end().catch(() => {});
      };
    },
  };
}
