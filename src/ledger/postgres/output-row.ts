import { toHex } from '../../codec/index.js';
import { outputIndexOf } from '../../stardust/ids.js';
import type { TransactionPayload } from '../../stardust/payload/transaction.js';
import {
  appliedInSlot,
  checkedOutputRow,
  corrupt,
  LedgerError,
  type LedgerOutput,
  storedBlockModel,
} from '../common/index.js';
import { spendingTransaction } from '../core/index.js';
import { checkedBlockRow } from './block-rows.js';
import { bytesOf, spentOf } from './client.js';
import { checkedTime } from './milestone-times.js';
import { lostBlock, missingTime } from './missing-rows.js';

// An output as the API answers it, from its row of schema.ts's `output` query; and, for an output the database holds
// no row of, whether one should be there.

type Row = Record<string, unknown>;

/** The output in `r`, checked (its checksum, its spender). @throws LedgerError STORE_CORRUPT */
export function outputOfRow(outputId: Uint8Array, r: Row): LedgerOutput {
  // A slot that must have a milestone's row (missing-rows.ts) and has none lost it: never an answer without its time.
  if (r.created_at === null && r.created_presumed === true) throw missingTime(Number(r.created_slot));
  if (r.spent_at === null && r.spent_presumed === true) throw missingTime(Number(r.spent_slot));
  // Created in an applied milestone's slot, by a transaction a block of it included: its block's row is kept.
  if (r.block_id === null && r.created_applied === true) throw lostBlock(undefined, Number(r.created_slot));
  const answer: LedgerOutput = {
    outputId: outputId.slice(),
    output: checkedOutputRow(outputId, Number(r.created_slot), bytesOf(r.raw), r.checksum as never, spentOf(r)),
    blockId: r.block_id === null ? new Uint8Array(32) : bytesOf(r.block_id),
    createdSlot: Number(r.created_slot),
    // Each time is checked with its row's ID against the row's seal (milestone-times.ts); no row: no time.
    ...(r.created_at === null
      ? {}
      : { createdAt: checkedTime(Number(r.created_slot), r.created_at, r.created_id, r.created_seal) }),
    ledgerIndex: Number(r.latest_slot),
  };
  if (r.spent_slot === null) return answer;
  // A milestone imported from a snapshot has no blocks: the import kept each spender.
  const spender =
    r.spent_by === null
      ? spendingTransaction(
          ((r.spenders ?? []) as unknown[]).map(bytesOf),
          outputId,
          appliedInSlot(r.spent_white_flag == null ? undefined : bytesOf(r.spent_white_flag), Number(r.spent_slot)),
        )
      : bytesOf(r.spent_by);
  if (spender === undefined)
    throw corrupt(`the output ${toHex(outputId)}`, `no block of slot ${r.spent_slot}, which spent it, spends it`);
  const at = r.spent_at === null ? {} : { at: checkedTime(Number(r.spent_slot), r.spent_at, r.spent_id, r.spent_seal) };
  return { ...answer, spent: { slot: Number(r.spent_slot), transactionId: spender, ...at } };
}

/**
 * Why the database holds no row of an output, given the row of its transaction's block (schema.ts `includedBlock`):
 * STORE_CORRUPT where that block is stored and created it (a block's bytes are kept until its slot is pruned, and
 * an output is deleted only once its spending slot, never before its creating one, is pruned: so the row was lost,
 * or its `output_id` changed); else NOT_FOUND. A genesis output (no block) or one whose block is pruned is not told
 * from one never made.
 */
export function missingOutput(outputId: Uint8Array, block: Row | undefined): LedgerError {
  const notFound = new LedgerError('NOT_FOUND', `output not found: ${toHex(outputId)}`);
  if (block === undefined || block.raw === null) return notFound;
  const blockId = bytesOf(block.block_id);
  // The row was found by the transaction's ID, which its checksum covers: its payload is the transaction.
  const txId = outputId.subarray(0, 32);
  const payload = storedBlockModel(checkedBlockRow(blockId, block, txId), blockId).payload;
  const created = (payload as TransactionPayload).essence.outputs.length;
  const index = outputIndexOf(outputId);
  if (index >= created) return notFound;
  return corrupt(
    `the output ${toHex(outputId)}`,
    `block ${toHex(blockId)} of slot ${block.slot} created it, the database holds no row of it`,
  );
}
