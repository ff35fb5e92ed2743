import { HttpProblem } from './problem.js';

// How the CSV export shares a process with the rest of the API (issue 56). A page of it decodes each transaction's
// block and inputs: a second or more of work for a page of 1,000 updates, and one event loop serves every request of
// the process. Done in one go, 32 clients of it held /health for 32 s. So an export works in slices of at most
// SLICE_MS, yielding to the event loop between them (other requests are answered between any two slices), and at
// most RUNNING exports run in a process at once, so a request waits for at most RUNNING slices. Others wait in a
// queue of at most QUEUED; past it an export is refused at once, 503 with Retry-After, rather than held unboundedly.

/** The longest an export holds the event loop at a time (a unit of work is one row: well under a millisecond). */
export const SLICE_MS = 5;
/** Exports running at once in a process; more would not finish sooner (one thread), only slow the others. */
export const RUNNING = 2;
/** Exports waiting for a place; past them, 503. */
export const QUEUED = 64;
/** What a refused client is told to wait, in seconds: about what a queue's worth of pages takes. */
export const RETRY_AFTER_SECONDS = 5;

/** Work in slices: `pause()` after each unit yields to the event loop once the slice has run its time. */
export class Slices {
  private start = performance.now();
  constructor(private readonly budgetMs = SLICE_MS) {}

  async pause(): Promise<void> {
    if (performance.now() - this.start < this.budgetMs) return;
    // setImmediate, not a resolved promise: the loop polls for I/O (new requests) before it runs again.
    await new Promise<void>((go) => setImmediate(go));
    this.start = performance.now();
  }
}

/** At most `running` jobs at once, at most `queued` waiting for a place (first come, first served). */
export class ExportGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly running = RUNNING,
    readonly queued = QUEUED,
  ) {}

  /** Runs `job` once a place is free. @throws HttpProblem 503 (with Retry-After) at once when the queue is full */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active < this.running) this.active++;
    else if (this.waiting.length < this.queued) await new Promise<void>((go) => this.waiting.push(go));
    else {
      throw new HttpProblem(
        503,
        `${this.running + this.queued} CSV exports are running or waiting in this process: retry later`,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    try {
      return await job();
    } finally {
      // The place passes to the next in line (the count stays), or is freed.
      const next = this.waiting.shift();
      if (next === undefined) this.active--;
      else next();
    }
  }

  /** How many run and how many wait (for tests and logs). */
  load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }
}
