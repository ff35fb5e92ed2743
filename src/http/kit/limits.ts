import { HttpProblem } from './problem.js';

// Abuse limits on what changes the ledger (issue 43): posted blocks and bytes per client per minute, and the faucet's
// payouts per minute and per day across all clients. Each count runs in a window that opens with the first request
// it counts and lasts its length (not a wall-clock minute), so a burst cannot straddle two windows' edges to get
// twice the limit, and a test that stays inside one window sees the limit exactly.

/** Posting limits per client (its address), per minute. 0 turns a limit off. */
export interface PostLimits {
  blocksPerMinute: number;
  bytesPerMinute: number;
}

/**
 * The defaults: a wallet posts a few blocks a minute, an exchange's consolidation some dozens; a spammer of 8 KB
 * blocks is held to 1 MiB a minute instead of 10 GB an hour.
 */
export const DEFAULT_POST_LIMITS: PostLimits = { blocksPerMinute: 120, bytesPerMinute: 1024 * 1024 };

/** The faucet's payouts across all clients. 0 turns a cap off. */
export interface FaucetCaps {
  perMinute: number;
  perDay: number;
}

/** The defaults: a test network's faucet of a few million SMR lasts weeks, not the 25 minutes one client needed. */
export const DEFAULT_FAUCET_CAPS: FaucetCaps = { perMinute: 60, perDay: 5000 };

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** One window's count: when it opened, and what it has counted. */
interface Window {
  start: number;
  count: number;
  bytes: number;
}

/** Clients remembered at once; past this the oldest window is forgotten (a client then starts afresh). */
const MAX_CLIENTS = 100_000;

/** Posted blocks and bytes per client: `take` counts a post or refuses it with 429, counting nothing. */
export class PostLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: PostLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one post of `bytes` by `client`. @throws HttpProblem 429 past a limit */
  take(client: string, bytes: number): void {
    const { blocksPerMinute, bytesPerMinute } = this.limits;
    if (blocksPerMinute === 0 && bytesPerMinute === 0) return;
    const now = this.now();
    let w = this.windows.get(client);
    if (w === undefined || now - w.start >= MINUTE) {
      this.windows.delete(client);
      if (this.windows.size >= MAX_CLIENTS) this.windows.delete(this.windows.keys().next().value!);
      w = { start: now, count: 0, bytes: 0 };
      this.windows.set(client, w);
    }
    const wait = Math.ceil((w.start + MINUTE - now) / 1000);
    if (blocksPerMinute !== 0 && w.count + 1 > blocksPerMinute)
      throw tooMany(`at most ${blocksPerMinute} blocks a minute from one client; try again in ${wait} s`);
    if (bytesPerMinute !== 0 && w.bytes + bytes > bytesPerMinute)
      throw tooMany(`at most ${bytesPerMinute} bytes of blocks a minute from one client; try again in ${wait} s`);
    w.count++;
    w.bytes += bytes;
  }
}

/** The faucet's payouts, all clients together: `take` counts one or refuses it with 429, counting nothing. */
export class FaucetLimiter {
  private minute: Window | undefined;
  private day: Window | undefined;

  constructor(
    private readonly caps: FaucetCaps,
    private readonly now: () => number = Date.now,
  ) {}

  /** @throws HttpProblem 429 past a cap */
  take(): void {
    const now = this.now();
    if (this.minute === undefined || now - this.minute.start >= MINUTE)
      this.minute = { start: now, count: 0, bytes: 0 };
    if (this.day === undefined || now - this.day.start >= DAY) this.day = { start: now, count: 0, bytes: 0 };
    const { perMinute, perDay } = this.caps;
    if (perMinute !== 0 && this.minute.count >= perMinute)
      throw tooMany(`the faucet pays at most ${perMinute} requests a minute; try again in a minute`);
    if (perDay !== 0 && this.day.count >= perDay)
      throw tooMany(`the faucet pays at most ${perDay} requests a day; try again tomorrow`);
    this.minute.count++;
    this.day.count++;
  }

  /** Gives back a payout that was counted but not made (the transfer was refused). */
  giveBack(): void {
    if (this.minute !== undefined && this.minute.count > 0) this.minute.count--;
    if (this.day !== undefined && this.day.count > 0) this.day.count--;
  }
}

const tooMany = (message: string) => new HttpProblem(429, message);
