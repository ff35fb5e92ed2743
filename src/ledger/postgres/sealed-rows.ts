import { createHash } from 'node:crypto';
import { toHex } from '../../codec/index.js';
import { checkRow, corrupt, keys } from '../common/index.js';
import { bytesOf } from './client.js';

// The rows of the archive that hold values, not records (archive-schema.ts): a ledger update's and an address
// balance's, each sealed under the key the embedded store gives the record, and checked by every read
// (postgres-explorer.ts) against the values it read. A ledger update's row is only ever inserted: its seal is
// common/record-checks.ts rowSeal, computed by the writer (write-archive.ts). A balance's row is changed in place by
// every milestone that touches its address, and its seal is one SQL computes too (balanceSeal, BALANCE_SEAL_SQL): the
// writer's one statement checks the row it finds, adds the change and seals the result, with no read before it.

export type BalanceRow = { address: Uint8Array; amount: bigint; plain: bigint; outputs: number; returns: number };

/** The values of a ledger update's row its seal covers, beside its key (archive-schema.ts UPDATE_VALUES). */
export const updateFields = (r: { address: Uint8Array; owner: Uint8Array; amount: bigint; time: number }) => [
  r.address,
  r.owner,
  r.amount,
  r.time,
];

/** The values of a balance's row its seal covered before it could be computed in SQL (a CRC-32: rowSeal). */
export const balanceFields = (r: BalanceRow) => [r.amount, r.plain, r.outputs, r.returns];

/**
 * The seal of a balance's row: the first four bytes of the SHA-256 of its key (keys.addressBalance) and its values as
 * decimal text, comma-separated, read as a signed big-endian 32-bit integer (the column's type). PostgreSQL computes
 * the same from the row's columns (BALANCE_SEAL_SQL): its functions offer SHA-256, not CRC-32.
 */
export function balanceSeal(r: BalanceRow): number {
  const hash = createHash('sha256').update(keys.addressBalance(r.address));
  return hash.update(`${r.amount},${r.plain},${r.outputs},${r.returns}`).digest().readInt32BE(0);
}

/** The key of a balance's record is the table byte, the address, then the kind byte (store-keys.ts). */
const [TABLE, KIND] = Array.from(
  keys.addressBalance(new Uint8Array(0)),
  (b) => `'\\x${toHex(Uint8Array.of(b)).slice(2)}'::bytea`,
);

/** balanceSeal in SQL, of the row (or relation) `r`'s columns address, amount, plain, outputs and returns. */
export const BALANCE_SEAL_SQL = (r: string) =>
  `('x' || encode(substring(sha256(${TABLE} || ${r}.address || ${KIND} || convert_to(${r}.amount::text || ',' || ` +
  `${r}.plain::text || ',' || ${r}.outputs::text || ',' || ${r}.returns::text, 'UTF8')) from 1 for 4), 'hex'))` +
  '::bit(32)::integer';

/** A balance's row whose seal is not that of its values. */
export const damagedBalance = (address: Uint8Array) =>
  corrupt(`the stored address balance (key ${toHex(keys.addressBalance(address))})`, 'its row does not match its seal');

/** A balance's row as PostgreSQL gave it, checked against its seal. @throws LedgerError STORE_CORRUPT */
export function checkedBalance(r: Record<string, unknown>): BalanceRow {
  const address = bytesOf(r.address);
  const row = {
    address,
    amount: BigInt(r.amount as string),
    plain: BigInt(r.plain as string),
    outputs: Number(r.outputs),
    returns: Number(r.returns),
  };
  if (r.seal === null || r.seal === undefined || Number(r.seal) !== balanceSeal(row)) throw damagedBalance(address);
  return row;
}

/** A ledger update's row as PostgreSQL gave it, checked against its seal. @throws LedgerError STORE_CORRUPT */
export function checkedUpdate(r: Record<string, unknown>) {
  const row = {
    index: Number(r.milestone),
    outputId: bytesOf(r.output_id),
    spent: r.spent === true,
    address: bytesOf(r.address),
    owner: bytesOf(r.owner),
    amount: BigInt(r.amount as string),
    time: Number(r.unix_time),
  };
  checkRow(keys.milestoneUpdate(row.index, row.outputId, row.spent), updateFields(row), r.seal, 'ledger update');
  return row;
}
