import type { Output } from '../../stardust/output.js';
import type { RentStructure } from '../../stardust/protocol-parameters.js';

// The shape every analytic has (inx-chronicle's, src/analytics/): a handler for each block of a milestone's cone in
// white-flag order, one for each transaction the milestone applied, and the measurement taken at the milestone's end.
// Each analytic is a small type of its own file; measure-milestone.ts runs them all over one milestone.

/** A measurement's values by inx-chronicle's names: counts as numbers, token amounts as bigints. */
export type Measurements = Record<string, number | bigint>;

/** Whether a name is of a token amount (inx-chronicle's TokenAmount names end in `.0`; one is a plain amount). */
export const isAmount = (name: string): boolean => name.endsWith('.0') || name.endsWith('_amount');

/** What every handler may ask: the milestone being measured. */
export interface AnalyticsContext {
  index: number;
  /** The milestone's time, unix seconds: when its transactions spend and book. */
  timestamp: number;
  /** The network's rent structure (storage deposits). */
  rent: RentStructure;
  /** The network's token supply (the token distribution's buckets go up to its power of ten); none: up to 2^64. */
  tokenSupply?: bigint;
}

/** A block of the cone, with white flag's verdict (TIP-25's ledgerInclusionState). */
export interface ConeBlock {
  bytes: Uint8Array;
  /** Its payload's type (read from its bytes: a block is decoded only for a transaction to measure). */
  payloadType: number | undefined;
  inclusion: 'included' | 'conflicting' | 'noTransaction';
}

/** An output and its ID; a consumed one with the milestone that booked it. */
export interface LedgerOutput {
  outputId: Uint8Array;
  output: Output;
  booked?: number;
}

/** A transaction the milestone applied: the outputs it consumed (in input order) and those it created. */
export interface AppliedTransaction {
  consumed: LedgerOutput[];
  created: LedgerOutput[];
}

export interface Analytic {
  block?(b: ConeBlock, ctx: AnalyticsContext): void;
  transaction?(t: AppliedTransaction, ctx: AnalyticsContext): void;
  /**
   * The measurement at the milestone's end: of what was handled since the last one taken (a milestone's activity),
   * or the running totals (the ledger's outputs and sizes), which go on from there.
   */
  take(ctx: AnalyticsContext): Measurements;
}
