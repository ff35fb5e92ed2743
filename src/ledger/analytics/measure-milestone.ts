import { decodeBlock, decodeOutput } from '../../serialize.js';
import { payloadTypeOf } from '../../stardust/block.js';
import { outputId, transactionId } from '../../stardust/ids.js';
import type { TransactionPayload } from '../../stardust/payload/transaction.js';
import { PayloadType } from '../../stardust/type-codes.js';
import { ActiveAddresses } from './active-addresses.js';
import { AddressBalances, type BalanceBook } from './address-balances.js';
import type { Analytic, AnalyticsContext, ConeBlock, LedgerOutput, Measurements } from './analytic.js';
import { BaseTokens } from './base-tokens.js';
import { BlockActivity } from './block-activity.js';
import { LedgerOutputs } from './ledger-outputs.js';
import { LedgerSize } from './ledger-size.js';
import { MilestoneSize } from './milestone-size.js';
import { OutputActivity } from './output-activity.js';
import { TransactionSize } from './transaction-size.js';
import { UnclaimedTokens } from './unclaimed-tokens.js';
import { UnlockConditions } from './unlock-conditions.js';

// The analytics that depend on one milestone alone (its cone and the transactions it applied), as inx-chronicle
// updates them (its Milestone::update_analytics): each block in white-flag order, and before a block whose
// transaction was applied, that transaction with the outputs it consumed and created.

/**
 * The analytics of a milestone, in the order their names are listed: the ledger's totals going on from `previous`
 * (the measurement of the milestone before), then those of the milestone alone.
 */
export const milestoneAnalytics = (previous?: Measurements, book?: BalanceBook): Analytic[] => [
  new LedgerOutputs(previous),
  new LedgerSize(previous),
  new UnclaimedTokens(previous),
  new UnlockConditions(previous),
  new ActiveAddresses(),
  new BaseTokens(),
  new OutputActivity(),
  new TransactionSize(),
  new BlockActivity(),
  new MilestoneSize(),
  // The addresses' totals need their balances before the milestone: a book's, or none at all from zero.
  ...(book !== undefined || previous === undefined ? [new AddressBalances(previous, book)] : []),
];

export interface MilestoneCone {
  ctx: AnalyticsContext;
  /** The cone's blocks in white-flag order, each with its verdict. */
  /** (`transaction`: the block's transaction as the ledger decoded it, so it is not decoded again here.) */
  blocks: readonly {
    bytes: Uint8Array;
    inclusion: ConeBlock['inclusion'];
    transaction?: TransactionPayload | undefined;
  }[];
  /** An output an applied transaction consumed (the ledger keeps it after its spend): its bytes, its booking. */
  consumed(outputId: Uint8Array): { bytes: Uint8Array; booked: number };
  /** The measurement of the milestone before, whose ledger totals this one's go on from (none: from zero). */
  previous?: Measurements;
  /** The balances before the milestone (none: the address analytics are not measured, unless from zero). */
  book?: BalanceBook;
  /** Analytics of the caller's that see the same blocks and transactions (the archive's records: ledger/archive/). */
  more?: readonly Analytic[];
}

/** Measures one milestone. */
export function measureMilestone(cone: MilestoneCone): Measurements {
  const analytics = [...milestoneAnalytics(cone.previous, cone.book), ...(cone.more ?? [])];
  for (const { bytes, inclusion, transaction } of cone.blocks) {
    const payloadType = payloadTypeOf(bytes);
    if (inclusion === 'included' && payloadType === PayloadType.Transaction) {
      const p = transaction ?? (decodeBlock(bytes).payload as TransactionPayload);
      const consumed = p.essence.inputs.map((i): LedgerOutput => {
        const id = outputId(i.transactionId, i.transactionOutputIndex);
        const { bytes, booked } = cone.consumed(id);
        return { outputId: id, output: decodeOutput(bytes), booked };
      });
      const txId = transactionId(p);
      const created = p.essence.outputs.map((output, i): LedgerOutput => ({ outputId: outputId(txId, i), output }));
      for (const a of analytics) a.transaction?.({ consumed, created }, cone.ctx);
    }
    for (const a of analytics) a.block?.({ bytes, payloadType, inclusion }, cone.ctx);
  }
  return Object.assign({}, ...analytics.map((a) => a.take(cone.ctx)));
}

/**
 * The ledger's totals over its unspent outputs (each with its booking): where a ledger's first measured milestone
 * goes on from (a ledger imported from a snapshot, or one whose earlier milestones were applied unmeasured).
 */
export function ledgerTotals(unspent: Iterable<LedgerOutput>, ctx: AnalyticsContext): Measurements {
  const created = [new LedgerOutputs(), new LedgerSize(), new UnlockConditions()];
  const unclaimed = new UnclaimedTokens();
  const balances = new AddressBalances();
  for (const o of unspent) {
    for (const a of created) a.transaction({ consumed: [], created: [o] }, ctx);
    unclaimed.holds(o);
    balances.holds(o);
  }
  return Object.assign({}, ...[...created, unclaimed].map((a) => a.take()), balances.take(ctx));
}
