// Worker of bench/ledger.mjs: verifies the signatures it was started with, using the library's verifyEd25519
// (OpenSSL first, ZIP-215 on a "no"), for the seconds each message asks, round after round, and reports how many it
// verified. It lives for the whole run: each measurement runs warm code, and no worker starts or stops next to an
// ingest round (whose CPU is the whole process's).
import { parentPort, workerData } from 'node:worker_threads';
import * as tc from '../dist/index.js';

await tc.ready();
const { signatures } = workerData;
parentPort.on('message', ({ seconds }) => {
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (const s of signatures) if (tc.verifyEd25519(s.publicKey, s.message, s.signature)) count++;
  }
  parentPort.postMessage({ count, seconds: (performance.now() - start) / 1000 });
});
