import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Database, RootDatabase, Transaction } from 'lmdb';
import { pooledCopy } from '../../codec/index.js';
import { compareBytes } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';
import type { WriteBatch } from './batch.js';
import type { KeyValueStore } from './kv.js';
import { checkDataFile, fileClosed, fileOpened, trimUnmapped } from './lmdb-file.js';
import { asBuffer, rangeDown, scanRange, startsWith, view } from './lmdb-ranges.js';
import { WriterLock } from './writer-lock.js';

/** lmdb-js reports a refused put (e.g. an append that is not past the last key) only in its settled result. */
function refused(result: Promise<boolean>, table: number): void {
  if ((result as Promise<boolean> & { result?: boolean }).result === false) {
    // Throwing inside transactionSync aborts the whole batch.
    throw new LedgerError('STORE_FAILURE', `the store refused a write (table ${table})`);
  }
}
// lmdb-js's key encoder (ordered-binary) builds its functions with eval when it loads. Loading it only when a store
// is opened keeps the rest of the package (the codec above all) loadable where code generation from strings is
// forbidden; only an LMDB store needs it.
let lmdb: typeof import('lmdb') | undefined;
const loadLmdb = () => (lmdb ??= createRequire(import.meta.url)('lmdb') as typeof import('lmdb'));

const APPEND = { append: true };

/**
 * The map a store opens with (issue 56). lmdb-js's LMDB grows the map itself: a write that needs a page past it maps
 * the file again at twice what is in use (mdb_page_alloc), and a reader in any process does the same when a
 * transaction it begins names pages past its map (mdb_txn_renew0); earlier maps stay mapped until close, for the
 * readers still in them. So the map only needs to fit what the store holds, and it must: under a write map (`bulk`)
 * LMDB sets the file's length to the map's, which with the 64 GiB map of old made every snapshot-imported store a
 * 64 GiB sparse file. Without a write map the file grows page by page as commits write them, whatever the map.
 */
export const INITIAL_MAP = 16 * 1024 ** 2;

/** Whether these writes of a batch are in ascending key order already (checking is linear; sorting is not). */
function inKeyOrder(batch: WriteBatch, writes: readonly number[]): boolean {
  for (let i = 1; i < writes.length; i++) if (!batch.keyBefore(writes[i - 1]!, writes[i]!)) return false;
  return true;
}

// A read's key without its table byte, and the value it finds, without a backing store of their own. V8 keeps typed
// arrays of up to 64 bytes (every key, many records) inside its heap; a view of one (subarray, a Buffer around it)
// moves it out: a malloc'd backing store per read, swept later by the collector's threads. So keys are copied into
// one buffer (lmdb-js copies them again before it returns), and values into slabs that many values share.
const KEY_ROOM = 1024;
const keyRoom = new Uint8Array(new ArrayBuffer(KEY_ROOM));
const keyViews: Uint8Array[] = [];
function lookupKey(key: Uint8Array): Uint8Array {
  const n = key.length - 1;
  if (n > KEY_ROOM) return key.slice(1);
  for (let i = 0; i < n; i++) keyRoom[i] = key[i + 1]!;
  let view = keyViews[n];
  if (view === undefined) keyViews[n] = view = keyRoom.subarray(0, n);
  return view;
}

/** A copy of a value read from LMDB (codec/pooled.ts: small ones share slabs). */
function copyOut(value: Uint8Array): Uint8Array {
  // lmdb-js's read buffer is larger than the value: its `length` says how much of it the value is (copying goes by
  // the array's own length, so the value is cut out first).
  return pooledCopy(value.subarray(0, value.length));
}

export interface LmdbOptions {
  /**
   * Initial size of LMDB's map, in bytes (default 16 MiB, or what the store holds if more). lmdb-js grows the map
   * when a write needs more (to twice what is in use): the disk is the limit.
   */
  mapSize?: number;
  /** Open for reading only: every write fails with a clear error. Chosen by itself on a read-only file system. */
  readOnly?: boolean;
  /**
   * A bulk load into a new store that is thrown away if it fails (a snapshot import): commits write pages in place
   * (LMDB's write map) and do not wait for the disk; `sync` makes it durable once, at the end. A commit of random
   * keys then costs a quarter as much: without the write map each one copies every page it touches.
   */
  bulk?: boolean;
}

