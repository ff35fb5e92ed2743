import { toHex } from '../../codec/hex.js';
import { parentsOf } from '../../model/block.js';
import { blockId as computeBlockId } from '../../model/ids.js';
import { MAX_BLOCK_LENGTH } from '../../model/limits.js';
import { decodeMilestonePayload } from '../../serialize.js';
import { FIRST_DELAY_MS, nextDelay } from '../../util/backoff.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { LedgerError, type LedgerErrorCode } from '../common/index.js';
import type { Ledger } from '../core/index.js';
import { type AppliedMilestone, applyMilestone } from './apply-milestone.js';
import { readCone, SourceError, sourceClient } from './source-client.js';

export { SourceError } from './source-client.js';

// Following a node (hornet, or another tangle-core) over its TIP-25 API: from the ledger's latest milestone, each
// next one the node has confirmed — its payload, then its cone, block by block from its parents down to blocks the
// ledger holds, many requests at a time, and the next few milestones fetched while one is applied — applied with
// every check of applyMilestone. The node is not trusted: bytes
// that are not the block asked for, a milestone that does not check, are reported and never applied; the follower
// asks again later, as it does after the node went away or its own store refused a write (a full disk). A restart
// resumes from the store's latest milestone.

/**
 * More blocks than this below one milestone (its cone and those of the milestones fetched ahead of it) is no
 * history a network made: a source that keeps handing out blocks is refused.
 */
const MAX_REACH = 500_000;
/** The most bytes of a cone in one answer: the route's limit (64 MiB), with its count and lengths. */
const MAX_CONE_ANSWER = 64 * 1024 * 1024 + 4;

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
  /** Each request's time limit, in ms (default 30,000). */
  timeoutMs?: number;
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
  const timeoutMs = options.timeoutMs ?? 30_000;
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

  const client = sourceClient(origin, { connections: options.concurrency ?? 16, timeoutMs });
  const bytesOf = (path: string) => client.get(path, true);

  const writer = ledger.milestoneWriter();
  /** Blocks asked for and not yet confirmed, shared by the milestones under way: each is fetched once. */
  const fetched = new Map<string, Promise<Uint8Array>>();
  const block = (id: Uint8Array): Promise<Uint8Array> => {
    const key = bytesKey(id);
    let p = fetched.get(key);
    if (p === undefined) {
      p = bytesOf(`/api/core/v2/blocks/${toHex(id)}`).then((bytes) => {
        if (!equalBytes(computeBlockId(bytes), id))
          throw new SourceError(`the node's bytes for block ${toHex(id)} are not that block`);
        return bytes;
      });
      fetched.set(key, p);
      p.catch(() => fetched.delete(key)); // asked again next time
    }
    return p;
  };

  /** Whether the node answers a cone at once (tangle-core does): unknown until asked, then what it answered. */
  let wholeCones: boolean | undefined;
  /**
   * The cone of milestone `index` in one answer, from a node that gives it (its blocks are checked as all others:
   * applyMilestone takes none that is not in the cone, and misses none); undefined from one that does not.
   */
  const wholeCone = async (index: number): Promise<Uint8Array[] | undefined> => {
    if (wholeCones === false) return undefined;
    try {
      // The route's own limit (64 MiB) and its framing: a larger answer is no cone a tangle-core gives.
      const body = await client.get(`/api/tangle-core/v1/milestones/${index}/cone`, true, MAX_CONE_ANSWER);
      wholeCones = true;
      return readCone(body, MAX_BLOCK_LENGTH);
    } catch (e) {
      if (!(e instanceof SourceError) || (e.status !== 404 && e.status !== 413)) throw e;
      wholeCones ??= false; // no such route (hornet); a node that has it gave none for this milestone
      return undefined;
    }
  };

  /**
   * Milestone `index` and the blocks below its parents that the ledger does not hold: its cone, and the cones of the
   * milestones before it that are under way (taken from the shared fetches; left out when it is applied).
   */
  const milestoneAt = async (index: number) => {
    const milestone = decodeMilestonePayload(await bytesOf(`/api/core/v2/milestones/by-index/${index}`));
    if (milestone.index !== index)
      throw new SourceError(`asked for milestone ${index}, the node gave ${milestone.index}`);
    const cone = await wholeCone(index);
    if (cone !== undefined) {
      await ledger.precheck(cone);
      return { milestone, blocks: cone.map((bytes) => ({ id: computeBlockId(bytes), bytes })) };
    }
    const seen = new Set<string>();
    const blocks: { id: Uint8Array; bytes: Uint8Array }[] = [];
    let frontier = [...milestone.parents];
    while (frontier.length > 0 && !stopped) {
      const wanted = frontier.filter((id) => {
        const key = bytesKey(id);
        if (seen.has(key) || writer.confirmedBefore(id)) return false;
        seen.add(key);
        return true;
      });
      if (seen.size > MAX_REACH) throw new SourceError(`more than ${MAX_REACH} blocks below milestone ${index}`);
      const got = await inParallel(wanted, options.concurrency ?? 16, block);
      got.forEach((bytes, i) => blocks.push({ id: wanted[i]!, bytes }));
      frontier = got.flatMap((b) => parentsOf(b));
    }
    // Decode, syntax and signatures on worker threads, while an earlier milestone is applied.
    await ledger.precheck(blocks.map((b) => b.bytes));
    return { milestone, blocks };
  };

  /** The milestones being fetched ahead of the ledger, by index (a window of them). */
  const ahead = new Map<number, ReturnType<typeof milestoneAt>>();
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
      const info = JSON.parse(Buffer.from(await client.get('/api/core/v2/info', false)).toString('utf8')) as {
        status?: { confirmedMilestone?: { index?: unknown } };
      };
      const index = info.status?.confirmedMilestone?.index;
      if (typeof index !== 'number') throw new SourceError('/api/core/v2/info: no confirmed milestone');
      confirmed = index;
    }
    synced(next > confirmed);
    if (next > confirmed) return false;
    for (let i = next; i <= Math.min(confirmed, next + (options.window ?? 8) - 1); i++) {
      if (ahead.has(i)) continue;
      const p = milestoneAt(i);
      p.catch(() => {}); // awaited in its turn; a failure there clears the window
      ahead.set(i, p);
    }
    const { milestone, blocks } = await ahead.get(next)!;
    ahead.delete(next);
    if (stopped) return false;
    // Blocks of the milestones before it were walked through too: applied by now, they are left out.
    const cone = blocks.filter((b) => !writer.confirmedBefore(b.id));
    const applied = applyMilestone(ledger, { milestone, blocks: cone.map((b) => b.bytes) });
    synced(next >= confirmed); // before it is told: whoever hears of the node's milestone finds the node synced
    options.onApplied?.(applied);
    for (const b of cone) fetched.delete(bytesKey(b.id));
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
        ahead.clear(); // asked again, from the ledger's milestone on
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

/** `fn` over `items` with at most `limit` at once; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let at = 0;
  const lane = async () => {
    while (at < items.length) {
      const i = at++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
