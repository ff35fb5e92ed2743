// Prints the plain closing line 'N passed, N failed, N skipped' that CI reads, after vitest's own summary, and before it
// the slowest files (the suite has a 10-minute budget on 2 cores: where its time goes, in every CI log).
import { writeFileSync } from 'node:fs';
import type { Reporter } from 'vitest/reporters';

type Task = {
  type: string;
  mode?: string;
  name?: string;
  result?: { state?: string; duration?: number };
  collectDuration?: number;
  tasks?: Task[];
};

export default class SummaryReporter implements Reporter {
  onFinished(files: Task[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const walk = (t: Task) => {
      if (t.type === 'test') {
        if (t.mode === 'skip' || t.mode === 'todo') skipped++;
        else if (t.result?.state === 'pass') passed++;
        else failed++;
      }
      t.tasks?.forEach(walk);
    };
    files.forEach(walk);
    // A file that failed to load has no tests but still failed.
    for (const f of files) if (f.result?.state === 'fail' && !(f.tasks ?? []).length) failed++;
    const slowest = [...files].sort((a, b) => (b.result?.duration ?? 0) - (a.result?.duration ?? 0)).slice(0, 12);
    const s = (ms = 0) => (ms / 1000).toFixed(1).padStart(6);
    // Loading a file (its imports and top-level code) is time too, counted apart from its tests by vitest.
    const line = (f: Task) => `${s(f.result?.duration)} s  ${f.name}  (loading ${s(f.collectDuration).trim()} s)`;
    process.stdout.write(`\nslowest files:\n${slowest.map(line).join('\n')}\n`);
    if (process.env.TANGLE_SUITE_TIMES) {
      const rows = files.map((f) => ({ file: f.name, ms: f.result?.duration ?? 0, loadMs: f.collectDuration ?? 0 }));
      writeFileSync(process.env.TANGLE_SUITE_TIMES, JSON.stringify(rows, null, 1));
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
