import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { concatBytes } from '../util/bytes.js';
import { type Precheck, readPrechecks } from './precheck.js';

// Worker threads that precheck blocks (precheck.ts) ahead of the writer: decoding, syntactic validation, proof of
// work and signature verification of incoming blocks run on every core, while the writer applies and commits in
// order on its own thread.

/** The worker's built file: beside the bundle that holds this code, or, when running from the sources, in dist/. */
function workerFile(): URL {
  for (const relative of ['./ingest-worker.cjs', '../../dist/ingest-worker.cjs']) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error('tangle-core: ingest-worker.cjs is missing beside the library (run npm run build)');
}

interface Job {
  resolve(out: Uint8Array): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
}

export class IngestPool {
  private readonly threads: (Thread | undefined)[] = [];
  private seq = 0;
  private next = 0;

  /** One thread per core by default: the writer's own work is small beside the checks, and it waits for them. */
  constructor(
    private readonly params: ProtocolParameters,
    readonly size = availableParallelism(),
  ) {}

  /** The prechecks of these blocks, in order (undefined for a block the serial path must judge). */
  async precheck(blocks: readonly Uint8Array[]): Promise<(Precheck | undefined)[]> {
    const per = Math.max(1, Math.ceil(blocks.length / this.size));
    const parts: Promise<(Precheck | undefined)[]>[] = [];
    for (let from = 0; from < blocks.length; from += per) parts.push(this.send(blocks.slice(from, from + per)));
    return (await Promise.all(parts)).flat();
  }

  private send(blocks: readonly Uint8Array[]): Promise<(Precheck | undefined)[]> {
    const lengths = Uint32Array.from(blocks, (b) => b.length);
    const data = concatBytes(blocks);
    const slot = this.thread();
    const id = this.seq++;
    return new Promise<Uint8Array>((resolve, reject) => {
      slot.jobs.set(id, { resolve, reject });
      slot.worker.postMessage({ id, data, lengths }, [data.buffer as ArrayBuffer, lengths.buffer]);
    }).then((out) => readPrechecks(out, blocks.length));
  }

  /** The next thread, round robin; a thread that died is replaced (its jobs were refused). */
  private thread(): Thread {
    const i = this.next++ % this.size;
    let slot = this.threads[i];
    if (slot === undefined) {
      const jobs = new Map<number, Job>();
      const worker = new Worker(workerFile(), { workerData: { params: this.params } });
      worker.unref(); // never keeps the process alive
      worker.on('message', ({ id, out }: { id: number; out: Uint8Array }) => {
        jobs.get(id)?.resolve(out);
        jobs.delete(id);
      });
      const fail = (e: Error) => {
        if (this.threads[i] === slot) this.threads[i] = undefined;
        for (const job of jobs.values()) job.reject(e);
        jobs.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`ingest worker exited (code ${code})`)));
      slot = { worker, jobs };
      this.threads[i] = slot;
    }
    return slot;
  }

  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => t?.worker.terminate()));
  }
}
