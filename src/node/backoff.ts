import { LedgerError } from '../ledger/index.js';

import { FIRST_DELAY_MS, nextDelay } from '../util/backoff.js';

export { FIRST_DELAY_MS, nextDelay } from '../util/backoff.js';

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
