import { toHex } from '../../codec/index.js';
import { LedgerError, type LedgerOutput } from '../common/index.js';
import { lostBlock } from './missing-rows.js';
import { missingOutput, outputOfRow } from './output-row.js';
import { QUERIES } from './schema.js';

// What the reader does when its statement finds no row where the database may have lost one: it asks a second
// statement whether the row should be there (missing-rows.ts), and before it calls the row lost, asks the first again.
// Each statement sees the database as it is when it runs; a standby replaying the primary, or a writer's commit, moves
// on between two of them, so a row that came in between is not a lost row (a wallet asking a standby for a
// transaction just included saw a 500 so).

type Ask = (text: string, values: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * An output the reader's statement found no row of (and no index entry): not found, or damage where its block is
 * there and created it — unless its slot was committed between the two statements (each sees the database as it is
 * then: a standby, or a writer's commit, moves on between them), so it is asked for again before it is called lost.
 */
export async function outputOnMiss(ask: Ask, outputId: Uint8Array): Promise<LedgerOutput> {
  const missing = missingOutput(outputId, (await ask(QUERIES.includedBlock, [outputId.subarray(0, 32)])).rows[0]);
  if (missing.code === 'NOT_FOUND') throw missing;
  const again = (await ask(QUERIES.output, [outputId])).rows[0]!;
  if (again.raw === null) throw missing;
  return outputOfRow(outputId, again);
}

/**
 * The included block of a transaction the reader's statement found no row of. A genesis transaction, or an imported
 * ledger's whose block the snapshot did not name: the embedded store keeps its record, with 32 zero bytes as its
 * block, and answers that the block is not found. Booked in an applied milestone's slot: a block of it included the
 * transaction, and its row is lost — unless the slot was committed between the statements (each sees the database as
 * it is then: a standby, or a writer's commit, moves on between them), so it is asked for again first.
 */
export async function includedOnMiss(ask: Ask, txId: Uint8Array) {
  const booked = (await ask(QUERIES.outputsOf, [txId])).rows[0];
  if (booked?.applied === true) {
    const again = (await ask(QUERIES.includedBlock, [txId])).rows[0];
    if (again === undefined) throw lostBlock(undefined, Number(booked.created_slot));
    return again;
  }
  if (booked?.booked === true) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(new Uint8Array(32))}`);
  throw new LedgerError('NOT_FOUND', `output for transaction not found: ${toHex(txId)}`);
}
