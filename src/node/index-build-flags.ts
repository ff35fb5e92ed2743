import type { IndexBuildOptions } from '../ledger/index.js';
import { wholeNumber } from './flags.js';

// `serve`'s flags for the build of the indexer's entries a snapshot's import leaves to the first writer (issue 58;
// ledger/indexer/index-build.ts): how big a step, and how long a rest between two.

export const INDEX_FLAGS = {
  'index-batch': { type: 'string' },
  'index-pause': { type: 'string' },
} as const;

export const INDEX_USAGE = [
  "  --index-batch N         where the store lacks the indexer's entries (import-snapshot leaves them to the",
  '                          first writer): outputs the writer indexes in one step while it serves (default 500;',
  '                          a store of at most 100 steps is indexed at the opening); the indexer routes answer 503',
  "                          with the build's counts until it is done, /health shows them; a PostgreSQL",
  "                          database's build (--store, after import-snapshot --store): default 200 a step",
  '  --index-pause MS        a rest between two steps, leaving the cores to the requests (default 0)',
].join('\n');

export function indexBuildOf(values: {
  'index-batch'?: string | undefined;
  'index-pause'?: string | undefined;
}): IndexBuildOptions {
  const batch = values['index-batch'];
  const pause = values['index-pause'];
  return {
    ...(batch === undefined ? {} : { batch: wholeNumber(batch, '--index-batch', 1, 10_000_000) }),
    ...(pause === undefined ? {} : { pauseMs: wholeNumber(pause, '--index-pause', 0, 86_400_000) }),
    onError: (e) => process.stderr.write(`the indexer's build stopped (the next start resumes it): ${String(e)}\n`),
  };
}
