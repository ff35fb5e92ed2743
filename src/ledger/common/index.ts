// What every room of the ledger stands on: its errors and argument checks, the keys records are stored under and
// the checks of what the store hands back, slot commitments, congestion arithmetic, and the shapes of its answers.
// The room's public face: the other rooms of the ledger, and the rest of src/, import only this file.
// To add a record kind: its table in store-keys.ts, sealed at write (sealRecord) and read through checkedRecord
// (record-checks.ts); a change to what a store already holds is a layout step in core/upgrade.ts.

export { checkId, checkSlot, checkWriteSlot } from './arguments.js';
export {
  BLOCK_RECORD_HEADER,
  blockRecord,
  blockRecordSize,
  checkedBlockRecord,
  type StoredBlock,
  storedBlockModel,
  writeBlockRecord,
} from './block-record.js';
export { bookingTime } from './booking-time.js';
export { nextReferenceManaCost, slotAt, slotEnd, slotStartTime, workScore } from './congestion.js';
export {
  ACCOUNT_FILL_COMMAND,
  LedgerError,
  type LedgerErrorCode,
  type LedgerErrorKind,
  UPGRADE_COMMAND,
} from './errors.js';
export {
  checkedOutputRecord,
  checkedOutputRow,
  checkUtxoChanges,
  corrupt,
  diffBounds,
  encodeDiff,
  readDiff,
  readRecord,
  rowChecksum,
  type StoredDiff,
  sealOutputRecord,
  sealPackedOutputRecord,
  spentMark,
} from './integrity.js';
export { OutputIdList } from './output-id-list.js';
export {
  checkedEntry,
  checkedMilestone,
  checkedRecord,
  checkedValue,
  checkRow,
  entrySeal,
  missingRecord,
  type RowField,
  rowSeal,
  SEAL,
  sealedValue,
  sealRecord,
} from './record-checks.js';
export {
  COMMITMENT_ID_LENGTH,
  commitmentId,
  rootsId,
  type SlotCommitment,
  slotCommitment,
  slotOfCommitmentId,
  sortedRoot,
} from './slot-commitment.js';
export { keys, keysInto, slotOfKey } from './store-keys.js';
export {
  checkedRecent,
  checkedTransaction,
  checkedTransactionSlot,
  sealedRecent,
  sealedTransaction,
} from './transaction-records.js';
export type {
  AcceptOptions,
  AcceptOutcome,
  AcceptResult,
  CommittedSlot,
  Congestion,
  GenesisState,
  IncludedBlock,
  IndexBuildOptions,
  LedgerBlock,
  LedgerListener,
  LedgerOutput,
  OpenLedgerOptions,
  StoreInfo,
  UtxoChanges,
  WhiteFlagVerdict,
} from './types.js';
export { appliedInSlot, checkedWhiteFlag, whiteFlagIn } from './white-flag-verdict.js';
