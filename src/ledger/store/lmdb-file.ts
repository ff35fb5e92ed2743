import { closeSync, existsSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { LedgerError } from '../common/index.js';

/** LMDB's mark of a meta page (checkDataFile). */
const META_MAGIC = 0xbeefc0de;
const P_META = 0x08;
// The LMDB build inside lmdb-js (mdb.master3) lays a page header out as pgno u64, txnid u64, pad u16, flags u16,
// lower/upper u32 (24 bytes); the meta record follows: magic u32, version u32, address u64, mapsize u64, then two
// 48-byte database records (the first one's pad field holds the page size), then last_pg u64 and txnid u64.
const FLAGS_AT = 18;
const MAGIC_AT = 24;
const PAGE_SIZE_AT = 48;
const LAST_PAGE_AT = 144;
const TXNID_AT = 152;
const META_BYTES = 160;

/** What LMDB's two meta pages say: the page size, and the bytes up to the last page each one names. */
interface Metas {
  readonly pageSize: number;
  /** Up to the last page of the current meta page (the one with the higher transaction id). */
  readonly current: bigint;
  /** Up to the last page of either meta page: no committed snapshot, the previous one included, reaches past it. */
  readonly highest: bigint;
}

function readMetas(file: string, corrupt: (why: string) => Error): Metas {
  const fd = openSync(file, 'r');
  try {
    const metaAt = (offset: number): Buffer | undefined => {
      const page = Buffer.alloc(META_BYTES);
      if (readSync(fd, page, 0, META_BYTES, offset) !== META_BYTES) return undefined;
      return (page.readUInt16LE(FLAGS_AT) & P_META) !== 0 && page.readUInt32LE(MAGIC_AT) === META_MAGIC
        ? page
        : undefined;
    };
    const first = metaAt(0);
    if (first === undefined) throw corrupt('its first meta page is damaged');
    const pageSize = first.readUInt32LE(PAGE_SIZE_AT);
    if (![4096, 8192, 16384, 32768, 65536].includes(pageSize))
      throw corrupt(`its page size ${pageSize} is not one LMDB uses`);
    const second = metaAt(pageSize);
    if (second === undefined) throw corrupt('its second meta page is damaged');
    const bytes = (meta: Buffer) => (meta.readBigUInt64LE(LAST_PAGE_AT) + 1n) * BigInt(pageSize);
    // LMDB uses the meta page with the higher transaction id.
    const current = second.readBigUInt64LE(TXNID_AT) > first.readBigUInt64LE(TXNID_AT) ? second : first;
    const [a, b] = [bytes(first), bytes(second)];
    return { pageSize, current: bytes(current), highest: a > b ? a : b };
  } finally {
    closeSync(fd);
  }
}

/**
 * LMDB maps its file and trusts it: a damaged header can crash the process inside the native library, and a file
 * shorter than its meta pages say raises SIGBUS on the first read past its end (at open, or on a later request);
 * neither can be caught. So before opening, check what LMDB would read first: two meta pages, each flagged as a
 * meta page and carrying LMDB's magic, and a file that reaches the last page the current meta page names. (Damage
 * inside the data pages is not detected here.)
 */
export function checkDataFile(file: string): void {
  if (!existsSync(file)) return;
  const corrupt = (why: string) =>
    new LedgerError('STORE_CORRUPT', `${file} is not an intact LMDB file (${statSync(file).size} bytes; ${why})`);
  const needed = readMetas(file, corrupt).current;
  // The size is taken after the meta pages are read: a writer at work grows the file, and writes the pages a commit
  // adds before the meta page that names them. Taken before, a commit in between looked like a truncated file.
  if (BigInt(statSync(file).size) < needed)
    throw corrupt(`it is shorter than the ${needed} bytes its meta page names: truncated`);
}

/**
 * Cuts LMDB's file back to the pages its meta pages name (issue 56). Under a write map LMDB sets the file's length to
 * its map's (ftruncate in mdb_env_map), and nothing in LMDB ever shortens a file: a store bulk-loaded with the 64 GiB
 * map of old, or with a map grown ahead of its data, keeps a file of that apparent size, sparse, which copies, tar,
 * scp and file systems without holes write out in full. Past the last page either meta page names there is nothing:
 * no committed snapshot reaches there (a reader's included), and a writer allocates new pages from there on.
 *
 * Only for the store's one writer, holding its writer lock, with no map of the file in this process (under a write
 * map, LMDB would write new pages past the cut end: SIGBUS). Readers in other processes map without a write map and
 * read only pages their snapshot names. Returns the bytes cut off.
 */
export function trimDataFile(file: string): number {
  if (!existsSync(file)) return 0;
  const { highest } = readMetas(file, (why) => new LedgerError('STORE_CORRUPT', `${file}: ${why}`));
  const size = BigInt(statSync(file).size);
  if (size <= highest) return 0;
  truncateSync(file, Number(highest));
  return Number(size - highest);
}

/**
 * How many stores of this process have each data file open (by device and inode): lmdb-js shares one environment
 * between every open of a file in a process, and a file may be cut back (trimDataFile) only while none maps it.
 */
const openFiles = new Map<string, number>();
const fileKey = (file: string) => {
  const s = statSync(file);
  return `${s.dev}:${s.ino}`;
};

/** Counts an open of `file` by a store of this process; returns the key to give `fileClosed`. */
export function fileOpened(file: string): string {
  const key = fileKey(file);
  openFiles.set(key, (openFiles.get(key) ?? 0) + 1);
  return key;
}

export function fileClosed(key: string): void {
  const left = (openFiles.get(key) ?? 1) - 1;
  if (left > 0) openFiles.set(key, left);
  else openFiles.delete(key);
}

/** trimDataFile if no store of this process has the file open; best effort: a failure leaves the file long. */
export function trimUnmapped(file: string): void {
  try {
    if (!openFiles.has(fileKey(file))) trimDataFile(file);
  } catch {
    // A read-only file system, or the file gone: the store works as it is, only larger than it needs to be.
  }
}
