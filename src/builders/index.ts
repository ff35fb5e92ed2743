// Building and signing Stardust transactions, blocks and milestones. A new builder: a file here, exported below.
export {
  type BuildBlockOptions,
  type BuildTransactionInput,
  type BuildTransactionOptions,
  buildBlock,
  buildTransaction,
  signTransaction,
} from './builder.js';
export {
  aliasAddressOf,
  type HeldOutput,
  newAlias,
  newFoundry,
  newNft,
  nextAlias,
  nextFoundry,
  nextNft,
  nftAddressOf,
  withMinimumDeposit,
} from './chains.js';
export { type BuildMilestoneOptions, buildMilestone } from './milestone.js';
