// How the CSV export shares a process (issue 56): its slices yield to the event loop once their time is spent, and not
// before; its gate runs a few at once, queues some, refuses the rest with 503 and Retry-After, and hands a freed place
// to the first in line. And its amounts in the network's unit, against hand-checked values. No timing is asserted:
// what is observed is the order in which things happen.
import { describe, expect, it } from 'vitest';
import { inUnit } from '../../../src/http/kit/csv.js';
import { ExportGate, Slices } from '../../../src/http/kit/csv-gate.js';
import { HttpProblem } from '../../../src/http/kit/problem.js';

describe('slices', () => {
  it('a spent slice yields to the event loop (an I/O turn: setImmediate runs first)', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('loop'));
    await new Slices(0).pause();
    order.push('after pause');
    expect(order).toEqual(['loop', 'after pause']);
  });

  it('a slice with time left does not', async () => {
    const order: string[] = [];
    const slices = new Slices(3_600_000);
    setImmediate(() => order.push('loop'));
    for (let i = 0; i < 100; i++) await slices.pause();
    order.push('after pauses');
    await new Promise((go) => setImmediate(go));
    expect(order).toEqual(['after pauses', 'loop']);
  });
});

describe('the gate', () => {
  /** A job that runs until the test lets it end; `started` says whether it began. */
  function held() {
    let end!: () => void;
    const job = { started: false, done: new Promise<void>((go) => (end = go)), end: () => end() };
    const run = () => {
      job.started = true;
      return job.done;
    };
    return { job, run };
  }

  it('runs `running` at once, queues `queued`, refuses the next with 503 and Retry-After; first come, first served', async () => {
    const gate = new ExportGate(2, 2);
    const jobs = Array.from({ length: 4 }, () => held());
    const results = jobs.map((j) => gate.run(j.run));
    await Promise.resolve();
    expect(jobs.map((j) => j.job.started)).toEqual([true, true, false, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: 2 });
    const refused = await gate.run(async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpProblem);
    expect((refused as HttpProblem).status).toBe(503);
    expect(Number((refused as HttpProblem).headers?.['Retry-After'])).toBeGreaterThan(0);
    // The second ends first: its place goes to the third (the first in line), not the fourth.
    jobs[1]!.job.end();
    await results[1];
    await Promise.resolve();
    expect(jobs.map((j) => j.job.started)).toEqual([true, true, true, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: 1 });
    for (const j of jobs) j.job.end();
    await Promise.all(results);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
    expect(await gate.run(async () => 'ran')).toBe('ran');
  });

  it('a job that throws frees its place', async () => {
    const gate = new ExportGate(1, 0);
    await expect(gate.run(async () => Promise.reject(new Error('bad page')))).rejects.toThrow('bad page');
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
    expect(await gate.run(async () => 1)).toBe(1);
  });
});

it('amounts in the network’s unit: every decimal written, the sign kept (hand-checked)', () => {
  expect(inUnit(99_999_842_400n, 6)).toBe('99999.842400');
  expect(inUnit(2_855_067_008n, 6)).toBe('2855.067008');
  expect(inUnit(-2_099_891_956n, 6)).toBe('-2099.891956');
  expect(inUnit(1_000_000n, 6)).toBe('1.000000');
  expect(inUnit(5n, 6)).toBe('0.000005');
  expect(inUnit(-5n, 6)).toBe('-0.000005');
  expect(inUnit(0n, 6)).toBe('0.000000');
  expect(inUnit(2n ** 64n - 1n, 6)).toBe('18446744073709.551615');
  expect(inUnit(42n, 0)).toBe('42');
});
