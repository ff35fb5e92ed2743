import { toHex } from '../../codec/hex.js';
import { whiteFlagRecord } from '../../model/ledger-records.js';
import { equalBytes } from '../../util/bytes.js';
import { LedgerError } from './errors.js';
import { readRecord } from './integrity.js';
import { checkedRecord } from './record-checks.js';
import { keys } from './store-keys.js';
import type { WhiteFlagVerdict } from './types.js';

/**
 * The entries of the white-flag record of a real milestone's slot (history/) as the embedded store and the PostgreSQL
 * store both keep it: sealed under its key (common/record-checks.ts), checked before it is read (issue 57).
 * @throws LedgerError STORE_CORRUPT: the record does not match its seal, or does not decode
 */
export function checkedWhiteFlag(stored: Uint8Array, slot: number) {
  const what = `white-flag record of milestone ${slot}`;
  return readRecord(whiteFlagRecord, checkedRecord(keys.whiteFlag(slot), stored, what), what);
}

/**
 * A block's verdict in the white-flag record of its slot (stored, sealed: checkedWhiteFlag).
 * @throws LedgerError STORE_CORRUPT: the record does not match its seal, does not decode, or lacks the block
 */
export function whiteFlagIn(stored: Uint8Array, slot: number, blockId: Uint8Array): WhiteFlagVerdict {
  const entries = checkedWhiteFlag(stored, slot);
  const index = entries.findIndex((e) => equalBytes(e.blockId, blockId));
  if (index < 0) throw new LedgerError('STORE_CORRUPT', `slot ${slot}: block ${toHex(blockId)} is not in its cone`);
  const { inclusion, conflict, milestoneIndex } = entries[index]!;
  return { index, inclusion, conflict, milestoneIndex };
}
