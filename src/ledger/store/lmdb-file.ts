import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
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
    // LMDB uses the meta page with the higher transaction id; every page up to its last page must be in the file.
    const current = second.readBigUInt64LE(TXNID_AT) > first.readBigUInt64LE(TXNID_AT) ? second : first;
    const needed = (current.readBigUInt64LE(LAST_PAGE_AT) + 1n) * BigInt(pageSize);
    // The size is taken after the meta pages are read: a writer at work grows the file, and writes the pages a commit
    // adds before the meta page that names them. Taken before, a commit in between looked like a truncated file.
    if (BigInt(statSync(file).size) < needed)
      throw corrupt(`it is shorter than the ${needed} bytes its meta page names: truncated`);
  } finally {
    closeSync(fd);
  }
}
