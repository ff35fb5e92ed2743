import { toHex } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import { InclusionState, whiteFlagRecord } from '../../stardust/ledger-records.js';
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

/**
 * Whether white flag applied the transaction of a block of `slot` (given its bytes), by the slot's white-flag record
 * (`stored`, sealed). Two transactions of one milestone may spend one output: the spender is the one applied, not the
 * conflicting one beside it. A slot with no record (a slot tangle-core committed itself) holds no refused
 * transaction. The record is read once, when first asked. @throws LedgerError STORE_CORRUPT
 */
export function appliedInSlot(stored: Uint8Array | undefined, slot: number): (blockBytes: Uint8Array) => boolean {
  if (stored === undefined) return () => true;
  let entries: ReturnType<typeof checkedWhiteFlag> | undefined;
  return (bytes) => {
    entries ??= checkedWhiteFlag(stored, slot);
    const blockId = blake2b256(bytes);
    const entry = entries.find((e) => equalBytes(e.blockId, blockId));
    if (entry === undefined)
      throw new LedgerError('STORE_CORRUPT', `slot ${slot}: block ${toHex(blockId)} is not in its cone`);
    return entry.inclusion === InclusionState.Included;
  };
}
