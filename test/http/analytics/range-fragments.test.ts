// rangeRows (http/analytics/range-fragments.ts) over a ledger stand-in whose measured milestones are known: every
// answer is the rows of the measured milestones in its range joined by commas (the expectation is built here from the
// stand-in's set, not by the module), and what is rendered is counted — a committed, measured milestone after the
// store's first is rendered once however often and however its ranges are asked, while the milestones after one not
// measured are rendered for each answer, and a prune starts again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rangeRows } from '../../../src/http/analytics/range-fragments.js';
import { analyticsChunkOf, type LedgerReader } from '../../../src/ledger/index.js';

const NAMES = ['analytics.active_addresses.count'];

/** A store whose measured milestones are `first..latest` but `holes`; `rendered` counts each milestone's renders. */
function standIn(first: number, latest: number, holes: readonly number[] = [], pad = 0) {
  const state = { first, latest, holes: new Set(holes), prunedUntil: 0, calls: 0, firstAsked: 0 };
  const rendered = new Map<number, number>();
  const ledger = {
    latestCommitment: async () => ({ slot: state.latest }),
    get prunedUntil() {
      return state.prunedUntil;
    },
  } as unknown as LedgerReader;
  let server = {};
  const newServer = () => {
    server = {};
  };
  const measured = (i: number) => i >= state.first && i <= state.latest && !state.holes.has(i);
  const padding = pad > 0 ? `,"p":"${'x'.repeat(pad)}"` : '';
  const row = (i: number) => `{"milestoneIndex":${i},"measurements":{"n":${(i * 7919) % 1000}${padding}}}`;
  const render = async (a: number, b: number) => {
    state.calls++;
    await Promise.resolve(); // as a store read, it gives the turn back
    const out = [];
    for (let i = a; i <= b; i++) {
      if (!measured(i)) continue;
      rendered.set(i, (rendered.get(i) ?? 0) + 1);
      out.push({ index: i, json: row(i) });
    }
    return out;
  };
  const firstMeasured = async () => {
    state.firstAsked++;
    return state.first;
  };
  const ask = async (from: number, to: number) => {
    const parts = await rangeRows({ ledger, server }, { from, to, names: NAMES }, render, firstMeasured);
    return Buffer.concat(parts).toString('utf8');
  };
  const want = (from: number, to: number) => {
    const rows = [];
    for (let i = from; i <= to; i++) if (measured(i)) rows.push(row(i));
    return rows.join(',');
  };
  return { state, rendered, ask, want, newServer };
}

