import type { Writable } from 'node:stream';
import { requireOptionalPeer } from '../../util/optional-peer.js';
import { LedgerError } from '../common/index.js';
import type { PgClient } from './client.js';

// Bulk loads through COPY … FROM STDIN in PostgreSQL's binary format (pg-copy-streams): a snapshot's millions of rows
// go as raw bytes, where INSERT … unnest($1::bytea[]) sent each byte string as hex text for the server to parse back.
// A row is its fields in the table's column order: a byte string (bytea) or a number (integer, 4 bytes; or bigint,
// 8 bytes: the column's type decides). No load writes nulls: the columns it leaves out take their defaults.
//
// The format (PostgreSQL's COPY documentation, "Binary Format"): a signature, flags and header extension length;
// per row a 16-bit field count, then per field a 32-bit length and its bytes; a 16-bit -1 at the end.

/** "PGCOPY\n\xff\r\n\0", as bytes (no Buffer at load: the package loads in runtimes without one). */
const SIGNATURE = Uint8Array.of(0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00);
/** Bytes gathered before a write to the server's stream. */
const CHUNK = 1 << 20;

/** A column's type, as the row's field is written. */
export type CopyColumn = 'bytea' | 'int4' | 'int8';

interface CopyStreams {
  from(text: string): Writable;
}
let copyStreams: CopyStreams | undefined;

/** `pg-copy-streams` is an optional peer, needed only to load a snapshot's ledger into PostgreSQL. */
function loadCopyStreams(): CopyStreams {
  return requireOptionalPeer<CopyStreams>(
    'pg-copy-streams',
    () =>
      new LedgerError(
        'INVALID_ARGUMENT',
        'loading a snapshot into PostgreSQL needs the pg-copy-streams package, which is not installed: ' +
          'npm install pg-copy-streams (7.x) beside tangle-core',
      ),
  );
}

/** A row's fields, in its columns' order. */
export type CopyField = Uint8Array | number | bigint;

/**
 * Copies `rows` into `table`'s `columns` (in the caller's SQL transaction): how many. A row that fails to be made (a
 * damaged record throws) cancels the COPY (CopyFail) before the error goes on, so the connection is free for the
 * caller's ROLLBACK; nothing of it stays.
 */
export async function copyInto(
  c: PgClient,
  table: string,
  columns: readonly [string, CopyColumn][],
  rows: Iterable<readonly CopyField[]>,
): Promise<number> {
  const copy = new CopyRows(c, table, columns);
  try {
    for (const fields of rows) await copy.row(fields);
  } catch (e) {
    await copy.cancel(e as Error);
    throw e;
  }
  return copy.end();
}

/** Rows into one table through one COPY; `end` finishes it. */
class CopyRows {
  private readonly stream: Writable;
  private buf = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private failure: Error | undefined;
  private readonly finished: Promise<void>;
  private readonly types: readonly CopyColumn[];
  rows = 0;

  /** A COPY into `table`'s `columns`, of these types. */
  constructor(c: PgClient, table: string, columns: readonly [string, CopyColumn][]) {
    copyStreams ??= loadCopyStreams();
    this.types = columns.map(([, type]) => type);
    const names = columns.map(([name]) => name).join(', ');
    const statement = `copy ${table} (${names}) from stdin (format binary)`;
    this.stream = (c as unknown as { query(s: Writable): Writable }).query(copyStreams.from(statement));
    this.finished = new Promise((resolve, reject) => {
      this.stream.on('finish', resolve);
      this.stream.on('error', (e: Error) => {
        this.failure = e;
        reject(e);
      });
    });
    this.finished.catch(() => {}); // seen by the next write or by end
    this.buf.set(SIGNATURE, 0);
    this.buf.writeInt32BE(0, 11); // flags
    this.buf.writeInt32BE(0, 15); // header extension length
    this.used = 19;
  }

  /** One row, its fields in the columns' order. Awaited: the server's stream may ask the writer to wait. */
  async row(fields: readonly CopyField[]): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    let size = 2;
    for (const f of fields) size += 4 + (typeof f === 'object' ? f.length : 8);
    if (this.used + size > this.buf.length) await this.flush(size);
    const b = this.buf;
    let at = b.writeInt16BE(fields.length, this.used);
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (typeof f === 'object') {
        at = b.writeInt32BE(f.length, at);
        b.set(f, at);
        at += f.length;
      } else if (this.types[i] === 'int8') {
        at = b.writeInt32BE(8, at);
        at = b.writeBigInt64BE(BigInt(f), at);
      } else {
        at = b.writeInt32BE(4, at);
        at = b.writeInt32BE(Number(f), at); // out of an integer's range: a RangeError, as the server would refuse it
      }
    }
    this.used = at;
    this.rows++;
  }

  /** The gathered bytes to the server; a new buffer of at least `room` bytes for what comes next. */
  private async flush(room = 0): Promise<void> {
    const full = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK, room));
    this.used = 0;
    if (full.length > 0 && !this.stream.write(full)) await this.drained();
    if (this.failure !== undefined) throw this.failure;
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
    });
  }

  /** Ends the COPY unfinished: PostgreSQL is sent CopyFail and answers with an error, which is awaited. */
  async cancel(why: Error): Promise<void> {
    this.stream.destroy(why);
    await this.finished.catch(() => {});
  }

  /** The end of the rows: the COPY completes (or its error is thrown). */
  async end(): Promise<number> {
    if (this.used + 2 > this.buf.length) await this.flush(2);
    this.used = this.buf.writeInt16BE(-1, this.used);
    await this.flush();
    this.stream.end();
    await this.finished;
    return this.rows;
  }
}
