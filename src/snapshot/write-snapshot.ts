import { type Codec, CodecError, encode, Writer } from '../codec/index.js';
import {
  type DeltaSnapshotHeader,
  deltaSnapshotHeader,
  type FullSnapshotHeader,
  fullSnapshotHeader,
  type MilestoneDiff,
  milestoneDiff,
  type SnapshotOutput,
  SnapshotType,
  snapshotOutput,
} from '../stardust/snapshot.js';
import type { Awaitable } from '../util/awaitable.js';

type Items<T> = Iterable<T> | AsyncIterable<T>;

/** Where a snapshot is written: bytes appended in order, and a way to go back to fill in the header's counts. */
export interface SnapshotSink {
  write(bytes: Uint8Array): Awaitable<void>;
  /** Overwrites bytes written before (the counts and the SEP offset, known once the records are written). */
  writeAt(position: number, bytes: Uint8Array): Awaitable<void>;
}

/** A header before its records are written: the counts (and a delta's SEP offset) are filled in by the writer. */
export type FullHeaderInput = Omit<FullSnapshotHeader, 'outputCount' | 'milestoneDiffCount' | 'solidEntryPointCount'>;
export type DeltaHeaderInput = Omit<
  DeltaSnapshotHeader,
  'sepFileOffset' | 'milestoneDiffCount' | 'solidEntryPointCount'
>;

export interface SnapshotContent {
  /** Full snapshots only: the unspent outputs of the ledger milestone. */
  outputs?: Items<SnapshotOutput>;
  /** Full: from the ledger milestone back to the target; delta: onwards from the full snapshot's target. */
  milestoneDiffs?: Items<MilestoneDiff>;
  solidEntryPoints?: Items<Uint8Array>;
}

const FLUSH_AT = 1 << 20;

/**
 * Writes a TIP-35 snapshot (version 2) record by record, as hornet's writer does: the header with zero counts, the
 * records, then the counts (and a delta's SEP offset) written over the placeholders. Records are encoded into a
 * buffer handed to the sink a megabyte at a time. Returns the header as written.
 * @throws CodecError when a record does not encode (its path names it) or a count outgrows its field
 */
export async function writeSnapshot(
  sink: SnapshotSink,
  header: FullHeaderInput | DeltaHeaderInput,
  content: SnapshotContent,
): Promise<FullSnapshotHeader | DeltaSnapshotHeader> {
  const out = new Output(sink);
  if (header.type === SnapshotType.Full) {
    const full: FullSnapshotHeader = { ...header, outputCount: 0n, milestoneDiffCount: 0, solidEntryPointCount: 0 };
    const counts = encode(fullSnapshotHeader, full).length - 14; // outputs u64, diffs u32, SEPs u16
    if (content.outputs === undefined) throw new TypeError('writeSnapshot: a full snapshot needs its outputs');
    await out.record(fullSnapshotHeader, full, 'header');
    full.outputCount = BigInt(await out.all(snapshotOutput, content.outputs, 'outputs', Number.MAX_SAFE_INTEGER));
    full.milestoneDiffCount = await out.all(milestoneDiff, content.milestoneDiffs ?? [], 'milestoneDiffs', 0xffffffff);
    full.solidEntryPointCount = await out.solidEntryPoints(content.solidEntryPoints ?? []);
    await out.flush();
    await sink.writeAt(counts, encode(fullSnapshotHeader, full).subarray(counts));
    return full;
  }
  if (content.outputs !== undefined) throw new TypeError('writeSnapshot: a delta snapshot has no outputs');
  const delta: DeltaSnapshotHeader = { ...header, sepFileOffset: 0n, milestoneDiffCount: 0, solidEntryPointCount: 0 };
  const tail = encode(deltaSnapshotHeader, delta).length - 14; // SEP offset u64, diffs u32, SEPs u16
  await out.record(deltaSnapshotHeader, delta, 'header');
  delta.milestoneDiffCount = await out.all(milestoneDiff, content.milestoneDiffs ?? [], 'milestoneDiffs', 0xffffffff);
  delta.sepFileOffset = BigInt(out.offset);
  delta.solidEntryPointCount = await out.solidEntryPoints(content.solidEntryPoints ?? []);
  await out.flush();
  await sink.writeAt(tail, encode(deltaSnapshotHeader, delta).subarray(tail));
  return delta;
}

/** A whole snapshot in memory (small ones: tests, a browser). */
export async function encodeSnapshot(header: FullHeaderInput | DeltaHeaderInput, content: SnapshotContent) {
  const parts: Uint8Array[] = [];
  let length = 0;
  const patches: [number, Uint8Array][] = [];
  await writeSnapshot(
    {
      write(bytes) {
        parts.push(bytes);
        length += bytes.length;
      },
      writeAt: (position, bytes) => void patches.push([position, bytes.slice()]),
    },
    header,
    content,
  );
  const file = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    file.set(p, at);
    at += p.length;
  }
  for (const [position, bytes] of patches) file.set(bytes, position);
  return file;
}

/** The buffered output of one snapshot. */
class Output {
  private readonly w = new Writer(FLUSH_AT * 2);
  /** Bytes handed to the sink before the buffer. */
  private flushed = 0;

  constructor(private readonly sink: SnapshotSink) {}

  get offset(): number {
    return this.flushed + this.w.pos;
  }

  async record<T>(codec: Codec<T>, value: T, path: string): Promise<void> {
    const at = this.w.pos;
    try {
      codec.write(value, this.w);
    } catch (e) {
      this.w.pos = at; // nothing of a record that failed reaches the file
      if (e instanceof CodecError) e.prefix(path);
      throw e;
    }
    if (this.w.pos >= FLUSH_AT) await this.flush();
  }

  async all<T>(codec: Codec<T>, items: Items<T>, path: string, max: number): Promise<number> {
    let n = 0;
    for await (const item of items) {
      if (n === max) throw new CodecError('LENGTH_OUT_OF_RANGE', `more than ${max} records`, { path });
      await this.record(codec, item, `${path}[${n}]`);
      n++;
    }
    return n;
  }

  async solidEntryPoints(items: Items<Uint8Array>): Promise<number> {
    let n = 0;
    for await (const id of items) {
      if (n === 0xffff) throw new CodecError('LENGTH_OUT_OF_RANGE', 'more than 65535 solid entry points', {});
      if (!(id instanceof Uint8Array) || id.length !== 32)
        throw new CodecError('LENGTH_OUT_OF_RANGE', 'a solid entry point is a 32-byte block ID', {
          path: `solidEntryPoints[${n}]`,
        });
      this.w.bytes(id);
      n++;
      if (this.w.pos >= FLUSH_AT) await this.flush();
    }
    return n;
  }

  async flush(): Promise<void> {
    if (this.w.pos === 0) return;
    const bytes = this.w.buf.slice(0, this.w.pos);
    this.flushed += bytes.length;
    this.w.pos = 0;
    await this.sink.write(bytes);
  }
}
