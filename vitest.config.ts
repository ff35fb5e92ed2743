import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every JSON answer of the servers a test starts is checked against its route's published contract after the file;
    // byte arrays are compared as bytes (test/setup/bytes.ts).
    setupFiles: ['test/setup/contracts.ts', 'test/setup/bytes.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // The allocation-bound test measures memory across many calls: it needs gc() and a young generation large enough
    // that no collection runs inside its loops.
    poolOptions: { forks: { execArgv: ['--expose-gc', '--max-semi-space-size=64'] } },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
