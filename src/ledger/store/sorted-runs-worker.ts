import { Worker } from 'node:worker_threads';
import { builtWorkerFile } from '../../util/worker-file.js';
import { LedgerError } from '../common/index.js';
import { HEAD, keyLengthAt, pairSize, writePairHead, writeSlottedKey } from './pair-format.js';
import type { SortedPair } from './sorted-runs.js';

// SortedRuns (sorted-runs.ts) on a thread of its own (sort-worker.ts), for a snapshot import on two cores (issue 44):
// this thread packs the pairs into buffers of PACK bytes and hands each over whole (transferred, not copied); the
// worker sorts them into runs, and at the end merges the runs and hands back sorted chunks, which `merged` yields
// pair by pair. Sorting and merging, a third of an import's time, leave the thread that decodes the snapshot and
// appends to LMDB. At most AHEAD packed buffers are on their way (enough to cover a run's sort, which holds the
// worker for a few tenths of a second): a producer faster than the sort waits (`ready`). Runs of 96 MB: the arena
// and the buffers on their way keep the import's own memory under 512 MB.

const PACK = 4 << 20;
const AHEAD = 12;

interface Reply {
  took?: Uint8Array;
  chunk?: Uint8Array;
  used?: number;
  end?: true;
  error?: string;
  code?: string;
}

export class SortedRunsWorker {
  private readonly worker: Worker;
  private pack: Buffer;
  private used = 0;
  /** Packed buffers the worker gave back, for reuse. */
  private readonly spare: Buffer[] = [];
  private inFlight = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private readonly chunks: { chunk: Buffer; used: number }[] = [];
  private ended = false;
  /** Pairs added in all. */
  size = 0;

  /** Runs go into `dir` (removed by the caller with what it holds), `runBytes` each at most. */
  constructor(dir: string, runBytes = 96 << 20) {
    this.worker = new Worker(builtWorkerFile('sort-worker'), { workerData: { dir, runBytes, chunkBytes: PACK } });
    this.pack = Buffer.allocUnsafe(PACK);
    this.worker.on('message', (m: Reply) => {
      if (m.took !== undefined) {
        this.inFlight--;
        this.spare.push(Buffer.from(m.took.buffer, m.took.byteOffset, m.took.byteLength));
      } else if (m.chunk !== undefined) {
        this.chunks.push({ chunk: Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength), used: m.used! });
      } else if (m.end) this.ended = true;
      else if (m.error !== undefined)
        // A refused pair keeps its code; anything else (a run that could not be written) is the store's failure.
        this.failure = new LedgerError(m.code === 'INVALID_ARGUMENT' ? m.code : 'STORE_FAILURE', m.error);
      this.wake?.();
    });
    this.worker.on('error', (e) => {
      this.failure = new LedgerError('STORE_FAILURE', `the sort's thread failed: ${e.message}`, { cause: e });
      this.wake?.();
    });
  }

  add(key: Uint8Array, value: Uint8Array): void {
    const at = this.room(key.length, value.length) + HEAD;
    this.pack.set(key, at);
    this.pack.set(value, at + key.length);
  }

  /** As SortedRuns.addSlotted: a pair keyed `table ‖ prefix ‖ slot (u32, big-endian) ‖ id`. */
  addSlotted(table: number, prefix: Uint8Array, slot: number, id: Uint8Array, value: Uint8Array): void {
    const start = this.room(1 + prefix.length + 4 + id.length, value.length) + HEAD;
    const at = writeSlottedKey(this.pack, start, table, prefix, slot, id);
    if (value.length > 0) this.pack.set(value, at);
  }

  /** Whether the producer should wait (`ready`) before adding more: the sort is AHEAD buffers behind. */
  get busy(): boolean {
    return this.inFlight >= AHEAD || this.failure !== undefined;
  }

  /** Resolves once the sort has caught up (or rejects with its failure). */
  async ready(): Promise<void> {
    while (this.inFlight >= AHEAD && this.failure === undefined) await this.waitForWorker();
    if (this.failure !== undefined) throw this.failure;
  }

  private room(keyLength: number, valueLength: number): number {
    const need = HEAD + keyLength + valueLength;
    if (keyLength > 0xffff) throw new LedgerError('INVALID_ARGUMENT', `a key of ${keyLength} bytes is too long`);
    if (this.used + need > this.pack.length) this.send(need);
    const at = this.used;
    writePairHead(this.pack, at, keyLength, valueLength);
    this.used = at + need;
    this.size++;
    return at;
  }

  /** The packed pairs to the worker; a fresh buffer with room for `need` bytes. */
  private send(need = 0): void {
    if (this.used > 0) {
      this.worker.postMessage({ pairs: this.pack, used: this.used }, [this.pack.buffer as ArrayBuffer]);
      this.inFlight++;
    }
    const reuse = this.spare.pop();
    this.pack = reuse !== undefined && reuse.length >= need ? reuse : Buffer.allocUnsafe(Math.max(PACK, need));
    this.used = 0;
  }

  private waitForWorker(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  /**
   * Every pair added, in key order (equal keys side by side), a chunk at a time: each chunk's pairs are iterated
   * synchronously (an await per pair, tens of millions of them, would cost more than the merge), each valid until
   * the next is asked for.
   */
  async *merged(): AsyncGenerator<Iterable<SortedPair>> {
    this.send();
    this.worker.postMessage({ merge: true });
    try {
      for (;;) {
        if (this.failure !== undefined) throw this.failure;
        const next = this.chunks.shift();
        if (next === undefined) {
          if (this.ended) return;
          await this.waitForWorker();
          continue;
        }
        this.worker.postMessage({ more: true });
        yield pairsOf(next.chunk, next.used);
      }
    } finally {
      await this.close();
    }
  }

  /** Stops the worker (its runs stay in the directory, which the caller removes). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** The pairs packed in `chunk` up to `used`, as one SortedPair moved along. */
function* pairsOf(chunk: Buffer, used: number): Generator<SortedPair> {
  const pair = { buf: chunk, keyAt: 0, keyEnd: 0, valueEnd: 0 };
  for (let at = 0; at < used; at = pair.valueEnd) {
    pair.keyAt = at + HEAD;
    pair.keyEnd = pair.keyAt + keyLengthAt(chunk, at);
    pair.valueEnd = at + pairSize(chunk, at);
    yield pair;
  }
}
