import { checkRow, keys } from '../common/index.js';
import { bytesOf } from './client.js';

// The rows of the archive that hold values, not records (archive-schema.ts): a ledger update's and an address
// balance's, each sealed by the writer (write-archive.ts) with common/record-checks.ts rowSeal under the key the
// embedded store gives the record, and checked by every read (postgres-explorer.ts) against the values it read.

export type BalanceRow = { address: Uint8Array; amount: bigint; plain: bigint; outputs: number; returns: number };

/** The values of a ledger update's row its seal covers, beside its key (archive-schema.ts UPDATE_VALUES). */
export const updateFields = (r: { address: Uint8Array; owner: Uint8Array; amount: bigint; time: number }) => [
  r.address,
  r.owner,
  r.amount,
  r.time,
];

/** The values of a balance's row its seal covers, beside its key. */
export const balanceFields = (r: BalanceRow) => [r.amount, r.plain, r.outputs, r.returns];

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
  checkRow(keys.addressBalance(address), balanceFields(row), r.seal, 'address balance');
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
