import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { concatBytes } from '../../util/bytes.js';
import { builtWorkerFile } from '../../util/worker-file.js';
import { type Precheck, readPrechecks } from './precheck.js';

// Worker threads that precheck blocks (precheck.ts) ahead of the writer: decoding, syntactic validation, proof of
// work and signature verification of incoming blocks run on every core, while the writer applies and commits in
// order on its own thread.

interface Job {
  data: Uint8Array;
  lengths: Uint32Array;
  resolve(out: Uint8Array): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  /** Jobs sent to this thread and not answered yet, by id. */
  jobs: Map<number, Job>;
}

/**
 * Blocks per job. Jobs are small and go to whichever thread has room, so that a thread that runs slower (it shares a
 * core with the writer) takes fewer of them: with fixed shares per thread, the faster one ran out of work and
 * waited while the slower one finished its share.
 */
const PART = 64;
/**
 * Jobs in flight per thread. Jobs are handed out on the writer's thread, which runs them only between the blocks it
 * applies: with 2 in flight (10 ms of checks) a thread ran dry while the writer applied a chunk of 500 blocks (20 ms)
 * and waited 7% of the time; with 4, the cores stay 98% busy.
 */
const IN_FLIGHT = 4;

export class IngestPool {
  private readonly threads: (Thread | undefined)[] = [];
  private readonly queue: Job[] = [];
  private seq = 0;

  /** One thread per core by default: the writer's own work is small beside the checks, and it waits for them. */
  constructor(
    private readonly params: ProtocolParameters,
    readonly size = availableParallelism(),
  ) {}

  /** The prechecks of these blocks, in order (undefined for a block the serial path must judge). */
  async precheck(blocks: readonly Uint8Array[]): Promise<(Precheck | undefined)[]> {
    const parts: Promise<(Precheck | undefined)[]>[] = [];
    for (let from = 0; from < blocks.length; from += PART) parts.push(this.submit(blocks.slice(from, from + PART)));
    return (await Promise.all(parts)).flat();
  }

  /**
   * Prechecks copies of `blocks` (all in one buffer: one allocation per batch): each verdict with the copy it is of,
   * or undefined where the serial path must judge (a check failed, or a worker died: the same verdicts follow).
   */
  async precheckCopies(
    blocks: readonly Uint8Array[],
  ): Promise<({ own: Uint8Array; precheck: Precheck } | undefined)[]> {
    const copy = concatBytes(blocks);
    let at = 0;
    const own = blocks.map((b) => {
      at += b.length;
      return copy.subarray(at - b.length, at);
    });
    try {
      const results = await this.precheck(own);
      return results.map((precheck, i) => (precheck === undefined ? undefined : { own: own[i]!, precheck }));
    } catch {
      return blocks.map(() => undefined);
    }
  }

  private submit(blocks: readonly Uint8Array[]): Promise<(Precheck | undefined)[]> {
    const lengths = Uint32Array.from(blocks, (b) => b.length);
    const data = concatBytes(blocks);
    return new Promise<Uint8Array>((resolve, reject) => {
      this.queue.push({ data, lengths, resolve, reject });
      this.dispatch();
    }).then((out) => readPrechecks(out, blocks.length));
  }

  /** Sends queued jobs to threads with room, the least busy first. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let best: Thread | undefined;
      for (let i = 0; i < this.size; i++) {
        const t = this.thread(i);
        if (t.jobs.size < IN_FLIGHT && (best === undefined || t.jobs.size < best.jobs.size)) best = t;
      }
      if (best === undefined) return;
      const job = this.queue.shift()!;
      const id = this.seq++;
      best.jobs.set(id, job);
      best.worker.postMessage({ id, data: job.data, lengths: job.lengths }, [
        job.data.buffer as ArrayBuffer,
        job.lengths.buffer as ArrayBuffer,
      ]);
    }
  }

  /** Thread i, started on first use; a thread that died is replaced (its jobs were refused). */
  private thread(i: number): Thread {
    let slot = this.threads[i];
    if (slot === undefined) {
      const jobs = new Map<number, Job>();
      const worker = new Worker(builtWorkerFile('ingest-worker'), { workerData: { params: this.params } });
      worker.unref(); // never keeps the process alive
      worker.on('message', ({ id, out }: { id: number; out: Uint8Array }) => {
        jobs.get(id)?.resolve(out);
        jobs.delete(id);
        this.dispatch();
      });
      const fail = (e: Error) => {
        if (this.threads[i] === slot) this.threads[i] = undefined;
        for (const job of jobs.values()) job.reject(e);
        jobs.clear();
        this.dispatch(); // what is still queued goes to the other threads, or to this one's replacement
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
    for (const job of this.queue.splice(0)) job.reject(new Error('the ingest pool is closed'));
    await Promise.all(threads.map((t) => t?.worker.terminate()));
  }
}
