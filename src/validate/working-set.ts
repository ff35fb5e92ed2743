import type { Output } from '../stardust/output.js';
import type { TransactionPayload } from '../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { type InputChains, inputChains } from './chains.js';
import { ValidationError } from './errors.js';

// What the semantic rules of one transaction read, built once before the first of them runs (as iota.go's
// vm.WorkingSet): the transaction, the outputs it consumes, its signing hash, the time it is judged at, the chains
// among its inputs; and what the rules find out as they go (the addresses it unlocks). Each rule (semantic.ts) is a
// function of it.

/** The outputs a transaction consumes, the parameters and the time its rules are judged at. */
export interface TransactionContext {
  /** The outputs the inputs consume, in input order (models as stored by the ledger). */
  consumedOutputs: readonly Output[];
  params: ProtocolParameters;
  /** Unix time in seconds against which timelocks and expirations are judged. */
  time: number;
}

export interface WorkingSet extends TransactionContext {
  readonly tx: TransactionPayload;
  /** The consumed outputs in any form `inputsCommitment` takes (the ledger passes their bytes: no re-encoding). */
  readonly committed: readonly (Output | Uint8Array)[];
  /** BLAKE2b-256 of the essence: what the signatures sign. */
  readonly signingHash: Uint8Array;
  /** TIP-18: the NFTs, aliases and foundries among the inputs. */
  readonly chains: InputChains;
  /** The addresses unlocked so far (`addressKey`s): the unlock rule adds them, senders and issuers need them. */
  readonly unlocked: Set<string>;
}

/** @throws ValidationError CONSUMED_OUTPUTS_MISMATCH when there is not one consumed output per input */
export function workingSet(
  tx: TransactionPayload,
  context: TransactionContext,
  signingHash: Uint8Array,
  committed: readonly (Output | Uint8Array)[] = context.consumedOutputs,
): WorkingSet {
  const { inputs } = tx.essence;
  const { consumedOutputs } = context;
  if (consumedOutputs.length !== inputs.length) {
    throw new ValidationError(
      'CONSUMED_OUTPUTS_MISMATCH',
      `${inputs.length} input(s) but ${consumedOutputs.length} consumed output(s)`,
      { path: 'essence.inputs' },
    );
  }
  return {
    consumedOutputs,
    params: context.params,
    time: context.time,
    tx,
    committed,
    signingHash,
    chains: inputChains(consumedOutputs, inputs),
    unlocked: new Set(),
  };
}
