import { outputId, transactionId } from '../../model/ids.js';
import { PayloadType } from '../../model/type-codes.js';
import { decodeBlock, decodeOutput } from '../../serialize.js';
import { ActiveAddresses } from './active-addresses.js';
import type { Analytic, AnalyticsContext, ConeBlock, LedgerOutput, Measurements } from './analytic.js';
import { BaseTokens } from './base-tokens.js';
import { BlockActivity } from './block-activity.js';
import { MilestoneSize } from './milestone-size.js';
import { OutputActivity } from './output-activity.js';
import { TransactionSize } from './transaction-size.js';

// The analytics that depend on one milestone alone (its cone and the transactions it applied), as inx-chronicle
// updates them (its Milestone::update_analytics): each block in white-flag order, and before a block whose
// transaction was applied, that transaction with the outputs it consumed and created.

/** The analytics of one milestone, in the order their names are listed. */
export const milestoneAnalytics = (): Analytic[] => [
  new ActiveAddresses(),
  new BaseTokens(),
  new OutputActivity(),
  new TransactionSize(),
  new BlockActivity(),
  new MilestoneSize(),
];

export interface MilestoneCone {
  ctx: AnalyticsContext;
  /** The cone's blocks in white-flag order, each with its verdict. */
  blocks: readonly { bytes: Uint8Array; inclusion: ConeBlock['inclusion'] }[];
  /** An output an applied transaction consumed (the ledger keeps it after its spend): its bytes. */
  consumed(outputId: Uint8Array): Uint8Array;
}

/** Measures one milestone with fresh analytics. */
export function measureMilestone(cone: MilestoneCone): Measurements {
  const analytics = milestoneAnalytics();
  for (const { bytes, inclusion } of cone.blocks) {
    const block = decodeBlock(bytes);
    const p = block.payload;
    if (inclusion === 'included' && p?.type === PayloadType.Transaction) {
      const consumed = p.essence.inputs.map((i): LedgerOutput => {
        const id = outputId(i.transactionId, i.transactionOutputIndex);
        return { outputId: id, output: decodeOutput(cone.consumed(id)) };
      });
      const txId = transactionId(p);
      const created = p.essence.outputs.map((output, i): LedgerOutput => ({ outputId: outputId(txId, i), output }));
      for (const a of analytics) a.transaction?.({ consumed, created }, cone.ctx);
    }
    for (const a of analytics) a.block?.({ bytes, block, inclusion }, cone.ctx);
  }
  return Object.assign({}, ...analytics.map((a) => a.take(cone.ctx)));
}
