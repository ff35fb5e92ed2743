import { defineConfig } from 'vitest/config';
import LongestFirst, { SHARED_THREAD_TESTS } from './test/helpers/suite-plan.js';

export default defineConfig({
  test: {
    // Every JSON answer of the servers a test starts is checked against its route's published contract after the file;
    // byte arrays are compared as bytes (test/setup/bytes.ts).
    setupFiles: ['test/setup/contracts.ts', 'test/setup/bytes.ts'],
    // One initdb for the run: the PostgreSQL files' private clusters copy its folder (test/setup/postgres-template.ts).
    globalSetup: ['test/setup/postgres-template.ts'],
    testTimeout: 60_000,
    // A file's shared setup (a simulation, a server, a PostgreSQL cluster) bounded as a test is: vitest's 10 s for a
    // hook skipped all 33 tests of test/http/server.test.ts with two suites on two cores. A bound on a hang, not a
    // timing assertion.
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time on two cores (vitest's default there is one): most files wait on child processes,
    // PostgreSQL and sockets more than they compute. Every file is private to itself (ports 0, its own temporary
    // folders and PostgreSQL cluster), and every wait is for an observed state, so the suite's answers do not depend
    // on its neighbour (two at a time run twice so, and beside a second suite, in session 63; two took 674 s in
    // session 64, over the 10-minute budget).
    maxWorkers: 3,
    minWorkers: 1,
    poolOptions: {
      // The allocation-bound test measures memory across many calls: it needs gc() and a young generation large
      // enough that no collection runs inside its loops.
      forks: { execArgv: ['--expose-gc', '--max-semi-space-size=64'] },
      // The shared-threads project's two threads (below), beside the three forks: one thread ran its files one after
      // another for 282 s of a 582 s run with half as many. As many threads at least as at most: with fewer, tinypool
      // ends an idle thread that vitest still counts on, and the run ends on an unhandled "Terminating worker thread"
      // (vitest 3.2; seen with --no-isolate --minWorkers=1, gone with --minWorkers=3).
      threads: { isolate: false, minThreads: 2, maxThreads: 2 },
    },
    // The longest files first, on a fresh clone too (test/helpers/suite-plan.ts).
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      // Files that leave nothing behind (test/helpers/suite-plan.ts), loaded into two threads one after another, share
      // their imports of src/: each would otherwise load them again in a fresh process (the codec, stardust, validate,
      // crypto and Nova files alone: 77 CPU-s so, 45 in one thread).
      {
        extends: true,
        test: { name: 'shared-threads', include: SHARED_THREAD_TESTS, pool: 'threads', isolate: false },
      },
      { extends: true, test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: SHARED_THREAD_TESTS } },
    ],
  },
});
