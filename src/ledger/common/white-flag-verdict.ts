import { toHex } from '../../codec/hex.js';
import { whiteFlagRecord } from '../../model/ledger-records.js';
import { equalBytes } from '../../util/bytes.js';
import { LedgerError } from './errors.js';
import { readRecord } from './integrity.js';
import type { WhiteFlagVerdict } from './types.js';

/**
 * A block's verdict in the white-flag record of its slot (a real milestone's, history/), as the embedded store and the
 * PostgreSQL store both keep it. @throws LedgerError STORE_CORRUPT: the record does not decode, or lacks the block
 */
export function whiteFlagIn(record: Uint8Array, slot: number, blockId: Uint8Array): WhiteFlagVerdict {
  const entries = readRecord(whiteFlagRecord, record, 'white-flag record');
  const index = entries.findIndex((e) => equalBytes(e.blockId, blockId));
  if (index < 0) throw new LedgerError('STORE_CORRUPT', `slot ${slot}: block ${toHex(blockId)} is not in its cone`);
  const { inclusion, conflict, milestoneIndex } = entries[index]!;
  return { index, inclusion, conflict, milestoneIndex };
}
