// Waiting out what comes back by itself (a database that is restarting, a process that keeps dying, a node that is
// away): 100 ms, then twice as long each time, up to 5 s, so that an outage costs little and a crash loop does not
// spin.

export const FIRST_DELAY_MS = 100;
export const MAX_DELAY_MS = 5_000;

/** The delay after `delay`. */
export const nextDelay = (delay: number): number => Math.min(MAX_DELAY_MS, delay * 2);
