// npm run mutate: mutation testing of the rules (validation, ledger, HTTP), issue 9. Not in CI: a full run takes tens
// of minutes on 2 cores. One file: npm run mutate -- --mutate src/validate/syntactic.ts
// Reports: reports/mutation/index.html (browse the survivors) and mutation.json.
import { resolve } from 'node:path';

// Stryker runs the tests in a copy under .stryker-tmp/: read the vectors from the checkout's own folder.
process.env.TANGLE_VECTORS ??= resolve('vectors');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: ['src/validate/**/*.ts', 'src/ledger/**/*.ts', 'src/http/**/*.ts'],
  // Mutants in module-level code would need the whole suite per mutant; they are constants and tables.
  ignoreStatic: true,
  // Error-message texts are not rules (the codes and paths are, and tests pin those); mutating every message would
  // double the run. `npm run mutate -- --mutator.excludedMutations []` includes them.
  mutator: { excludedMutations: ['StringLiteral'] },
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  // MUTATION_REPORT=name writes reports/mutation/name.{html,json} (to keep runs over different areas apart).
  htmlReporter: { fileName: `reports/mutation/${process.env.MUTATION_REPORT ?? 'index'}.html` },
  jsonReporter: { fileName: `reports/mutation/${process.env.MUTATION_REPORT ?? 'mutation'}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
