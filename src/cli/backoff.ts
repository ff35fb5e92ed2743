import { LedgerError } from '../ledger/common/index.js';

// Waiting out what comes back by itself (a database that is restarting, a process that keeps dying): 100 ms, then
// twice as long each time, up to 5 s, so that an outage costs little and a crash loop does not spin.

export const FIRST_DELAY_MS = 100;
export const MAX_DELAY_MS = 5_000;

/** The delay after `delay`. */
export const nextDelay = (delay: number): number => Math.min(MAX_DELAY_MS, delay * 2);

/**
 * Runs `open` until it succeeds or fails for another reason than a database that is not answering
 * (STORE_UNAVAILABLE): a server started before its database waits for it instead of exiting. `say` gets one line
 * per attempt that failed.
 */
export async function untilAvailable<T>(open: () => Promise<T>, say: (line: string) => void): Promise<T> {
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await open();
    } catch (e) {
      if (!(e instanceof LedgerError) || e.code !== 'STORE_UNAVAILABLE') throw e;
      say(`the database is not answering; trying again in ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
      delay = nextDelay(delay);
    }
  }
}
