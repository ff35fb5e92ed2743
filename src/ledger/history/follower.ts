import { FIRST_DELAY_MS, nextDelay } from '../../util/backoff.js';
import { LedgerError, type LedgerErrorCode } from '../common/index.js';
import type { Ledger } from '../core/index.js';
import { type AppliedMilestone, applyMilestone } from './apply-milestone.js';
import { type FetchedMilestone, milestoneFetcher } from './fetch-milestone.js';
import { type BudgetLimits, DEFAULT_FOLLOW_BUDGET, FollowBudget } from './follow-budget.js';
import { SourceError, sourceClient } from './source-client.js';

export { DEFAULT_FOLLOW_BUDGET } from './follow-budget.js';
export { SourceError } from './source-client.js';

// Following a node (hornet, or another tangle-core) over its TIP-25 API: from the ledger's latest milestone, each
// next one the node has confirmed — its payload, then its cone (fetch-milestone.ts), and the next few milestones
// fetched while one is applied — applied with every check of applyMilestone. The node is not trusted: bytes that are
// not the block asked for, a milestone that does not check, are reported and never applied; what it cost is bounded
// (a budget of bytes and blocks held across the window, a deadline on each whole answer) and given back at each
// refusal. The follower asks again later, as it does after the node went away or its own store refused a write (a
// full disk). A restart resumes from the store's latest milestone.

/** Each whole answer's time limit by default, in ms (and a second more for each MiB that came). */
export const DEFAULT_DEADLINE_MS = 10_000;

/** The ledger's failures a retry cannot cure: the following ends. */
const FINAL = new Set<LedgerErrorCode>([
  'CLOSED',
  'STORE_CORRUPT',
  'STORE_OUTDATED',
  'STORE_LOCKED',
  'PARAMETERS_MISMATCH',
]);

export interface FollowOptions {
  /** Block requests in flight at once, per milestone (default 16). */
  concurrency?: number;
  /** Milestones fetched ahead of the one being applied (default 8). */
  window?: number;
  /** How long to wait before asking again for a milestone the node has not confirmed yet, in ms (default 1000). */
  pollMs?: number;
  /** Told of each milestone applied. */
  onApplied?: (a: AppliedMilestone) => void;
  /**
   * Told of each failed attempt at milestone `index` (the node away, a lie caught, a refusal, the store's failure: a
   * full disk) and when it is tried again (`retryMs`); undefined: the follower stopped for good (the store is closed,
   * damaged, or of another version: a retry cannot cure it).
   */
  onError?: (e: Error, index: number, retryMs: number | undefined) => void;
  /** How long a connection to the node may stay silent, in ms (default 30,000). */
  timeoutMs?: number;
  /**
   * How long a whole answer may take, in ms, and a second more for each MiB that came (default 10,000): an answer
   * that trickles is cut off, reported and asked for again.
   */
  deadlineMs?: number;
  /** What the milestones under way may hold at once, across the window (default DEFAULT_FOLLOW_BUDGET). */
  budget?: Partial<BudgetLimits>;
  /**
   * Told when the ledger reaches the node's confirmed milestone (true), and when it falls behind it again (false).
   * While it stands there, the follower records the store current (Ledger.markCurrent, at most once a second).
   */
  onSynced?: (synced: boolean) => void;
}

export interface Follower {
  /** Stops after the request or milestone under way; resolves once stopped. */
  stop(): Promise<void>;
}

