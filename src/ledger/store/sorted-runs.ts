import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerError } from '../common/index.js';
import { HEAD, keyLengthAt, pairSize, writePairHead, writeSlottedKey } from './pair-format.js';

// An external sort of a bulk load's key-value pairs, in bounded memory (a snapshot import's: tens of millions of
// pairs, most of them index entries under random keys). Pairs gather in an arena; a full arena is sorted by key and
// written to a file of its own (a run); at the end the runs are merged by key, so that the store receives every
// table's keys in ascending order and can append them (LMDB's MDB_APPEND fills each page once; the same pairs put in
// the order they came cost a page copy each once the table outgrows a batch). Equal keys come out side by side.
//
// A pair, in the arena and in a run: pair-format.ts.

/** Bytes read from a run at a time, while merging (a pair larger than this grows its cursor's buffer). */
const READ_CHUNK = 256 << 10;

/**
 * A pair as the merge yields it: where its key and value are in `buf` (valid until the next pair is asked for; no
 * view is made of them, since the merge yields tens of millions).
 */
export interface SortedPair {
  readonly buf: Buffer;
  readonly keyAt: number;
  /** The key's end, where the value starts. */
  readonly keyEnd: number;
  readonly valueEnd: number;
}

export class SortedRuns {
  private arena: Buffer | undefined;
  private used = 0;
  /** Where each pair of the arena starts. */
  private starts = new Uint32Array(1 << 16);
  private count = 0;
  private readonly files: string[] = [];
  /** Pairs added in all. */
  size = 0;

  /** Runs go into `dir` (a directory the caller removes with what it holds, or `close`), `runBytes` each at most. */
  constructor(
    private readonly dir: string,
    private readonly runBytes = 128 << 20,
  ) {}

  add(key: Uint8Array, value: Uint8Array): void {
    const at = this.room(key.length, value.length);
    const a = this.arena!;
    a.set(key, at + HEAD);
    a.set(value, at + HEAD + key.length);
  }

  /**
   * Adds a pair keyed `table ‖ prefix ‖ slot (u32, big-endian) ‖ id`, the shape of the store's slot-ordered keys
   * (outputs, index entries), written in place.
   */
  addSlotted(table: number, prefix: Uint8Array, slot: number, id: Uint8Array, value: Uint8Array): void {
    const keyLength = 1 + prefix.length + 4 + id.length;
    const start = this.room(keyLength, value.length) + HEAD;
    const at = writeSlottedKey(this.arena!, start, table, prefix, slot, id);
    if (value.length > 0) this.arena!.set(value, at);
  }

  /**
   * Adds the pairs packed end to end in `src` (up to `used`), as SortedRunsWorker sends them: copied a stretch at a
   * time, each stretch as many whole pairs as the arena has room for.
   */
  addPacked(src: Uint8Array, used: number): void {
    let at = 0;
    while (at < used) {
      this.arena ??= Buffer.allocUnsafe(this.runBytes);
      let end = at;
      while (end < used) {
        const size = pairSize(src, end);
        if (size > this.runBytes)
          throw new LedgerError('INVALID_ARGUMENT', `a pair of ${size} bytes is larger than a run`);
        if (this.used + (end - at) + size > this.runBytes) break;
        this.started(this.used + (end - at));
        end += size;
      }
      this.arena.set(src.subarray(at, end), this.used);
      this.used += end - at;
      at = end;
      if (at < used) this.spill();
    }
  }

  /** Where a pair of the arena starts. */
  private started(at: number): void {
    if (this.count === this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.count++] = at;
    this.size++;
  }

  /** Room in the arena for a pair (a full arena spilled first), its lengths written: where it starts. */
  private room(keyLength: number, valueLength: number): number {
    const need = HEAD + keyLength + valueLength;
    if (keyLength > 0xffff || need > this.runBytes)
      throw new LedgerError('INVALID_ARGUMENT', `a pair of ${need} bytes is larger than a run`);
    this.arena ??= Buffer.allocUnsafe(this.runBytes);
    if (this.used + need > this.runBytes) this.spill();
    const at = this.used;
    writePairHead(this.arena, at, keyLength, valueLength);
    this.started(at);
    this.used = at + need;
    return at;
  }

