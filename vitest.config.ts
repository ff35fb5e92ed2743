import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every JSON answer of the servers a test starts is checked against its route's published contract after the file;
    // byte arrays are compared as bytes (test/setup/bytes.ts).
    setupFiles: ['test/setup/contracts.ts', 'test/setup/bytes.ts'],
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
    // The allocation-bound test measures memory across many calls: it needs gc() and a young generation large enough
    // that no collection runs inside its loops.
    poolOptions: { forks: { execArgv: ['--expose-gc', '--max-semi-space-size=64'] } },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
