// Prints the plain closing line 'N passed, N failed, N skipped' that CI reads, after vitest's own summary.
import type { Reporter } from 'vitest/reporters';

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

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
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
