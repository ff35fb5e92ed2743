// Stardust's rules: syntactic (one block alone) and semantic (a transaction against the outputs it spends, in hornet's
// order), their error codes and the storage deposit. A new rule: see CONTRIBUTING.md; its names exported below.

export { inputChainId } from './chains.js';
export { ValidationError, type ValidationErrorCode } from './errors.js';
export { type MilestoneKeyRange, validateMilestonePayload, verifyMilestoneSignatures } from './milestone.js';
export { checkSemantics, type TransactionContext, unlockAddress, validateTransaction } from './semantic.js';
export { minStorageDeposit, minStorageDepositReturn } from './storage-deposit.js';
export {
  type ValidateBlockOptions,
  validateBlock,
  validateDecodedBlock,
  validateOutput,
  validateTransactionPayload,
  validateUnlocks,
} from './syntactic.js';
export { workingSet } from './working-set.js';
