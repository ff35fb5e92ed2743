import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ready } from '../../crypto/index.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { precheckBlock, writePrechecks } from './precheck.js';

// A thread of the ingest pool (ingest-pool.ts): prechecks batches of blocks against the protocol parameters it was
// started with and sends the results back in one buffer. It holds no ledger state. Built on its own as
// dist/ingest-worker.cjs, which the ESM and CommonJS builds both start.

const params = (workerData as { params: ProtocolParameters }).params;

// Below the writer's priority: on Linux the nice value is per thread, and this lowers this thread's only. The writer
// applies blocks in order and cannot be helped by another core, so when all cores are busy it should be the one that
// runs; the pool takes every cycle it leaves.
try {
  setPriority(10);
} catch {
  // not permitted here: equal priority only costs throughput
}

interface Batch {
  id: number;
  data: Uint8Array;
  lengths: Uint32Array;
}

void ready().then(() => {
  parentPort!.on('message', ({ id, data, lengths }: Batch) => {
    const prechecks = [];
    let at = 0;
    for (const length of lengths) {
      prechecks.push(precheckBlock(data.subarray(at, at + length), params));
      at += length;
    }
    const out = writePrechecks(prechecks);
    parentPort!.postMessage({ id, out }, [out.buffer as ArrayBuffer]);
  });
});
