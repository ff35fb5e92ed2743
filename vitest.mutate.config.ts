import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The suite Stryker runs against each mutant: every test that imports the sources. Tests that spawn the built CLI or
// load dist/ cannot see a mutant (Stryker changes the sources, not the build), and the fuzz and allocation tests
// cover the codec, which is not mutated here; leaving them out only saves time. test/codec/generated.test.ts runs the
// generator and whole suites in child processes: instrumented sources are not what it checks, and per mutant it would
// cost minutes.
//
// MUTATE_TESTS=a.test.ts,b.test.ts runs only those files: a source most of the suite imports (a ledger record, say)
// would otherwise have Stryker's dry run take the whole suite (and time out on a busy machine). Mutants the chosen
// files do not reach are then reported as not covered, not as survivors.
const only = process.env.MUTATE_TESTS?.split(',').filter(Boolean);

const config = mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        'test/cli/**',
        'test/node/**',
        'test/browser.test.ts',
        'test/docs.test.ts',
        'test/codec/generated.test.ts',
        'test/ledger/core/crash.test.ts',
        'test/ledger/history/crash.test.ts',
        'test/package.test.ts',
        'test/property/fuzz.test.ts',
        'test/property/allocation.test.ts',
      ],
      reporters: ['default'],
    },
  }),
);
// (Set after the merge: mergeConfig would append to the base's include, not replace it.) One project, every file
// isolated in its own process as Stryker's runner expects: the base's split into a shared-thread project is for the
// whole suite's time.
config.test!.projects = undefined;
config.test!.include = only !== undefined && only.length > 0 ? only : ['test/**/*.test.ts'];

export default config;