/**
 * LMDB environment (the `lmdb` package). Every `write` is one synchronous LMDB transaction, and overlapping sync is
 * off, so when `write` returns the batch is on disk: a crash leaves each batch wholly applied or not at all.
 *
 * Each table (the first key byte) is its own LMDB database, so that writes the ledger marks as appends (records
 * keyed by the slot being committed) can use MDB_APPEND: without it LMDB splits a full page in the middle even when
 * keys arrive in order, leaving slot-ordered tables (blocks, outputs) far from full on disk.
 */
export class LmdbStore implements KeyValueStore {
  private readonly root: RootDatabase<Buffer, Buffer>;
  private readonly tables = new Map<number, Database<Buffer, Buffer>>();
  private lock: WriterLock | undefined;
  private readonly created: string[];
  /** The data file, and its key in lmdb-file.ts's count of open files while this store has it open (fileOpened). */
  private readonly file: string;
  private openKey: string | undefined;
  /** A pinned read transaction (`hold`) and how many holds share it; reads pass it while it is there. */
  private held:
    | {
        readonly transaction: Transaction;
        readonly options: { transaction: Transaction };
        readonly tables: ReadonlyMap<number, Database<Buffer, Buffer>>;
        count: number;
      }
    | undefined;
  readonly readOnly: boolean;

