import { parentPort, workerData } from 'node:worker_threads';
import { HEAD } from './pair-format.js';
import { SortedRuns } from './sorted-runs.js';

// The thread of a bulk load's external sort (sorted-runs-worker.ts, the other side): it takes the pairs the loading
// thread packs, sorts them into runs and merges the runs, so that the loading thread's core is left to decoding the
// snapshot and to LMDB's appends. Built on its own as dist/sort-worker.cjs, which both builds start.
//
// Messages in: { pairs: Uint8Array, used } (answered { took: pairs }, the buffer handed back for reuse), then
// { merge: true }, then { more: true } for each sorted chunk taken. Out: { chunk: Uint8Array, used } of sorted pairs
// packed end to end, { end: true } after the last, { error, code } on a failure.

const { dir, runBytes, chunkBytes } = workerData as { dir: string; runBytes: number; chunkBytes: number };
const runs = new SortedRuns(dir, runBytes);
/** Sorted chunks sent and not taken yet; the merge waits when there are this many. */
const AHEAD = 6;
let sent = 0;
let taken: (() => void) | undefined;

const fail = (e: unknown) =>
  parentPort!.postMessage({ error: (e as Error).message, code: (e as { code?: string }).code });

parentPort!.on('message', (m: { pairs?: Uint8Array; used?: number; merge?: true; more?: true }) => {
  try {
    if (m.pairs !== undefined) {
      runs.addPacked(m.pairs, m.used!);
      parentPort!.postMessage({ took: m.pairs }, [m.pairs.buffer as ArrayBuffer]);
    } else if (m.merge) void merge().catch(fail);
    else if (m.more) {
      sent--;
      taken?.();
    }
  } catch (e) {
    fail(e);
  }
});

async function merge(): Promise<void> {
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let used = 0;
  const send = async () => {
    parentPort!.postMessage({ chunk, used }, [chunk.buffer as ArrayBuffer]);
    sent++;
    while (sent >= AHEAD) await new Promise<void>((resolve) => (taken = resolve));
    chunk = Buffer.allocUnsafe(chunkBytes);
    used = 0;
  };
  for (const { buf, keyAt, valueEnd } of runs.merged()) {
    const start = keyAt - HEAD;
    const size = valueEnd - start;
    if (used + size > chunk.length) {
      if (used > 0) await send();
      if (size > chunk.length) chunk = Buffer.allocUnsafe(size);
    }
    buf.copy(chunk, used, start, valueEnd);
    used += size;
  }
  if (used > 0) await send();
  parentPort!.postMessage({ end: true });
}
