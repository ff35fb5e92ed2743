// The ledger benchmarks' blocks, built and signed on worker threads (bench/ledger-gen-worker.mjs) in chunks, and
// handed back in order: `generate(from, to)` resolves with the blocks of transactions from..to−1.
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = dirname(fileURLToPath(import.meta.url));

export function blockGenerator() {
  const workers = Array.from(
    { length: Math.max(1, os.availableParallelism()) },
    () => new Worker(resolve(here, 'ledger-gen-worker.mjs')),
  );
  function generate(from, to) {
    const chunk = 5000;
    const jobs = [];
    let w = 0;
    for (let a = from; a < to; a += chunk) {
      const worker = workers[w++ % workers.length];
      const b = Math.min(to, a + chunk);
      jobs.push(
        new Promise((done) => {
          const onMessage = (m) => {
            if (m.from !== a) return;
            worker.off('message', onMessage);
            const blocks = [];
            let at = 0;
            for (const len of m.lengths) blocks.push(m.data.subarray(at, (at += len)));
            done(blocks);
          };
          worker.on('message', onMessage);
          worker.postMessage({ from: a, to: b });
        }),
      );
    }
    return Promise.all(jobs).then((parts) => parts.flat());
  }
  return { generate, close: () => Promise.all(workers.map((w) => w.terminate())) };
}
