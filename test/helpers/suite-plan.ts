// How the suite is laid out on its workers (vitest.config.ts): which files may share a thread, and which to start
// first. The suite has a 10-minute budget on CI's two cores; these two choices are where its wall time goes.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that share two threads without isolation (vitest.config.ts's 'shared' project): each closes what it
 * opens (servers on port 0, brokers, stores in its own temporary folders), sets no environment variable, mocks
 * nothing, changes no directory and leaves no global behind, so the next file finds the thread as a fresh one would be
 * but for the modules already loaded. Not the property test that counts allocations (it needs --expose-gc, a process
 * flag). A new folder or file runs isolated until it is named here; one that starts a process of its own may, but
 * then waits there on it, holding a thread the others need.
 */
export const SHARED_THREAD_TESTS = [
  ...['codec', 'stardust', 'validate', 'crypto', 'nova', 'util', 'proofs', 'events', 'http/core', 'http/kit'].map(
    (d) => `test/${d}/**/*.test.ts`,
  ),
  // test/http's own files; not test/http/accounts/ nor test/http/explorer/, whose files ran isolated in
  // test/ledger/ until the test tree mirrored src/ (issue 59).
  'test/http/*.test.ts',
  'test/property/{fuzz,json-to-bytes,mutation,roundtrip,snapshot}.test.ts',
  // The ledger's and the snapshots' in-process files: each loaded src/ again in a fork of its own, a second of CPU
  // each (55 files: 14 CPU-s for 8 of them so, 6 in a shared thread).
  'test/errors.test.ts',
  'test/junk.test.ts',
  'test/ledger/archive/account-history.test.ts',
  'test/http/accounts/accounts-routes.test.ts',
  'test/ledger/archive/holdings-property.test.ts',
  'test/http/accounts/holdings-routes.test.ts',
  'test/http/accounts/statement-property.test.ts',
  'test/ledger/analytics/columns.test.ts',
  'test/ledger/analytics/hand-checked.test.ts',
  'test/ledger/analytics/milestone-analytics.test.ts',
  'test/ledger/analytics/plain-scan.test.ts',
  'test/ledger/analytics/record.test.ts',
  'test/ledger/core/api-edges.test.ts',
  'test/ledger/common/applied-spender.test.ts',
  'test/ledger/archive/archive-guards.test.ts',
  'test/ledger/archive/archive-property.test.ts',
  'test/http/explorer/explorer-routes.test.ts',
  'test/ledger/archive/record-damage-missing.test.ts',
  'test/ledger/archive/record-damage-snapshot.test.ts',
  'test/ledger/archive/reseal.test.ts',
  'test/ledger/store/batch.test.ts',
  'test/ledger/common/block-record-layout.test.ts',
  'test/ledger/core/clock.test.ts',
  'test/ledger/core/commit.test.ts',
  'test/ledger/history/apply-milestone.test.ts',
  'test/ledger/history/conflict-reasons.test.ts',
  'test/ledger/history/follower.test.ts',
  'test/ledger/history/milestone-edges.test.ts',
  'test/ledger/history/milestone-signatures.test.ts',
  'test/ledger/history/open-slot.test.ts',
  'test/ledger/history/refusals.test.ts',
  'test/ledger/history/white-flag-property.test.ts',
  'test/ledger/history/white-flag.test.ts',
  'test/ledger/indexer/indexer-build.test.ts',
  'test/ledger/indexer/indexer.test.ts',
  'test/ledger/ingest/ingest.test.ts',
  'test/ledger/common/integrity.test.ts',
  'test/ledger/core/ledger.test.ts',
  'test/ledger/core/milestone-records.test.ts',
  'test/ledger/core/milestones.test.ts',
  'test/ledger/core/output-checksums.test.ts',
  'test/ledger/common/output-id-list.test.ts',
  'test/ledger/store/persistence.test.ts',
  'test/ledger/ingest/precheck.test.ts',
  'test/ledger/core/recent.test.ts',
  'test/ledger/core/reference.test.ts',
  'test/sim/simulation.test.ts',
  'test/ledger/core/state.test.ts',
  'test/ledger/store/store-order.test.ts',
  'test/snapshot/genesis-snapshot.test.ts',
  'test/ledger/snapshot/snapshot-export.test.ts',
  'test/snapshot/snapshot-files.test.ts',
  'test/ledger/snapshot/snapshot-import.test.ts',
  'test/ledger/snapshot/snapshot-rules.test.ts',
  'test/vectors.test.ts',
];

/**
 * The longest files of a fresh-clone CI run (seconds, vitest's own per-file durations of the 582 s run of f39d1bb;
 * generated.test's halved since: its rerun is one thread's now). cli, package, docs and import-milestones run their
 * cases side by side since: each scaled by what that saved it beside its former self (the two run at once, same
 * machine, same load). Vitest starts the files it has timed before longest first, from its cache in
 * node_modules/.vite; a fresh clone has none, and then it starts the largest files first, which left 30–40 s files
 * (export-cli, wallet) to the end of the run while a worker idled. Approximate on purpose: only the order matters
 * (within each project: its files go to its own workers), and a file missing here is only started later.
 */
export const LONG_FILES: Readonly<Record<string, number>> = {
  'test/package.test.ts': 133,
  'test/explorer/explorer-browser.test.ts': 89,
  'test/cli/export-cli.test.ts': 73,
  'test/node/outages.test.ts': 69,
  'test/cli/cli.test.ts': 65,
  'test/node/wallet.test.ts': 51,
  'test/docs.test.ts': 51,
  'test/http/core/core-routes.test.ts': 50,
  'test/ledger/postgres/postgres-mirror.test.ts': 46,
  'test/cli/postgres.test.ts': 44,
  'test/ledger/indexer/indexer-sweep.test.ts': 39,
  'test/ledger/postgres/postgres-schema.test.ts': 36,
  'test/codec/generated.test.ts': 35,
  'test/cli/import-milestones.test.ts': 32,
  'test/node/disk-full.test.ts': 25,
  'test/ledger/common/damage.test.ts': 21,
  'test/ledger/history/white-flag-property.test.ts': 20,
  'test/node/demo-network.test.ts': 20,
  'test/ledger/postgres/postgres-edges.test.ts': 19,
  'test/ledger/core/crash.test.ts': 19,
  'test/property/fuzz.test.ts': 18,
  'test/ledger/postgres/snapshot-postgres.test.ts': 17,
  'test/node/lag.test.ts': 17,
  'test/ledger/core/determinism.test.ts': 15,
  'test/ledger/store/store-file.test.ts': 14,
  'test/ledger/postgres/history-postgres.test.ts': 14,
  'test/ledger/history/crash.test.ts': 14,
  'test/events/events.test.ts': 14,
  'test/node/workers.test.ts': 14,
  'test/cli/crash.test.ts': 14,
  'test/ledger/ingest/ingest.test.ts': 13,
  'test/ledger/postgres/archive-postgres.test.ts': 13,
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
