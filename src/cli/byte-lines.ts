// The lines of a stream as bytes, each refused past a length before any string is made of it. readline makes a string
// of every line, and a line past V8's longest string (~512 MiB) then ends the process with a stack trace, whatever
// guard comes after; a line read as bytes is refused at the limit, after reading no more than the limit of it.

/** A line longer than the limit: it is refused once `max` bytes of it are read. */
export class LineTooLong extends Error {
  constructor(readonly max: number) {
    super(`longer than ${max} bytes`);
  }
}

/**
 * The lines of `input`, without their `\n` (or `\r\n`); the last one may lack its `\n`.
 * @throws LineTooLong (the stream is then destroyed), the stream's own errors
 */
export async function* byteLines(input: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  let size = 0;
  /** The line made of `pieces` and `last`, without a final `\r`. */
  const take = (last: Buffer): Buffer => {
    const whole = pieces.length === 0 ? last : Buffer.concat([...pieces, last], size + last.length);
    pieces = [];
    size = 0;
    return whole.length > 0 && whole[whole.length - 1] === 0x0d ? whole.subarray(0, -1) : whole;
  };
  for await (const data of input) {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      // One byte more for a `\r` before the `\n` (the line itself is checked once whole).
      if (size + (end - from) > max + 1) throw new LineTooLong(max);
      if (nl === -1) {
        if (end > from) {
          pieces.push(chunk.subarray(from));
          size += end - from;
        }
        break;
      }
      const line = take(chunk.subarray(from, nl));
      if (line.length > max) throw new LineTooLong(max);
      yield line;
      from = nl + 1;
    }
  }
  if (size > 0) {
    const line = take(Buffer.alloc(0));
    if (line.length > max) throw new LineTooLong(max);
    yield line;
  }
}
