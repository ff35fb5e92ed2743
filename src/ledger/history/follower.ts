import { toHex } from '../../codec/hex.js';
import { parentsOf } from '../../model/block.js';
import { blockId as computeBlockId } from '../../model/ids.js';
import { decodeMilestonePayload } from '../../serialize.js';
import { FIRST_DELAY_MS, nextDelay } from '../../util/backoff.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';
import type { Ledger } from '../core/index.js';
import { type AppliedMilestone, applyMilestone } from './apply-milestone.js';

// Following a node (hornet, or another tangle-core) over its TIP-25 API: from the ledger's latest milestone, each
// next one the node has confirmed — its payload, then its cone, block by block from its parents down to blocks the
// ledger holds, many requests at a time — applied with every check of applyMilestone. The node is not trusted: bytes
// that are not the block asked for, a milestone that does not check, are reported and never applied; the follower
// asks again later, as it does after the node went away. A restart resumes from the store's latest milestone.

const BINARY = 'application/vnd.iota.serializer-v1';
/** A cone larger than this is no cone a network made: a source that keeps handing out blocks is refused. */
const MAX_CONE = 200_000;

export interface FollowOptions {
  /** Block requests in flight at once (default 16). */
  concurrency?: number;
  /** How long to wait before asking again for a milestone the node has not confirmed yet, in ms (default 1000). */
  pollMs?: number;
  /** Told of each milestone applied. */
  onApplied?: (a: AppliedMilestone) => void;
  /** Told of each failed attempt at milestone `index` (the node away, a lie caught, a refusal); it is retried. */
  onError?: (e: Error, index: number) => void;
  /** Each request's time limit, in ms (default 30,000). */
  timeoutMs?: number;
  /** Told when the ledger reaches the node's confirmed milestone (true), and when it falls behind it again (false). */
  onSynced?: (synced: boolean) => void;
}

export interface Follower {
  /** Stops after the request or milestone under way; resolves once stopped. */
  stop(): Promise<void>;
}

/** What a source answered that cannot be its block or milestone: it is reported, never applied. */
export class SourceError extends Error {}

/** Follows the node at `url` (its origin, e.g. http://127.0.0.1:14265) until stopped. */
export function followNode(ledger: Ledger, url: string, options: FollowOptions = {}): Follower {
  const origin = url.replace(/\/+$/, '');
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let stopped = false;
  const stopping = new AbortController();
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((done) => {
      const t = setTimeout(done, ms);
      wake = () => {
        clearTimeout(t);
        done();
      };
    });

  const get = async (path: string, binary: boolean): Promise<Response> => {
    const res = await fetch(`${origin}${path}`, {
      headers: { accept: binary ? BINARY : 'application/json' },
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping.signal]),
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new SourceError(`${path}: the node answered ${res.status}`);
    }
    return res;
  };
  const bytesOf = async (path: string) => new Uint8Array(await (await get(path, true)).arrayBuffer());

  /** The blocks of the cone below `parents` the ledger does not hold, each checked to be the block asked for. */
  const cone = async (parents: readonly Uint8Array[]): Promise<Uint8Array[]> => {
    const writer = ledger.milestoneWriter();
    const seen = new Set<string>();
    const blocks: Uint8Array[] = [];
    let frontier = [...parents];
    while (frontier.length > 0 && !stopped) {
      const wanted = frontier.filter((id) => {
        const key = bytesKey(id);
        if (seen.has(key) || writer.confirmedBefore(id)) return false;
        seen.add(key);
        return true;
      });
      if (seen.size > MAX_CONE) throw new SourceError(`a cone of more than ${MAX_CONE} blocks`);
      const fetched = await inParallel(wanted, options.concurrency ?? 16, async (id) => {
        const bytes = await bytesOf(`/api/core/v2/blocks/${toHex(id)}`);
        if (!equalBytes(computeBlockId(bytes), id))
          throw new SourceError(`the node's bytes for block ${toHex(id)} are not that block`);
        return bytes;
      });
      blocks.push(...fetched);
      frontier = fetched.flatMap((b) => parentsOf(b));
    }
    return blocks;
  };

  let wasSynced: boolean | undefined;
  const synced = (now: boolean) => {
    if (now !== wasSynced) options.onSynced?.(now);
    wasSynced = now;
  };

  const step = async (): Promise<boolean> => {
    const next = ledger.latestCommitment().slot + 1;
    const info = (await (await get('/api/core/v2/info', false)).json()) as {
      status?: { confirmedMilestone?: { index?: unknown } };
    };
    const confirmed = info.status?.confirmedMilestone?.index;
    if (typeof confirmed !== 'number') throw new SourceError('/api/core/v2/info: no confirmed milestone');
    synced(next > confirmed);
    if (next > confirmed) return false;
    const milestone = decodeMilestonePayload(await bytesOf(`/api/core/v2/milestones/by-index/${next}`));
    if (milestone.index !== next)
      throw new SourceError(`asked for milestone ${next}, the node gave ${milestone.index}`);
    const blocks = await cone(milestone.parents);
    if (stopped) return false;
    options.onApplied?.(applyMilestone(ledger, { milestone, blocks }));
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
        if (stopped) break;
        // The ledger's own failures (a closed or broken store) end the following; the node's are waited out.
        if (e instanceof LedgerError && e.code !== 'MILESTONE_INVALID') {
          options.onError?.(e, index);
          break;
        }
        options.onError?.(e as Error, index);
        await pause(delay);
        delay = nextDelay(delay);
      }
    }
  })();
  return {
    stop() {
      stopped = true;
      stopping.abort();
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
