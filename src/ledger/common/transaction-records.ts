import {
  type RecentTransaction,
  recentTransactions,
  type TransactionRecord,
  transactionRecord,
  transactionRecordSlot,
} from '../../stardust/ledger-records.js';
import { readRecord } from './integrity.js';
import { checkedRecord, checkedValue, sealedValue } from './record-checks.js';

// The transaction index's records (core/transaction-index.ts) are sealed as the others are (record-checks.ts, store
// layout 6, issue 57): a transaction's record names its block, which an output's metadata serves as its `blockId`, and
// a slot's recent record names the block of each transaction it applied. A flipped bit there answered 200 with another
// block, or 404 for a block that exists; now it is STORE_CORRUPT naming the record's key.

/** A transaction's record as stored under `key` (keys.transaction): sealed. */
export const sealedTransaction = (key: Uint8Array, record: TransactionRecord): Uint8Array =>
  sealedValue(transactionRecord, key, record);

/** A stored transaction record, checked against its key. @throws LedgerError STORE_CORRUPT naming its key */
export const checkedTransaction = (key: Uint8Array, stored: Uint8Array): TransactionRecord =>
  checkedValue(transactionRecord, key, stored, 'transaction record');

/**
 * The slot of a stored transaction record, checked against its key, read without decoding the rest.
 * @throws LedgerError STORE_CORRUPT naming its key
 */
export function checkedTransactionSlot(key: Uint8Array, stored: Uint8Array): number {
  const record = checkedRecord(key, stored, 'transaction record');
  return transactionRecordSlot(record) ?? readRecord(transactionRecord, record, 'transaction record').slot;
}

/** A slot's recent transactions as stored under `key` (keys.recent): sealed. */
export const sealedRecent = (key: Uint8Array, transactions: readonly RecentTransaction[]): Uint8Array =>
  sealedValue(recentTransactions, key, transactions as RecentTransaction[]);

/** A slot's stored recent transactions, checked against its key. @throws LedgerError STORE_CORRUPT naming its key */
export const checkedRecent = (key: Uint8Array, stored: Uint8Array): RecentTransaction[] =>
  checkedValue(recentTransactions, key, stored, 'recent transactions');
