// The archive of a network's history (issue 46): what inx-chronicle's explorer answers — balances, ledger updates by
// address and by milestone, the richest addresses, a milestone's cone — kept as each milestone is applied and written
// in its commit. The room's public face.
// To add an archive record: its table in common/store-keys.ts, a writer here whose records history/measure.ts adds
// to the milestone's commit (sealed: sealRecord), and a reader that checks each one (checkedRecord) before use.

export { type AccountAt, type AccountHistory, StoreAccounts } from './account-history.js';
export {
  type AccountState,
  accountBalance,
  accountStateRecord,
  emptyAccount,
  holdsAnything,
} from './account-state.js';
export { AccountsWriter, accountStateAt } from './accounts-writer.js';
export {
  ARCHIVE_BASE_BATCH,
  type ArchiveBase,
  archiveBaseOf,
  buildArchiveBase,
  wholeArchive,
} from './archive-base.js';
export { archiveRowsOf } from './archive-rows.js';
export { ArchiveWriter, addressBytes } from './archive-writer.js';
export type {
  Balance,
  ConeEntry,
  Explorer,
  LedgerUpdateOfAddress,
  LedgerUpdateOfMilestone,
  RichAddress,
  UpdateCursor,
} from './explorer.js';
export { richestFirst } from './explorer.js';
export { HOLDING_KIND, holdsSome, type Irc27Names, nftOf, tokenAmount } from './holding-values.js';
export { atMilestone, HoldingsWriter, holdingAt } from './holdings.js';
export { type HoldingsHistory, type MemberAt, StoreHoldings } from './holdings-history.js';
export { balanceAt, holdingOf, ownerPart, returnPart } from './output-balance.js';
export { resealRecords, SEALED_TABLES } from './reseal.js';
export {
  accountAmount,
  changedAddresses,
  checkpointList,
  keepsRichest,
  RICHEST_EVERY,
  RICHEST_KEPT,
  richestCheckpoint,
  richestFrom,
} from './richest-checkpoint.js';
export type { ArchiveRows, BalanceChange, HeldRow, UpdateRow } from './rows.js';
export { type AppliedChecks, StoreExplorer } from './store-explorer.js';
