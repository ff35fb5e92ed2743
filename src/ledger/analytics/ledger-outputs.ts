import { OutputType } from '../../stardust/type-codes.js';
import type { LedgerOutput, Measurements } from './analytic.js';
import { RunningTotals } from './totals.js';

// analytics.ledger_outputs: the unspent outputs of each kind, their count and amount.

/** By output type, in inx-chronicle's order (an object keyed by number would list them by type). */
const KINDS = new Map<number, string>([
  [OutputType.Basic, 'basic'],
  [OutputType.Alias, 'alias'],
  [OutputType.Nft, 'nft'],
  [OutputType.Foundry, 'foundry'],
  [OutputType.Treasury, 'treasury'],
]);
const NAMES = [...KINDS.values()].flatMap((k) => [
  `analytics.ledger_outputs.${k}.count`,
  `analytics.ledger_outputs.${k}.amount.0`,
]);

export class LedgerOutputs extends RunningTotals {
  constructor(from?: Measurements) {
    super(NAMES, from);
  }

  protected count({ output }: LedgerOutput, sign: bigint): void {
    const kind = KINDS.get(output.type)!;
    this.totals.add(`analytics.ledger_outputs.${kind}.count`, sign);
    this.totals.add(`analytics.ledger_outputs.${kind}.amount.0`, sign * output.amount);
  }
}
