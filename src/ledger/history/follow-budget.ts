import { setMaxListeners } from 'node:events';
import { SourceError } from './source-client.js';

// What the follower holds of the milestones under way — the bytes and blocks of their cones, fetched and not yet
// applied — bounded across the whole window, so that a source cannot make it hold more however large the cones it
// hands out. The milestone to apply next comes first: when it needs room, the milestones fetched ahead of it give
// theirs back (the farthest first: dropped, and fetched again in their turn); a cone larger than the whole budget is
// refused. Each milestone draws on a share; a share is given back when its milestone is applied or refused, and all of
// them when an attempt fails (then every request of that attempt is cut off too).

export interface BudgetLimits {
  /** Bytes of blocks (and cone answers) held at once. */
  bytes: number;
  /** Blocks held at once. */
  blocks: number;
}

/**
 * The budget by default: twice the largest cone answer a tangle-core gives (413 past 64 MiB or 100,000 blocks), so
 * that the largest cone is taken beside others. In memory it costs about twice its bytes (a precheck keeps its own
 * copy) and a few hundred bytes a block more (bench/follow-hostile.mjs measures it).
 */
export const DEFAULT_FOLLOW_BUDGET: BudgetLimits = { bytes: 128 * 1024 * 1024, blocks: 200_000 };

/**
 * A milestone fetched ahead, dropped to make room for an earlier one (or an attempt that failed): never reported,
 * fetched again in its turn.
 */
export class Dropped extends Error {}

/** What one milestone's fetch holds. */
export class Share {
  bytes = 0;
  blocks = 0;
  private readonly controller = new AbortController();

  constructor(
    readonly index: number,
    private readonly budget: FollowBudget,
  ) {}

  /** Aborted when the share is dropped: its requests are cut off, its fetch stops. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** @throws Dropped once dropped */
  checkLive(): void {
    if (this.controller.signal.aborted) throw this.controller.signal.reason;
  }

  /** `bytes` and `blocks` more held. @throws Dropped, SourceError past the whole budget */
  take(bytes: number, blocks: number): void {
    this.budget.take(this, bytes, blocks);
  }

  /** @internal */
  abort(why: string): void {
    this.controller.abort(new Dropped(why));
  }
}

export class FollowBudget {
  private readonly shares = new Map<number, Share>();
  private bytes = 0;
  private blocks = 0;
  private attempt = attemptController();

  /** `onDrop`: told of each milestone dropped to make room, to be fetched again in its turn. */
  constructor(
    readonly limits: BudgetLimits,
    private readonly onDrop: (index: number) => void,
  ) {}

  /** What the shares hold now. */
  held(): { bytes: number; blocks: number } {
    return { bytes: this.bytes, blocks: this.blocks };
  }

  /** Aborted when the attempt fails (clear): the requests it made are cut off (a trickling answer among them). */
  get signal(): AbortSignal {
    return this.attempt.signal;
  }

  /** A share for milestone `index`'s fetch. */
  open(index: number): Share {
    const share = new Share(index, this);
    const old = this.shares.get(index);
    if (old !== undefined) this.release(old);
    this.shares.set(index, share);
    return share;
  }

  /** @internal Share.take */
  take(share: Share, bytes: number, blocks: number): void {
    share.checkLive();
    if (this.shares.get(share.index) !== share) throw new Dropped(`milestone ${share.index}: its share was given back`);
    const fits = () => this.bytes + bytes <= this.limits.bytes && this.blocks + blocks <= this.limits.blocks;
    if (!fits()) {
      const later = [...this.shares.values()].filter((s) => s.index > share.index).sort((a, b) => b.index - a.index);
      for (const s of later) {
        if (fits()) break;
        this.drop(s, `to make room for milestone ${share.index}`);
      }
    }
    if (!fits()) {
      const earlier = [...this.shares.values()].some((s) => s.index < share.index && (s.bytes > 0 || s.blocks > 0));
      if (earlier) {
        this.drop(share, 'to make room for the milestones before it');
        share.checkLive();
      }
      throw new SourceError(
        `its cone is more than the follow budget (${this.limits.bytes} bytes, ${this.limits.blocks} blocks held at ` +
          `once: --follow-budget, --follow-budget-blocks)`,
      );
    }
    share.bytes += bytes;
    share.blocks += blocks;
    this.bytes += bytes;
    this.blocks += blocks;
  }

  /** What the share holds is given back (its milestone applied or refused). */
  release(share: Share): void {
    if (this.shares.get(share.index) !== share) return;
    this.shares.delete(share.index);
    this.bytes -= share.bytes;
    this.blocks -= share.blocks;
  }

  /** Every share given back and dropped, every request of the attempt cut off: an attempt failed. */
  clear(): void {
    for (const s of this.shares.values()) s.abort('the attempt failed');
    this.shares.clear();
    this.bytes = 0;
    this.blocks = 0;
    this.attempt.abort(new Dropped('the attempt failed'));
    this.attempt = attemptController();
  }

  private drop(share: Share, why: string): void {
    this.release(share);
    share.abort(`milestone ${share.index} dropped ${why}`);
    this.onDrop(share.index);
  }
}

/** An attempt's requests at once (a window of milestones, each walking many blocks) all listen to its signal. */
function attemptController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
