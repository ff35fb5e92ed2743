// The nested run of test/codec/generated.test.ts: the vector and codec property files again, every struct on the
// generic loop (TANGLE_GENERIC_STRUCTS=1). One thread, the files one after another sharing their imports of src/:
// they start no process and leave nothing behind (as the suite's shared-threads files, test/helpers/suite-plan.ts).
// The suite's own layout (a thread beside three forks, each loading src/ anew) cost this run twice the CPU, spent
// while the suite's one thread waited on it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/vectors.test.ts', 'test/property/{mutation,roundtrip,json-to-bytes}.test.ts'],
    setupFiles: ['test/setup/contracts.ts', 'test/setup/bytes.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    isolate: false,
    poolOptions: { threads: { minThreads: 1, maxThreads: 1 } },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
