import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { VerifiedSignatures } from './verified-signatures.js';

// Verifies batches of Ed25519 signatures on worker threads with OpenSSL, ahead of the (synchronous, single-threaded)
// validation that will ask for them. Each signature OpenSSL accepts is remembered, once, in the caller's
// `VerifiedSignatures`; the rest are left to `verifyEd25519` itself (a "no" from OpenSSL still needs the ZIP-215
// check). So the pool can
// only make validation faster, never change a verdict. The worker needs nothing but node:crypto, so its code is
// inline and works the same from the ESM and CommonJS builds.

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createPublicKey, verify } = require('node:crypto');
parentPort.on('message', ({ id, data, count, messageLength }) => {
  const bytes = Buffer.from(data);
  const ok = new Uint8Array(count);
  const stride = 96 + messageLength;
  for (let i = 0; i < count; i++) {
    const at = i * stride;
    try {
      const x = bytes.subarray(at, at + 32).toString('base64url');
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
      ok[i] = verify(null, bytes.subarray(at + 96, at + stride), key, bytes.subarray(at + 32, at + 96)) ? 1 : 0;
    } catch { ok[i] = 0; }
  }
  parentPort.postMessage({ id, ok }, [ok.buffer]);
});
`;

export interface SignatureToCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

export class VerifyPool {
  private readonly workers: Worker[];
  private next = 0;
  private seq = 0;
  private readonly waiting = new Map<number, (ok: Uint8Array) => void>();

  /** One core stays with the thread that validates and writes. */
  constructor(size = Math.max(1, availableParallelism() - 1)) {
    this.workers = Array.from({ length: size }, () => {
      const w = new Worker(WORKER_SOURCE, { eval: true });
      w.unref(); // never keeps the process alive
      w.on('message', ({ id, ok }: { id: number; ok: Uint8Array }) => {
        this.waiting.get(id)?.(ok);
        this.waiting.delete(id);
      });
      return w;
    });
  }

  /** Verifies the batch across the workers; resolves when every accepted signature has been remembered. */
  async verify(items: readonly SignatureToCheck[], verified: VerifiedSignatures): Promise<void> {
    // Grouped by message length so that each message carries fixed-size records.
    const byLength = new Map<number, SignatureToCheck[]>();
    for (const it of items) {
      const group = byLength.get(it.message.length) ?? [];
      group.push(it);
      byLength.set(it.message.length, group);
    }
    const jobs: Promise<void>[] = [];
    for (const [messageLength, group] of byLength) {
      const per = Math.ceil(group.length / this.workers.length);
      for (let from = 0; from < group.length; from += per)
        jobs.push(this.send(group.slice(from, from + per), messageLength, verified));
    }
    await Promise.all(jobs);
  }

  private send(group: SignatureToCheck[], messageLength: number, verified: VerifiedSignatures): Promise<void> {
    const stride = 96 + messageLength;
    const data = new Uint8Array(group.length * stride);
    group.forEach((g, i) => {
      data.set(g.publicKey, i * stride);
      data.set(g.signature, i * stride + 32);
      data.set(g.message, i * stride + 96);
    });
    const id = this.seq++;
    const worker = this.workers[this.next++ % this.workers.length]!;
    return new Promise((done, fail) => {
      const onError = (e: Error) => fail(e);
      worker.once('error', onError);
      this.waiting.set(id, (ok) => {
        worker.off('error', onError);
        group.forEach((g, i) => {
          if (ok[i] === 1) verified.add(g.publicKey, g.message, g.signature);
        });
        done();
      });
      worker.postMessage({ id, data: data.buffer, count: group.length, messageLength }, [data.buffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