  constructor(path: string, options: LmdbOptions = {}) {
    const readOnly = options.readOnly === true;
    if (existsSync(path) && !statSync(path).isDirectory()) {
      throw new LedgerError(
        'INVALID_ARGUMENT',
        `${path} is a file: a store is a directory (give a new or an existing store directory)`,
      );
    }
    const file = join(path, 'data.mdb');
    checkDataFile(file);
    if (readOnly && !existsSync(file))
      throw new LedgerError('NOT_FOUND', `there is no store at ${path} to open read-only`);
    // What this open creates, it removes again if the open fails: a failed open leaves nothing behind.
    const created = existsSync(path) ? (existsSync(file) ? [] : [file, join(path, 'lock.mdb')]) : [path];
    const unwritable = (e: unknown) =>
      !(e instanceof LedgerError) && /EACCES|EROFS|EPERM|read-only|permission/i.test(String((e as Error).message));
    try {
      let writable = !readOnly;
      if (writable) {
        try {
          mkdirSync(path, { recursive: true });
          this.lock = WriterLock.acquire(path);
          // A store written under a write map has a file as long as its map was (64 GiB before issue 56): the
          // writer, alone with the file, cuts it back to its pages.
          trimUnmapped(file);
        } catch (e) {
          // A read-only file system or directory: serve what is there, refuse writes.
          if (!unwritable(e) || !existsSync(file)) throw e;
          writable = false;
        }
      }
      try {
        this.root = this.openAt(path, !writable, options);
      } catch (e) {
        if (!writable || !unwritable(e)) throw e;
        this.lock?.release();
        this.lock = undefined;
        writable = false;
        this.root = this.openAt(path, true, options);
      }
      this.readOnly = !writable;
    } catch (e) {
      this.lock?.release();
      for (const p of created) rmSync(p, { recursive: true, force: true });
      if (e instanceof LedgerError) throw e;
      throw new LedgerError('STORE_CORRUPT', `cannot open the store at ${path}: ${(e as Error).message}`, { cause: e });
    }
    this.created = created;
    this.file = file;
    this.openKey = fileOpened(file);
    try {
      this.openTables();
    } catch (e) {
      this.close();
      throw new LedgerError('STORE_CORRUPT', `cannot open the store at ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  private openAt(path: string, readOnly: boolean, options: LmdbOptions): RootDatabase<Buffer, Buffer> {
    return loadLmdb().open<Buffer, Buffer>({
      path,
      // lmdb-js takes a path with an extension ("my.db") for a single file unless told: ours is always a directory.
      noSubdir: false,
      keyEncoding: 'binary',
      encoding: 'binary',
      compression: false,
      overlappingSync: false,
      maxDbs: 64,
      readOnly,
      // A write map sets the file's length to the map's: the map starts small and grows with the data (INITIAL_MAP),
      // and close cuts the file back to the pages in use.
      ...(options.bulk === true && !readOnly ? { useWritemap: true, noSync: true } : {}),
      mapSize: options.mapSize ?? INITIAL_MAP,
    });
  }

  /** Removes what opening this store created (a new store whose ledger could not be set up). Call after close. */
  discardIfNew(): void {
    for (const p of this.created) rmSync(p, { recursive: true, force: true });
  }

  /**
   * Opens the tables that exist (their names are recorded in the main database, NUL-terminated). The names are
   * collected first: opening a database while the range's read transaction is still open fails on a read-only store.
   */
  private openTables(): boolean {
    const before = this.tables.size;
    const names = [...this.root.getKeys({})].map((k) => (k as Buffer).toString('latin1').replace(/\0$/, ''));
    for (const name of names) {
      const id = Number(name.slice(1));
      if (/^t[0-9]{1,3}$/.test(name) && !this.tables.has(id)) this.open(id);
    }
    return this.tables.size > before;
  }

  private open(id: number): Database<Buffer, Buffer> | undefined {
    const t = this.root.openDB<Buffer, Buffer>({
      name: `t${id}`,
      keyEncoding: 'binary',
      encoding: 'binary',
      compression: false,
      create: !this.readOnly,
    } as never) as Database<Buffer, Buffer> | undefined;
    if (t !== undefined) this.tables.set(id, t);
    return t;
  }

  /**
   * A table: a writer opens (creates) it on first use. A reader never opens one in a query: lmdb-js opens a database
   * of a read-only environment by committing the current read transaction, which ends it under an open range or a
   * held snapshot (a segmentation fault, or MDB_BAD_TXN). It opens the tables there are when it opens, and those its
   * writer created since when it sees a new commit (`openNewTables`).
   */
  private table(id: number): Database<Buffer, Buffer> | undefined {
    // A held snapshot reads only the tables that existed when it began (LMDB refuses a newer one in an older
    // transaction: "the dbi was out of range").
    if (this.held !== undefined) return this.held.tables.get(id);
    const t = this.tables.get(id);
    if (t !== undefined) return t;
    return this.readOnly ? undefined : this.open(id);
  }

  openNewTables(): boolean {
    return this.readOnly && this.held === undefined && this.openTables();
  }

  /** A table a write needs: a writer creates it when it is missing. */
  private writable(id: number): Database<Buffer, Buffer> {
    return this.tables.get(id) ?? this.open(id)!;
  }

  /**
   * Ends this process's current read snapshot: the next read sees everything committed until then (a reader calls it
   * before each query; lmdb-js would otherwise renew it only on the next turn of the event loop).
   */
  refresh(): void {
    if (this.held !== undefined) return;
    this.root.resetReadTxn();
  }

  hold(): () => void {
    if (this.held === undefined) {
      if (this.readOnly) this.openTables();
      // A new snapshot, taken from a reset read transaction: lmdb-js renews the current one lazily, in the next
      // native read, and refuses to renew one that read has renewed already ("No transaction to renew").
      this.root.resetReadTxn();
      const transaction = this.root.useReadTransaction();
      this.held = { transaction, options: { transaction }, tables: new Map(this.tables), count: 0 };
    }
    const held = this.held;
    held.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--held.count > 0) return;
      this.held = undefined;
      held.transaction.done();
    };
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const table = this.table(key[0]!);
    if (table === undefined) return undefined;
    // lmdb-js's own buffer, valid until its next read: copied out at once.
    // The typings omit getBinaryFast's options; it takes a transaction as get does (a held snapshot's).
    const v = (table.getBinaryFast as (k: Buffer, o?: { transaction: Transaction }) => Buffer | undefined).call(
      table,
      lookupKey(key) as Buffer,
      this.held?.options,
    );
    return v === undefined ? undefined : copyOut(v);
  }

  *entries(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const ids = prefix.length === 0 ? [...this.tables.keys()].sort((a, b) => a - b) : [prefix[0]!];
    const tables = ids.map((id) => (prefix.length === 0 ? (this.held?.tables ?? this.tables).get(id) : this.table(id)));
    const rest = asBuffer(prefix.subarray(1));
    const from = start === undefined || start.length <= 1 ? rest : asBuffer(start.subarray(1));
    const transaction = this.held?.options ?? {};
    for (let i = 0; i < ids.length; i++) {
      const table = tables[i];
      if (table === undefined) continue;
      for (const { key, value } of table.getRange(from.length === 0 ? transaction : { ...transaction, start: from })) {
        const k = key as Buffer;
        if (rest.length > 0 && !startsWith(k, rest)) break;
        const full = new Uint8Array(1 + k.length);
        full[0] = ids[i]!;
        full.set(k, 1);
        yield [full, view(value).slice()];
      }
    }
  }

  scan(
    prefix: Uint8Array,
    start: Uint8Array | undefined,
    visit: (key: Uint8Array, value: Uint8Array) => boolean,
  ): void {
    const table = this.table(prefix[0]!);
    if (table !== undefined) scanRange(table, this.held?.options ?? {}, prefix, start, visit);
  }

  entriesDown(prefix: Uint8Array, start?: Uint8Array): Iterable<[Uint8Array, Uint8Array]> {
    const table = this.table(prefix[0]!);
    return table === undefined ? [] : rangeDown(table, this.held?.options ?? {}, prefix, start);
  }

  write(batch: WriteBatch): void {
    if (this.readOnly) throw new LedgerError('STORE_FAILURE', 'the store is read-only: nothing was written');
    // Appends go in key order per table (the ledger gives them in order; sorting is only a fallback); everything else
    // in the order given. Writes are indexes into the batch.
    const appends: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      this.writable(batch.table(i)); // LMDB cannot open a database inside a write transaction
      if (batch.isAppend(i)) appends.push(i);
      else others.push(i);
    }
    if (!inKeyOrder(batch, appends)) appends.sort((a, b) => compareBytes(batch.key(a), batch.key(b)));
    try {
      // lmdb-js takes Uint8Array keys and values as they are (it copies keys into its own buffer, and reads values in
      // place during the call): views into the batch's buffer need no copy.
      this.root.transactionSync(() => {
        for (const i of others) {
          const t = this.writable(batch.table(i));
          const k = batch.keyInTable(i);
          const value = batch.value(i);
          // Inside transactionSync these apply now; a put's settled result says whether LMDB took it.
          if (value === undefined) void t.remove(k as Buffer);
          else refused(t.put(k as Buffer, value as Buffer), batch.table(i));
        }
        for (const i of appends) {
          // The typings offer put options only on putSync; put takes them too (MDB_APPEND).
          const t = this.writable(batch.table(i)) as unknown as {
            put(k: Uint8Array, v: Uint8Array, options: { append: boolean }): Promise<boolean>;
          };
          refused(t.put(batch.keyInTable(i), batch.value(i)!, APPEND), batch.table(i));
        }
      });
    } catch (e) {
      if (e instanceof LedgerError) throw e;
      const message = String((e as Error).message);
      // lmdb-js grows the map itself; should that fail, say what LMDB said.
      if (/MDB_MAP_FULL/.test(message))
        throw new LedgerError('STORE_FAILURE', 'the store could not grow its map: nothing was written', { cause: e });
      // On a full file system LMDB reports EIO (its write of the pages fails), not ENOSPC: say both.
      if (/ENOSPC|EIO|Input\/output error|No space/i.test(message))
        throw new LedgerError(
          'STORE_FAILURE',
          `the store's disk is full or failing: nothing was written (${message})`,
          { cause: e },
        );
      throw new LedgerError('STORE_FAILURE', `store write failed, nothing was written: ${message}`, { cause: e });
    }
  }

  /** Writes everything committed to disk (a `bulk` store's commits do not). */
  sync(): Promise<void> {
    return new Promise((resolve, reject) =>
      // Not in lmdb-js's typings: RootDatabase.sync(callback), LMDB's mdb_env_sync forced.
      (this.root as unknown as { sync(cb: (e?: Error) => void): void }).sync((e?: Error) =>
        e
          ? reject(new LedgerError('STORE_FAILURE', `the store could not sync: ${e.message}`, { cause: e }))
          : resolve(),
      ),
    );
  }

  close(): void {
    if (this.held !== undefined) {
      this.held.transaction.done();
      this.held = undefined;
    }
    this.root.close();
    if (this.openKey !== undefined) fileClosed(this.openKey);
    this.openKey = undefined;
    // A writer's last act, before another writer may come: a file grown with a write map (its map doubles ahead of
    // the data) is cut back to its pages.
    if (this.lock !== undefined) trimUnmapped(this.file);
    this.lock?.release();
    this.lock = undefined;
  }
}
