// How the suite is laid out on its workers (vitest.config.ts): which files may share one thread, and which to start
// first. The suite has a 10-minute budget on CI's two cores; these two choices are where its wall time goes.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that share one thread without isolation (vitest.config.ts's 'one-thread' project): each closes what it
 * opens (servers on port 0, brokers, stores in its own temporary folders), sets no environment variable, mocks
 * nothing and leaves no global behind, so the next file finds the process as a fresh one would be but for the
 * modules already loaded. Not the property test that counts allocations (it needs --expose-gc, a process flag).
 * A new folder or property file runs isolated until it is named here.
 */
export const ONE_THREAD_TESTS = [
  ...['codec', 'stardust', 'validate', 'crypto', 'nova', 'util', 'proofs', 'events', 'http/core', 'http/kit'].map(
    (d) => `test/${d}/**/*.test.ts`,
  ),
  // Not test/http/accounts/ nor test/http/explorer/: their files ran isolated in test/ledger/ until the test tree
  // mirrored src/ (issue 59), and accounts-docs spawns the CLI; the others are not yet checked for sharing a thread.
  'test/http/*.test.ts',
  'test/property/{fuzz,json-to-bytes,mutation,roundtrip,snapshot}.test.ts',
];

/**
 * The longest files of a fresh-clone CI run (seconds, vitest's own per-file durations of the 553 s run of cf4f80b).
 * Vitest starts the files it has timed before longest first, from its cache in node_modules/.vite; a fresh clone has
 * none, and then it starts the largest files first, which left 30–40 s files (export-cli, wallet) to the end of the
 * run while a worker idled. Approximate on purpose: only the order matters, and a file missing here is only started
 * later.
 */
export const LONG_FILES: Readonly<Record<string, number>> = {
  'test/package.test.ts': 99,
  'test/cli/cli.test.ts': 86,
  'test/explorer/explorer-browser.test.ts': 61,
  'test/node/outages.test.ts': 48,
  'test/node/wallet.test.ts': 44,
  'test/docs.test.ts': 42,
  'test/ledger/postgres/postgres-mirror.test.ts': 39,
  'test/cli/export-cli.test.ts': 39,
  'test/ledger/postgres/postgres-schema.test.ts': 37,
  'test/cli/import-milestones.test.ts': 34,
  'test/cli/postgres.test.ts': 32,
  'test/ledger/indexer/indexer-sweep.test.ts': 31,
  'test/ledger/common/damage.test.ts': 29,
  'test/node/disk-full.test.ts': 26,
  'test/node/demo-network.test.ts': 25,
  'test/codec/generated.test.ts': 23,
  'test/http/core/core-routes.test.ts': 22,
  'test/ledger/postgres/postgres-edges.test.ts': 20,
  'test/node/follow.test.ts': 20,
  'test/ledger/history/white-flag-property.test.ts': 19,
  'test/ledger/postgres/snapshot-postgres.test.ts': 17,
  'test/ledger/core/determinism.test.ts': 16,
  'test/node/lag.test.ts': 16,
  'test/cli/crash.test.ts': 16,
  'test/node/events.test.ts': 15,
  'test/node/workers.test.ts': 15,
};

/**
 * Longest first (the schedule that ends soonest when files cannot be split: the last file to start is a short one):
 * by this machine's own last times where vitest has them, else by LONG_FILES, else in vitest's order (largest first).
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const { cache, config } = this.ctx;
    const expected = (f: TestSpecification) => {
      const path = relative(config.root, f.moduleId);
      const last = cache.getFileTestResults(`${f.project.name}:${path}`)?.duration;
      return last ?? (LONG_FILES[path] ?? 0) * 1000;
    };
    const ms = new Map(ordered.map((f) => [f, expected(f)]));
    // Array.prototype.sort is stable: files with no time keep vitest's order among themselves.
    return ordered.sort((a, b) => ms.get(b)! - ms.get(a)!);
  }
}
