import { toHex } from '../../codec/index.js';
import { decodeMilestonePayload } from '../../serialize.js';
import { parentsOf } from '../../stardust/block.js';
import { blockId as computeBlockId } from '../../stardust/ids.js';
import { MAX_BLOCK_LENGTH } from '../../stardust/limits.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import type { Ledger } from '../core/index.js';
import { checkSignatures } from './cone.js';
import type { FollowBudget, Share } from './follow-budget.js';
import { readCone, type SourceClient, SourceError } from './source-client.js';

// One milestone and its cone from the node followed, within the follow budget (follow-budget.ts): the milestone's
// payload, its signatures checked before anything of its cone is asked for (a source without the network's keys makes
// the follower fetch nothing), then the cone in one answer (tangle-core's route) or block by block from its parents
// down to blocks the ledger holds, many requests at a time; prechecked on worker threads while an earlier milestone
// is applied.

/** The most bytes of a cone in one answer: the route's limit (64 MiB), with its count and lengths. */
const MAX_CONE_ANSWER = 64 * 1024 * 1024 + 4;

export interface FetchedMilestone {
  milestone: MilestonePayload;
  /** Its cone, and (block by block) the cones of the milestones before it under way, walked through. */
  blocks: { id: Uint8Array; bytes: Uint8Array }[];
  /** What it holds of the budget, given back once it is applied. */
  share: Share;
}

export interface MilestoneFetcher {
  /** Milestone `index` and its cone. @throws SourceError, LedgerError MILESTONE_INVALID, Dropped */
  fetch(index: number): Promise<FetchedMilestone>;
  /** The blocks of an applied cone are no longer asked for: the ledger holds them. */
  applied(blocks: readonly { id: Uint8Array }[]): void;
  /** Every block fetched is forgotten (an attempt failed): what a source handed out is not kept past a refusal. */
  clear(): void;
  /** Blocks fetched for milestones since dropped are forgotten. */
  forgetDropped(): void;
}

export function milestoneFetcher(
  ledger: Ledger,
  client: SourceClient,
  budget: FollowBudget,
  concurrency: number,
  stopped: () => boolean,
): MilestoneFetcher {
  const writer = ledger.milestoneWriter();
  /**
   * Blocks asked for and not yet confirmed, shared by the milestones under way (each is fetched once), with the
   * milestone whose walk asked first: what a dropped milestone asked for is forgotten with it.
   */
  const fetched = new Map<string, { bytes: Promise<Uint8Array>; by: Share }>();
  const block = (id: Uint8Array, share: Share): Promise<Uint8Array> => {
    const key = bytesKey(id);
    let entry = fetched.get(key);
    if (entry === undefined) {
      const path = `/api/core/v2/blocks/${toHex(id)}`;
      const bytes = client.get(path, true, { maxBytes: MAX_BLOCK_LENGTH, signal: budget.signal }).then((b) => {
        if (!equalBytes(computeBlockId(b), id))
          throw new SourceError(`the node's bytes for block ${toHex(id)} are not that block`);
        return b;
      });
      const made = { bytes, by: share };
      entry = made;
      fetched.set(key, made);
      bytes.catch(() => fetched.get(key) === made && fetched.delete(key)); // asked again next time
    }
    return entry.bytes;
  };

  /** Whether the node answers a cone at once (tangle-core does): unknown until asked, then what it answered. */
  let wholeCones: boolean | undefined;
  /**
   * The cone of milestone `index` in one answer, from a node that gives it (its blocks are checked as all others:
   * applyMilestone takes none that is not in the cone, and misses none); undefined from one that does not. Its bytes
   * are taken from the budget as they come, its blocks once counted.
   */
  const wholeCone = async (index: number, share: Share): Promise<Uint8Array[] | undefined> => {
    if (wholeCones === false) return undefined;
    try {
      // The route's own limit (64 MiB) and its framing: a larger answer is no cone a tangle-core gives.
      const body = await client.get(`/api/tangle-core/v1/milestones/${index}/cone`, true, {
        maxBytes: MAX_CONE_ANSWER,
        signal: share.signal,
        onChunk: (length) => share.take(length, 0),
      });
      wholeCones = true;
      const cone = readCone(body, MAX_BLOCK_LENGTH, budget.limits.blocks);
      share.take(0, cone.length);
      return cone;
    } catch (e) {
      if (!(e instanceof SourceError) || (e.status !== 404 && e.status !== 413)) throw e;
      wholeCones ??= false; // no such route (hornet); a node that has it gave none for this milestone
      return undefined;
    }
  };

  /** The blocks below the milestone's parents that the ledger does not hold, layer by layer. */
  const walk = async (milestone: MilestonePayload, share: Share) => {
    const seen = new Set<string>();
    const blocks: { id: Uint8Array; bytes: Uint8Array }[] = [];
    let frontier = [...milestone.parents];
    while (frontier.length > 0 && !stopped()) {
      const wanted = frontier.filter((id) => {
        const key = bytesKey(id);
        if (seen.has(key) || writer.confirmedBefore(id)) return false;
        seen.add(key);
        return true;
      });
      // Each block is counted before it is asked for, its bytes once they came.
      const got = await inParallel(wanted, concurrency, share, async (id) => {
        share.take(0, 1);
        const bytes = await block(id, share);
        share.take(bytes.length, 0);
        return bytes;
      });
      got.forEach((bytes, i) => blocks.push({ id: wanted[i]!, bytes }));
      frontier = got.flatMap((b) => parentsOf(b));
    }
    return blocks;
  };

  const fetchMilestone = async (index: number, share: Share): Promise<FetchedMilestone> => {
    const payload = await client.get(`/api/core/v2/milestones/by-index/${index}`, true, {
      maxBytes: MAX_BLOCK_LENGTH,
      signal: share.signal,
    });
    const milestone = decodeMilestonePayload(payload);
    if (milestone.index !== index)
      throw new SourceError(`asked for milestone ${index}, the node gave ${milestone.index}`);
    // Signed by the network's keys before anything below it is asked for (applyMilestone finds them checked).
    checkSignatures(ledger.params, milestone);
    const cone = await wholeCone(index, share);
    if (cone !== undefined) {
      await ledger.precheck(cone);
      share.checkLive();
      return { milestone, blocks: cone.map((bytes) => ({ id: computeBlockId(bytes), bytes })), share };
    }
    const blocks = await walk(milestone, share);
    // Decode, syntax and signatures on worker threads, while an earlier milestone is applied.
    await ledger.precheck(blocks.map((b) => b.bytes));
    share.checkLive();
    return { milestone, blocks, share };
  };

  return {
    fetch(index) {
      const share = budget.open(index);
      return fetchMilestone(index, share).catch((e) => {
        budget.release(share); // refused: nothing of it is held
        throw e;
      });
    },
    applied(blocks) {
      for (const b of blocks) fetched.delete(bytesKey(b.id));
    },
    clear: () => fetched.clear(),
    forgetDropped() {
      for (const [key, entry] of fetched) if (entry.by.signal.aborted) fetched.delete(key);
    },
  };
}

/**
 * `fn` over `items` with at most `limit` at once; the results in the items' order. The first failure, or the share
 * dropped, stops the lanes: no more is asked for.
 */
async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  share: Share,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let at = 0;
  let failed = false;
  const lane = async () => {
    while (at < items.length && !failed) {
      share.checkLive();
      const i = at++;
      try {
        results[i] = await fn(items[i]!);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
