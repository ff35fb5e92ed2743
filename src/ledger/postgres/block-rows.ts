import { crc32 } from 'node:zlib';
import { toHex } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import { transactionPayloadBytes } from '../../stardust/block.js';
import { equalBytes } from '../../util/bytes.js';
import { corrupt, keys, LedgerError } from '../common/index.js';
import { bytesOf, type PgClient } from './client.js';

// A block row's checksum (issue 57), as the embedded store's block record has one (common/block-record.ts): a read
// checks it instead of hashing the block and re-encoding its transaction. It covers what the embedded store's key
// and record hold: the slot, the block ID, the transaction ID (none for a block without one) and the bytes.

const NONE = new Uint8Array(0);

/** The `checksum` column of a block row (a signed int4): CRC-32 of its key as the embedded store has it, tx, bytes. */
export function blockRowChecksum(blockId: Uint8Array, slot: number, txId: Uint8Array | null, raw: Uint8Array): number {
  return crc32(raw, crc32(txId ?? NONE, crc32(keys.block(slot, blockId)))) | 0;
}

/**
 * The bytes of a block row (its `slot`, `raw`, `checksum` and `tx_id` columns, not null `raw`), checked against its
 * checksum; `txId`: the transaction it was found by, in place of its `tx_id`.
 * @throws LedgerError STORE_CORRUPT; STORE_OUTDATED for a row written before rows had checksums
 */
export function checkedBlockRow(blockId: Uint8Array, row: Record<string, unknown>, txId?: Uint8Array): Uint8Array {
  const raw = bytesOf(row.raw);
  const checksum = row.checksum as number | null;
  const tx = txId ?? (row.tx_id === null ? null : bytesOf(row.tx_id));
  if (checksum === null)
    throw new LedgerError(
      'STORE_OUTDATED',
      `the stored block ${toHex(blockId)}: its row was written before block rows had checksums: upgrade the ` +
        'database with `tangle-core upgrade --db DIR --store URL` (DIR: the store its writer mirrors; or start that ' +
        'writer once: serve --db DIR --store URL), which adds them, then read it',
    );
  if (blockRowChecksum(blockId, Number(row.slot), tx, raw) !== checksum)
    throw corrupt(`the stored block ${toHex(blockId)}`, 'its row does not match its checksum');
  return raw;
}

/** The rows of a database kept before block rows had checksums get theirs (a writer's opening), a batch at a time. */
export async function sealBlockRows(c: PgClient): Promise<void> {
  for (;;) {
    const { rows } = await c.query(
      'select block_id, slot, tx_id, raw from blocks where checksum is null and raw is not null limit 2000',
    );
    if (rows.length === 0) return;
    const ids = rows.map((r) => bytesOf(r.block_id));
    const sums = rows.map((r, i) => {
      const [raw, txId] = [bytesOf(r.raw), r.tx_id === null ? null : bytesOf(r.tx_id)];
      const sum = blockRowChecksum(ids[i]!, Number(r.slot), txId, raw);
      // A row damaged before it had a checksum is not sealed as sound: it gets one it fails, and reads say so.
      return sound(ids[i]!, txId, raw) ? sum : sum ^ 1;
    });
    await c.query(
      'update blocks b set checksum = t.sum from unnest($1::bytea[], $2::integer[]) as t(id, sum) ' +
        'where b.block_id = t.id',
      [ids, sums],
    );
  }
}

/** Whether a row's bytes hash to its block ID and carry the transaction it names (or none, where it names none). */
function sound(blockId: Uint8Array, txId: Uint8Array | null, raw: Uint8Array): boolean {
  if (!equalBytes(blake2b256(raw), blockId)) return false;
  try {
    const payload = transactionPayloadBytes(raw);
    return txId === null ? payload === undefined : payload !== undefined && equalBytes(blake2b256(payload), txId);
  } catch {
    return false; // (its bytes hashed to its ID: only a block ID made from bytes that are no block gets here)
  }
}