  /** The arena's pairs, sorted by key, into a run file. */
  private spill(): void {
    if (this.count === 0) return;
    const a = this.arena!;
    const n = this.count;
    const starts = this.starts;
    // Each key's first 12 bytes as two numbers (6 bytes each, zeros past its end): most comparisons end there.
    const hi = new Float64Array(n);
    const lo = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const s = starts[i]!;
      const k = s + HEAD;
      const len = keyLengthAt(a, s);
      hi[i] = prefix(a, k, Math.min(len, 6));
      lo[i] = len > 6 ? prefix(a, k + 6, Math.min(len - 6, 6)) : 0;
    }
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((x, y) => hi[x]! - hi[y]! || lo[x]! - lo[y]! || compareFrom(a, starts[x]!, starts[y]!, 12));
    const file = join(this.dir, `run-${this.files.length}`);
    const fd = openSync(file, 'wx');
    try {
      const out = Buffer.allocUnsafe(READ_CHUNK);
      let used = 0;
      for (let i = 0; i < n; i++) {
        const s = starts[order[i]!]!;
        const size = pairSize(a, s);
        if (used + size > out.length) {
          writeAll(fd, out, used);
          used = 0;
        }
        if (size > out.length) writeAll(fd, a.subarray(s, s + size), size);
        else {
          a.copy(out, used, s, s + size);
          used += size;
        }
      }
      writeAll(fd, out, used);
    } finally {
      closeSync(fd);
    }
    this.files.push(file);
    this.used = 0;
    this.count = 0;
  }

  /** Every pair added, in key order (equal keys side by side, in no particular order among themselves). */
  *merged(): Generator<SortedPair> {
    this.spill();
    this.arena = undefined; // the merge's memory: a read buffer per run
    const cursors: Cursor[] = [];
    try {
      for (const f of this.files) {
        const c = new Cursor(f);
        cursors.push(c);
      }
      const heap = cursors.filter((c) => c.next());
      // A binary heap by current key; the top is yielded, advanced, and sifted down.
      const less = (i: number, j: number) => {
        const x = heap[i]!;
        const y = heap[j]!;
        return x.buf.compare(y.buf, y.keyAt, y.keyEnd, x.keyAt, x.keyEnd) < 0;
      };
      const down = (from: number) => {
        let i = from;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= heap.length) return;
          const m = l + 1 < heap.length && less(l + 1, l) ? l + 1 : l;
          if (!less(m, i)) return;
          [heap[i], heap[m]] = [heap[m]!, heap[i]!];
          i = m;
        }
      };
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
      while (heap.length > 0) {
        const top = heap[0]!;
        yield top;
        if (!top.next()) {
          heap[0] = heap[heap.length - 1]!;
          heap.pop();
        }
        down(0);
      }
    } finally {
      for (const c of cursors) c.close();
      this.close();
    }
  }

  /** Removes the runs. */
  close(): void {
    for (const f of this.files.splice(0)) rmSync(f, { force: true });
    this.arena = undefined;
  }
}

/** `len` (≤ 6) bytes at `at`, big-endian, as a number that orders like them (zeros after them). */
function prefix(a: Uint8Array, at: number, len: number): number {
  let v = 0;
  for (let i = 0; i < 6; i++) v = v * 256 + (i < len ? a[at + i]! : 0);
  return v;
}

/** The keys of the pairs at `x` and `y`, compared from byte `from` on (the bytes before are equal). */
function compareFrom(a: Buffer, x: number, y: number, from: number): number {
  const lx = keyLengthAt(a, x);
  const ly = keyLengthAt(a, y);
  const n = Math.min(lx, ly);
  for (let i = from; i < n; i++) {
    const d = a[x + HEAD + i]! - a[y + HEAD + i]!;
    if (d !== 0) return d;
  }
  return lx - ly;
}

function writeAll(fd: number, b: Uint8Array, n: number): void {
  let done = 0;
  while (done < n) done += writeSync(fd, b, done, n - done);
}

/** A run, read a chunk at a time: its current pair. */
class Cursor implements SortedPair {
  buf = Buffer.allocUnsafe(READ_CHUNK);
  keyAt = 0;
  keyEnd = 0;
  valueEnd = 0;
  private start = 0;
  private end = 0;
  private fd: number | undefined;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
  }

  /** Moves to the next pair; false at the end of the run. */
  next(): boolean {
    if (!this.fill(HEAD)) return false;
    const b = this.buf;
    const keyLength = b.readUInt16LE(this.start);
    const valueLength = b.readUInt32LE(this.start + 2);
    const size = HEAD + keyLength + valueLength;
    if (!this.fill(size)) throw new LedgerError('STORE_FAILURE', 'a sorted run ended inside a pair');
    this.keyAt = this.start + HEAD;
    this.keyEnd = this.keyAt + keyLength;
    this.valueEnd = this.keyEnd + valueLength;
    this.start += size;
    return true;
  }

  /** Whether `n` bytes from `start` are in the buffer, after reading more if they were not. */
  private fill(n: number): boolean {
    if (this.end - this.start >= n) return true;
    if (this.fd === undefined) return false;
    const rest = this.end - this.start;
    const next = n > this.buf.length ? Buffer.allocUnsafe(n) : this.buf;
    this.buf.copy(next, 0, this.start, this.end);
    this.buf = next;
    this.start = 0;
    this.end = rest;
    while (this.end < this.buf.length) {
      const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (got === 0) {
        this.close();
        break;
      }
      this.end += got;
    }
    return this.end - this.start >= n;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