/** Follows the node at `url` (its origin, e.g. http://127.0.0.1:14265) until stopped. */
export function followNode(ledger: Ledger, url: string, options: FollowOptions = {}): Follower {
  const origin = url.replace(/\/+$/, '');
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((done) => {
      const t = setTimeout(done, ms);
      wake = () => {
        clearTimeout(t);
        done();
      };
    });

  const client = sourceClient(origin, {
    connections: options.concurrency ?? 16,
    timeoutMs: options.timeoutMs ?? 30_000,
    deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
  });
  /** The milestones being fetched ahead of the ledger, by index (a window of them). */
  const ahead = new Map<number, Promise<FetchedMilestone>>();
  // A milestone dropped to make room for an earlier one is fetched again in its turn, with none of what it fetched.
  const budget = new FollowBudget({ ...DEFAULT_FOLLOW_BUDGET, ...options.budget }, (index) => {
    ahead.delete(index);
    fetcher.forgetDropped();
  });
  const fetcher = milestoneFetcher(ledger, client, budget, options.concurrency ?? 16, () => stopped);
  const writer = ledger.milestoneWriter();
  let confirmed = -1;

  let wasSynced: boolean | undefined;
  /** The unix second the store was last recorded current in (Ledger.markCurrent). */
  let markedAt = 0;
  const synced = (now: boolean) => {
    if (now !== wasSynced) options.onSynced?.(now);
    wasSynced = now;
    // Standing at the node's confirmed milestone: the store is current, which its readers judge their health by (at
    // most one write a second; a store that cannot take it, a full disk, fails the step as a commit would).
    const second = Math.floor(Date.now() / 1000);
    if (now && second !== markedAt) {
      ledger.markCurrent(second);
      markedAt = second;
    }
  };

  const step = async (): Promise<boolean> => {
    const next = ledger.latestCommitment().slot + 1;
    if (next > confirmed) {
      const info = JSON.parse(
        Buffer.from(await client.get('/api/core/v2/info', false, { signal: budget.signal })).toString('utf8'),
      ) as { status?: { confirmedMilestone?: { index?: unknown } } };
      const index = info.status?.confirmedMilestone?.index;
      if (typeof index !== 'number') throw new SourceError('/api/core/v2/info: no confirmed milestone');
      // A node behind the store (or claiming to be) says nothing of the network's latest milestone: the store is not
      // known current, so not synced.
      if (index < next - 1) {
        synced(false);
        throw new SourceError(`the node's confirmed milestone ${index} is behind the store's ${next - 1}`);
      }
      confirmed = index;
    }
    synced(next > confirmed);
    if (next > confirmed) return false;
    for (let i = next; i <= Math.min(confirmed, next + (options.window ?? 8) - 1); i++) {
      if (ahead.has(i)) continue;
      const p = fetcher.fetch(i);
      p.catch(() => {}); // awaited in its turn; a failure there clears the window
      ahead.set(i, p);
    }
    const { milestone, blocks, share } = await ahead.get(next)!;
    ahead.delete(next);
    if (stopped) return false;
    // Blocks of the milestones before it were walked through too: applied by now, they are left out.
    const cone = blocks.filter((b) => !writer.confirmedBefore(b.id));
    try {
      const applied = applyMilestone(ledger, { milestone, blocks: cone.map((b) => b.bytes) });
      synced(next >= confirmed); // before it is told: whoever hears of the node's milestone finds the node synced
      options.onApplied?.(applied);
    } finally {
      budget.release(share);
    }
    fetcher.applied(cone);
    return true;
  };

  const done = (async () => {
    let delay = FIRST_DELAY_MS;
    while (!stopped) {
      const index = ledger.latestCommitment().slot + 1;
      try {
        if (await step()) delay = FIRST_DELAY_MS;
        else await pause(pollMs);
      } catch (e) {
        // Asked again, from the ledger's milestone on, with nothing kept of what the node handed out: every request
        // under way is cut off and every block fetched forgotten.
        ahead.clear();
        budget.clear();
        fetcher.clear();
        confirmed = -1;
        if (stopped) break;
        // A store that cannot be written (a full disk) is waited out as a node that went away is; one that is
        // closed (the server stopping) or damaged ends the following.
        if (e instanceof LedgerError && FINAL.has(e.code)) {
          options.onError?.(e, index, undefined);
          break;
        }
        options.onError?.(e as Error, index, delay);
        await pause(delay);
        delay = nextDelay(delay);
      }
    }
  })();
  return {
    stop() {
      stopped = true;
      client.close();
      wake?.();
      return done;
    },
  };
}
