import { CodecError } from '../codec/index.js';

/** Where a snapshot's bytes come from: a Node stream or any async iterable of chunks, a web stream, or bytes. */
export type ByteSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array> | Uint8Array;

/**
 * The chunks of a byte source, read as records of known length: `take(n)` hands out the next n bytes, a view of a
 * chunk when it holds them all (the usual case: records are small, chunks are 64 KiB), a copy of the pieces
 * otherwise. Nothing is read ahead beyond the chunk that completes a record, so memory stays at one chunk plus
 * the largest record.
 */
export class ByteQueue {
  private readonly chunks: Uint8Array[] = [];
  private head = 0; // read position in chunks[0]
  private buffered = 0;
  private ended = false;
  private readonly iterator: AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  /** The file offset of the next byte to take. */
  offset = 0;

  constructor(source: ByteSource) {
    this.iterator = iteratorOf(source);
  }

  /** Reads chunks until `n` bytes are buffered; false if the source ends first. */
  async fill(n: number): Promise<boolean> {
    while (this.buffered < n && !this.ended) {
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      let chunk = next.value;
      if (!(chunk instanceof Uint8Array)) throw new TypeError('a snapshot source must yield Uint8Array chunks');
      // A Node Buffer is viewed as a plain Uint8Array: the records hold the same types whatever the source.
      if (chunk.constructor !== Uint8Array) chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
      if (chunk.length > 0) {
        this.chunks.push(chunk);
        this.buffered += chunk.length;
      }
    }
    return this.buffered >= n;
  }

  /** The next `n` bytes, or TRUNCATED naming `path` when the source ends before them. */
  async take(n: number, path: string): Promise<Uint8Array> {
    if (!(await this.fill(n)))
      throw new CodecError('TRUNCATED', `the file ends ${this.buffered} byte(s) into a record of ${n}`, {
        path,
        offset: this.offset,
      });
    const bytes = this.view(n);
    this.offset += n;
    this.buffered -= n;
    this.head += n;
    while (this.chunks.length > 0 && this.head >= this.chunks[0]!.length) {
      this.head -= this.chunks[0]!.length;
      this.chunks.shift();
    }
    return bytes;
  }

  /** A view of the next `n` bytes without taking them (undefined when the source ends first). */
  async peek(n: number): Promise<Uint8Array | undefined> {
    return (await this.fill(n)) ? this.view(n) : undefined;
  }

  /** The next `n` buffered bytes: a view of the first chunk when it holds them, else a copy of the pieces. */
  private view(n: number): Uint8Array {
    const first = this.chunks[0]!;
    if (first.length - this.head >= n) return first.subarray(this.head, this.head + n);
    const out = new Uint8Array(n);
    let at = 0;
    let from = this.head;
    for (let i = 0; at < n; i++, from = 0) {
      const c = this.chunks[i]!;
      const part = Math.min(n - at, c.length - from);
      out.set(c.subarray(from, from + part), at);
      at += part;
    }
    return out;
  }

  /** Whether the source has no byte left. */
  async atEnd(): Promise<boolean> {
    return !(await this.fill(1));
  }

  /** Stops reading the source (its stream is closed when it supports it). */
  async close(): Promise<void> {
    this.ended = true;
    await this.iterator.return?.();
  }
}

function iteratorOf(source: ByteSource): AsyncIterator<Uint8Array> | Iterator<Uint8Array> {
  if (source instanceof Uint8Array) return [source][Symbol.iterator]();
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  if (Symbol.iterator in source) return (source as Iterable<Uint8Array>)[Symbol.iterator]();
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  return {
    next: async () => {
      const r = await reader.read();
      return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
    },
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}