describe('rangeRows', () => {
  it('answers the measured rows of any range, each committed row rendered once as the writer goes on', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2500 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 1500 }), fc.nat(40)), {
          minLength: 1,
          maxLength: 25,
        }),
        async (first, asks) => {
          const s = standIn(first, first + 10);
          for (const [from, length, grow] of asks) {
            s.state.latest += grow;
            expect(await s.ask(from, from + length)).toBe(s.want(from, from + length));
          }
          for (const [i, n] of s.rendered) expect(n, `milestone ${i}`).toBe(1);
          // The first measured milestone is asked only of a chunk that keeps nothing yet and whose first row is missing.
          expect(s.state.firstAsked).toBeLessThanOrEqual(first < 1000 ? 1 : analyticsChunkOf(first) + 1);
        },
      ),
      { numRuns: 60, seed: 71 },
    );
  });

  it('renders the rows after a committed milestone not measured for each answer, and answers them all the same', async () => {
    const s = standIn(1, 2500, [1500]);
    expect(await s.ask(1400, 1500)).toBe(s.want(1400, 1499)); // the milestone not measured the last asked
    for (let k = 0; k < 3; k++) expect(await s.ask(1400, 1700)).toBe(s.want(1400, 1700));
    // The chunk's extension stopped at 1500 in the first answer: 1501 on are rendered for each answer after.
    expect([s.rendered.get(1499), s.rendered.get(1501), s.rendered.get(1999), s.rendered.get(2000)]).toEqual([
      1,
      3,
      undefined,
      undefined,
    ]);
    expect(await s.ask(1, 2500)).toBe(s.want(1, 2500));
    expect([s.rendered.get(1), s.rendered.get(1499), s.rendered.get(1501), s.rendered.get(2000)]).toEqual([1, 1, 4, 1]);
    expect(s.want(1400, 1700)).not.toContain('"milestoneIndex":1500,');
  });

  it('keeps a chunk from the store’s first measured milestone, and from nothing when the first is not measured', async () => {
    const s = standIn(1234, 1800);
    for (let k = 0; k < 3; k++) expect(await s.ask(1000, 1999)).toBe(s.want(1000, 1999));
    expect([s.rendered.get(1234), s.rendered.get(1800), s.state.firstAsked]).toEqual([1, 1, 1]);
    expect(await s.ask(1, 999)).toBe(''); // a chunk wholly before the first: nothing, asked once more
    expect(await s.ask(1, 999)).toBe('');
    expect(s.state.firstAsked).toBe(2);
    // A store whose first milestone (1234) is not measured: 1235 on are rendered for each answer.
    const t = standIn(1234, 1800, [1234]);
    for (let k = 0; k < 3; k++) expect(await t.ask(1000, 1999)).toBe(t.want(1000, 1999));
    expect([t.rendered.get(1235), t.rendered.get(1800)]).toEqual([4, 4]);
  });

  it('keeps by server: a new one over the same ledger renders anew (it answers what the store holds now)', async () => {
    const s = standIn(1, 1500);
    expect(await s.ask(1, 1500)).toBe(s.want(1, 1500));
    expect(await s.ask(1, 1500)).toBe(s.want(1, 1500));
    s.newServer();
    expect(await s.ask(1, 1500)).toBe(s.want(1, 1500));
    expect([s.rendered.get(1), s.rendered.get(1500)]).toEqual([2, 2]);
  });

  it('keeps at most 32 MB: past it the oldest chunk goes (rendered again when asked), the newest stays', async () => {
    // Rows of 12 kB: a chunk of 1,000 is some 12 MB (its buffer grown by doubling to 16 MB), so a third chunk is past
    // the bound and the first goes.
    const s = standIn(1, 3999, [], 12_000);
    for (const [from, to] of [
      [1, 999],
      [1000, 1999],
      [2000, 2999],
      [2000, 2999],
      [1, 999],
    ] as const)
      expect(await s.ask(from, to)).toBe(s.want(from, to));
    expect([s.rendered.get(1), s.rendered.get(1000), s.rendered.get(2000)]).toEqual([2, 1, 1]);
  });

  it('starts again after a prune: the pruned rows are gone, the rest rendered anew', async () => {
    const s = standIn(1, 3000);
    expect(await s.ask(1, 3000)).toBe(s.want(1, 3000));
    [s.state.first, s.state.prunedUntil] = [1001, 1000];
    expect(await s.ask(1, 3000)).toBe(s.want(1, 3000));
    expect(await s.ask(900, 1100)).toBe(s.want(1001, 1100));
    expect([s.rendered.get(1), s.rendered.get(1001), s.rendered.get(2999)]).toEqual([1, 2, 2]);
  });

  it('answers ranges asked at once while milestones come, each row rendered once', async () => {
    const s = standIn(1, 100);
    const asks = [];
    for (let k = 0; k < 40; k++) {
      const [from, to] = [1 + ((k * 211) % 900), 1 + ((k * 211) % 900) + 400];
      asks.push(s.ask(from, to).then((got) => ({ got, from, to })));
      if (k % 8 === 7) {
        await asks.at(-1);
        s.state.latest += 250;
      }
    }
    // Each answer holds the rows up to the latest it saw: a beginning of what the range holds at the end.
    for (const { got, from, to } of await Promise.all(asks)) expect(s.want(from, to).startsWith(got)).toBe(true);
    expect(await s.ask(1, 1100)).toBe(s.want(1, 1100));
    expect([...s.rendered].filter(([, n]) => n !== 1)).toEqual([]);
    expect(s.rendered.size).toBe(1100);
  });
});
