import { type Codec, CodecError, decode } from '../codec/index.js';
import { joinPath } from '../errors.js';
import { output } from '../stardust/output.js';
import {
  type DeltaSnapshotHeader,
  deltaSnapshotHeader,
  type FullSnapshotHeader,
  fullSnapshotHeader,
  MAX_MILESTONE_DIFF_LENGTH,
  type MilestoneDiff,
  milestoneDiff,
  SNAPSHOT_OUTPUT_HEAD,
  SNAPSHOT_VERSION,
  type SnapshotOutput,
  SnapshotType,
  snapshotOutput,
} from '../stardust/snapshot.js';
import { ByteQueue, type ByteSource } from './byte-queue.js';

/** One record of a snapshot file, in file order: the header first, then each output, diff and solid entry point. */
export type SnapshotRecord =
  | { kind: 'header'; header: FullSnapshotHeader | DeltaSnapshotHeader }
  | { kind: 'output'; output: SnapshotOutput }
  | { kind: 'milestoneDiff'; diff: MilestoneDiff }
  | { kind: 'solidEntryPoint'; blockId: Uint8Array };

// The fixed bytes of a full header before the protocol parameters option's u16 length, and after the option.
const FULL_HEAD = 90;
const FULL_TAIL = 8 + 4 + 2;
const DELTA_HEADER_LENGTH = 56;
const SEP_LENGTH = 32;
const OUTPUT_LENGTH_AT = SNAPSHOT_OUTPUT_HEAD - 4;
/** Where a delta header keeps the solid entry points' offset. */
const SEP_OFFSET_AT = 2 + 4 + 4 + 32;

/**
 * Reads a TIP-35 snapshot file (version 2, full or delta) as a stream of records, holding one record at a time: a
 * file of any size is read in constant memory. Strict like the block codec: the version and type, every count and
 * length, every output and milestone payload decoded, a delta's SEP offset where the SEPs are, nothing after the
 * last record.
 * @throws CodecError with the file offset of the record (or field) that failed and its path (`outputs[3].output`)
 */
export async function* readSnapshot(source: ByteSource): AsyncGenerator<SnapshotRecord, void, undefined> {
  const q = new ByteQueue(source);
  try {
    const start = await q.peek(2);
    if (start === undefined)
      throw new CodecError('TRUNCATED', 'the file ends before its version and type', { offset: 0 });
    checkVersion(start[0]!, start[1]!);
    if (start[1] === SnapshotType.Full) {
      const head = await q.peek(FULL_HEAD + 2);
      if (head === undefined) throw await truncated(q, 'header');
      const optionLength = head[FULL_HEAD]! | (head[FULL_HEAD + 1]! << 8);
      const header = await next(q, fullSnapshotHeader, FULL_HEAD + 2 + optionLength + FULL_TAIL, 'header');
      yield { kind: 'header', header };
      for (let i = 0n; i < header.outputCount; i++)
        yield { kind: 'output', output: await nextOutput(q, `outputs[${i}]`) };
      for (let i = 0; i < header.milestoneDiffCount; i++)
        yield { kind: 'milestoneDiff', diff: await nextDiff(q, `milestoneDiffs[${i}]`) };
      yield* solidEntryPoints(q, header.solidEntryPointCount);
    } else {
      const header = await next(q, deltaSnapshotHeader, DELTA_HEADER_LENGTH, 'header');
      yield { kind: 'header', header };
      for (let i = 0; i < header.milestoneDiffCount; i++)
        yield { kind: 'milestoneDiff', diff: await nextDiff(q, `milestoneDiffs[${i}]`) };
      if (header.sepFileOffset !== BigInt(q.offset))
        throw new CodecError(
          'VALUE_OUT_OF_RANGE',
          `the solid entry points start at ${q.offset}, the header says ${header.sepFileOffset}`,
          { path: 'header.sepFileOffset', offset: SEP_OFFSET_AT },
        );
      yield* solidEntryPoints(q, header.solidEntryPointCount);
    }
    if (!(await q.atEnd()))
      throw new CodecError('TRAILING_BYTES', 'bytes after the last solid entry point', { offset: q.offset });
  } finally {
    await q.close();
  }
}

function checkVersion(version: number, type: number): void {
  if (version !== SNAPSHOT_VERSION) {
    const era = version === 1 ? ' (Chrysalis, TIP-9)' : '';
    throw new CodecError(
      'UNKNOWN_TYPE',
      `snapshot file format version ${version}${era}; this reads version ${SNAPSHOT_VERSION} (Stardust, TIP-35)`,
      { path: 'header.version', offset: 0 },
    );
  }
  if (type !== SnapshotType.Full && type !== SnapshotType.Delta)
    throw new CodecError('UNKNOWN_TYPE', `snapshot type ${type}: 0 is full, 1 is delta`, {
      path: 'header.type',
      offset: 1,
    });
}

async function* solidEntryPoints(q: ByteQueue, count: number): AsyncGenerator<SnapshotRecord> {
  for (let i = 0; i < count; i++)
    yield { kind: 'solidEntryPoint', blockId: (await q.take(SEP_LENGTH, `solidEntryPoints[${i}]`)).slice() };
}

async function nextOutput(q: ByteQueue, path: string): Promise<SnapshotOutput> {
  const head = await q.peek(SNAPSHOT_OUTPUT_HEAD);
  if (head === undefined) throw await truncated(q, path);
  const length = new DataView(head.buffer, head.byteOffset).getUint32(OUTPUT_LENGTH_AT, true);
  if (length > output.maxSize)
    throw new CodecError('LENGTH_OUT_OF_RANGE', `output length ${length} exceeds the largest (${output.maxSize})`, {
      path: `${path}.output`,
      offset: q.offset + OUTPUT_LENGTH_AT,
    });
  return next(q, snapshotOutput, SNAPSHOT_OUTPUT_HEAD + length, path);
}

async function nextDiff(q: ByteQueue, path: string): Promise<MilestoneDiff> {
  const head = await q.peek(4);
  if (head === undefined) throw await truncated(q, path);
  const length = new DataView(head.buffer, head.byteOffset).getUint32(0, true);
  // Checked before the diff is buffered: a damaged length must not make the reader hold gigabytes.
  if (length < 8 || length > MAX_MILESTONE_DIFF_LENGTH)
    throw new CodecError('LENGTH_OUT_OF_RANGE', `diff length ${length} outside 8..${MAX_MILESTONE_DIFF_LENGTH}`, {
      path,
      offset: q.offset,
    });
  return next(q, milestoneDiff, length, path);
}

/** Takes the next `length` bytes and decodes them whole; an error's offset becomes the file offset. */
async function next<T>(q: ByteQueue, codec: Codec<T>, length: number, path: string): Promise<T> {
  const base = q.offset;
  const bytes = await q.take(length, path);
  try {
    return decode(codec, bytes);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    throw new CodecError(e.code, e.detail, { path: joinPath(path, e.path), offset: base + (e.offset ?? 0) });
  }
}

/** The source ended where a record was due (`inside` it when some of its bytes came). */
async function truncated(q: ByteQueue, path: string): Promise<CodecError> {
  const where = (await q.atEnd()) ? 'before' : 'inside';
  return new CodecError('TRUNCATED', `the file ends ${where} the record`, { path, offset: q.offset });
}
