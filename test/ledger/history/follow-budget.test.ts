// The follow budget (ledger/history/follow-budget.ts) in the cases follower.test.ts's walk-through does not reach,
// each worked by hand: a milestone fetched again gives back what its first fetch held; a share given back twice
// counts once; the milestones before one that holds blocks but no bytes still make it give way; a failed attempt cuts
// off its own requests and not the next attempt's; an attempt's signal takes any number of listeners.
import { describe, expect, it } from 'vitest';
import { Dropped, FollowBudget } from '../../../src/ledger/history/follow-budget.js';
import { SourceError } from '../../../src/ledger/history/source-client.js';

describe('the follow budget, case by case', () => {
  it('a milestone opened again: its first share is given back, and cannot take more', () => {
    const budget = new FollowBudget({ bytes: 100, blocks: 10 }, () => {});
    const first = budget.open(5);
    first.take(30, 2);
    const again = budget.open(5);
    expect(budget.held()).toEqual({ bytes: 0, blocks: 0 });
    expect(() => first.take(1, 0)).toThrow(Dropped);
    again.take(100, 10); // the whole budget: nothing of the first share is counted
    budget.release(first); // no longer its share: nothing given back
    expect(budget.held()).toEqual({ bytes: 100, blocks: 10 });
    budget.release(again);
    budget.release(again); // given back once
    expect(budget.held()).toEqual({ bytes: 0, blocks: 0 });
  });

  it('bytes and blocks are counted apart: a share of blocks alone before it makes a later one give way', () => {
    const dropped: number[] = [];
    const budget = new FollowBudget({ bytes: 100, blocks: 10 }, (i) => dropped.push(i));
    const s5 = budget.open(5);
    const s6 = budget.open(6);
    s5.take(0, 8); // blocks, no bytes yet
    s6.take(100, 2); // 100 bytes and 10 blocks: exactly the budget
    expect(budget.held()).toEqual({ bytes: 100, blocks: 10 });
    expect(() => s6.take(0, 1)).toThrow(Dropped); // milestone 5 comes first: 6 gives way
    expect(dropped).toEqual([6]);
    expect(s6.signal.aborted).toBe(true);
    expect(s6.signal.reason).toBeInstanceOf(Dropped);
    expect(budget.held()).toEqual({ bytes: 0, blocks: 8 });
    // Alone, a milestone past the budget is refused, not dropped: no milestone before it waits for the room.
    expect(() => s5.take(101, 0)).toThrow(SourceError);
    expect(s5.signal.aborted).toBe(false);
    expect(() => s5.take(0, 3)).toThrow(SourceError);
    s5.take(100, 2);
    expect(budget.held()).toEqual({ bytes: 100, blocks: 10 });
    expect(dropped).toEqual([6]);
  });

  it('a milestone before it that holds nothing yet does not make it give way; one that holds bytes alone does', () => {
    const budget = new FollowBudget({ bytes: 100, blocks: 10 }, () => {});
    const s5 = budget.open(5);
    const s6 = budget.open(6);
    expect(() => s6.take(101, 0)).toThrow(SourceError); // refused: milestone 5 has taken nothing
    expect(s6.signal.aborted).toBe(false);
    s5.take(10, 0);
    expect(() => s6.take(91, 0)).toThrow(Dropped); // 101: milestone 5's 10 bytes come first
    expect(s6.signal.aborted).toBe(true);
  });

  it('the milestones after it give way only as far as it needs, the farthest first', () => {
    const dropped: number[] = [];
    const budget = new FollowBudget({ bytes: 100, blocks: 100 }, (i) => dropped.push(i));
    const [s1, s2, s3, s4] = [budget.open(1), budget.open(2), budget.open(3), budget.open(4)];
    s2.take(30, 1);
    s3.take(30, 1);
    s4.take(30, 1);
    s1.take(40, 1); // 130 bytes: milestone 4 gives its 30 back, and that is room enough
    expect(dropped).toEqual([4]);
    expect([s2, s3].map((s) => s.signal.aborted)).toEqual([false, false]);
    s1.take(0, 97); // blocks: 100 of 100
    expect(budget.held()).toEqual({ bytes: 100, blocks: 100 });
    s1.take(0, 2); // 102 blocks: 3 gives its one back (101), then 2 (100)
    expect(dropped).toEqual([4, 3, 2]);
    expect(budget.held()).toEqual({ bytes: 40, blocks: 100 });
    expect([s2, s3, s4].map((s) => s.signal.aborted)).toEqual([true, true, true]);
  });

  it("a failed attempt cuts off its own requests, not the next attempt's; its signal takes any number of listeners", async () => {
    const budget = new FollowBudget({ bytes: 10, blocks: 10 }, () => {});
    const before = budget.signal;
    const share = budget.open(3);
    budget.clear();
    expect(before.aborted).toBe(true);
    expect(before.reason).toBeInstanceOf(Dropped);
    expect(share.signal.reason).toBeInstanceOf(Dropped);
    expect(() => share.checkLive()).toThrow(Dropped);
    const next = budget.signal;
    expect(next).not.toBe(before);
    expect(next.aborted).toBe(false);
    // A window of milestones, each with many requests: no warning of a leak, as a signal without a limit would give.
    expect(await warningsOf(new AbortController().signal)).toEqual(['MaxListenersExceededWarning']);
    expect(await warningsOf(next)).toEqual([]);
    const again = budget.open(3);
    again.take(10, 10);
    expect(budget.held()).toEqual({ bytes: 10, blocks: 10 });
  });
});

/** The warnings Node gives for 50 listeners on `signal` (it warns past 10 unless told there is no limit). */
async function warningsOf(signal: AbortSignal): Promise<string[]> {
  const names: string[] = [];
  const seen = (w: Error) => names.push(w.name);
  process.on('warning', seen);
  try {
    for (let i = 0; i < 50; i++) signal.addEventListener('abort', () => {});
    // A warning is emitted on the next tick: an immediate comes after it.
    await new Promise((r) => setImmediate(r));
  } finally {
    process.off('warning', seen);
  }
  return names;
}
