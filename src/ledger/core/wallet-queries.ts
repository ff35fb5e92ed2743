import { toHex, u32 } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import { decodeBlock } from '../../serialize.js';
import { transactionPayloadBytes } from '../../stardust/block.js';
import { outputIndexOf } from '../../stardust/ids.js';
import {
  OUTPUT_RECORD_HEADER,
  type OutputRecord,
  outputRecord,
  solidEntryPoints,
  UNSPENT,
} from '../../stardust/ledger-records.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { type SnapshotTreasuryOutput, snapshotTreasuryOutput } from '../../stardust/snapshot.js';
import { InputType, PayloadType } from '../../stardust/type-codes.js';
import { equalBytes } from '../../util/bytes.js';
import {
  appliedInSlot,
  checkedBlockRecord,
  checkedOutputRecord,
  checkedRecord,
  checkedValue,
  checkId,
  corrupt,
  keys,
  type LedgerBlock,
  LedgerError,
  type LedgerOutput,
  missingRecord,
  readRecord,
  type WhiteFlagVerdict,
  whiteFlagIn,
} from '../common/index.js';
import { type IndexPage, type IndexQuery, indexBuildProgress, queryIndex, storeIndexSource } from '../indexer/index.js';
import { holdsBlocksOf, isAppliedSlot, keepsWhiteFlag } from './applied-records.js';
import type { CommittedState } from './committed-state.js';
import type { LedgerState } from './state.js';

// What a wallet asks of a node beside the three queries of SPEC B4 (TIP-25: an output with its metadata, a block, the
// tips to attach a new block to), over the embedded store. Outputs are the committed ones, as hornet serves only
// outputs of confirmed milestones; blocks include those accepted into open slots (hornet knows unreferenced blocks).

const ZERO_BLOCK_ID = new Uint8Array(32);
/** hornet's tip selection gives up to 8 parents (iota.go BlockMaxParents). */
export const MAX_TIPS = 8;
/** How far back `tips` looks for a slot with blocks. */
const TIP_SLOTS = 64;

/** A committed output and its metadata. @throws LedgerError NOT_FOUND, STORE_CORRUPT */
export function outputWithMetadata(state: LedgerState, outputId: Uint8Array): LedgerOutput {
  checkId(outputId, 34, 'output ID');
  const { committed } = state;
  const located = committed.locateOutput(outputId);
  if (located === undefined) {
    committed.checkMissingOutput(outputId);
    throw new LedgerError('NOT_FOUND', `output not found: ${toHex(outputId)}`);
  }
  const record = readRecord(outputRecord, located.bytes, 'output');
  const txId = outputId.subarray(0, 32);
  const tx = committed.transactions.get(txId);
  // A ledger imported from snapshots holds a record for every output's transaction (the import writes one for each,
  // its genesis outputs' too): an output found without one had its record moved by a flipped key bit (found at the
  // genesis slot, where the lookup falls back), never an output of no block (issue 57, a new user's check).
  if (tx === undefined && committed.params.importedFrom !== undefined)
    throw missingRecord(`transaction ${toHex(txId)}`, keys.transaction(txId), 'it is missing, where its output is');
  const blockId = tx?.blockId ?? ZERO_BLOCK_ID;
  const answer: LedgerOutput = {
    outputId: outputId.slice(),
    output: located.bytes.slice(OUTPUT_RECORD_HEADER),
    blockId,
    createdSlot: located.slot,
    ledgerIndex: committed.meta.latestSlot,
    ...timeOf(state, 'createdAt', located.slot),
  };
  if (record.spentSlot === UNSPENT) return answer;
  const blocks = (function* () {
    for (const [key, stored] of committed.store.entries(keys.blocksOfSlot(record.spentSlot)))
      yield checkedBlockRecord(key, stored).bytes;
  })();
  // A milestone imported from a snapshot has no blocks: the import kept each spender.
  const whiteFlag = committed.store.get(keys.whiteFlag(record.spentSlot));
  if (whiteFlag === undefined && keepsWhiteFlag(committed, record.spentSlot))
    throw missingRecord(`white-flag record of milestone ${record.spentSlot}`, keys.whiteFlag(record.spentSlot));
  const applied = appliedInSlot(whiteFlag, record.spentSlot);
  const spender = spendingTransaction(blocks, outputId, applied) ?? keptSpender(committed, outputId);
  if (spender === undefined)
    throw corrupt(`the output ${toHex(outputId)}`, `no block of slot ${record.spentSlot}, which spent it, spends it`);
  return {
    ...answer,
    spent: { slot: record.spentSlot, transactionId: spender, ...timeOf(state, 'at', record.spentSlot) },
  };
}

/** The timestamp an imported milestone had (`{ [name]: seconds }`), or nothing: the slot's end then stands for it. */
function timeOf<K extends string>(state: LedgerState, name: K, slot: number): { [k in K]?: number } {
  const key = keys.milestoneTime(slot);
  const bytes = state.committed.store.get(key);
  if (bytes === undefined && isAppliedSlot(state.committed, slot))
    throw missingRecord(`time of milestone ${slot}`, key);
  return bytes === undefined
    ? {}
    : ({ [name]: checkedValue(u32, key, bytes, 'milestone time') } as { [k in K]?: number });
}

/**
 * The transaction among `blocks` (the bytes of the blocks of the slot that spent an output) that spends `outputId`,
 * and that white flag `applied`, or undefined. The ledger keeps no spender per output (a spent record would grow by
 * 32 bytes for an answer few ask for); a slot's blocks are searched for the ID's bytes instead (a native search), and
 * a block that holds them is decoded to confirm that one of its inputs is that output (the bytes could be in a tag or
 * metadata).
 */
export function spendingTransaction(
  blocks: Iterable<Uint8Array>,
  outputId: Uint8Array,
  applied: (blockBytes: Uint8Array) => boolean = () => true,
): Uint8Array | undefined {
  const needle = Buffer.from(outputId.buffer, outputId.byteOffset, outputId.length);
  const index = outputIndexOf(outputId);
  for (const bytes of blocks) {
    const payload = transactionPayloadBytes(bytes);
    if (payload === undefined) continue;
    if (Buffer.from(payload.buffer, payload.byteOffset, payload.length).indexOf(needle) < 0) continue;
    const block = decodeBlock(bytes);
    if (block.payload?.type !== PayloadType.Transaction) continue;
    const spends = block.payload.essence.inputs.some(
      (i) =>
        i.type === InputType.Utxo &&
        i.transactionOutputIndex === index &&
        equalBytes(i.transactionId, outputId.subarray(0, 32)),
    );
    // A conflicting transaction of the same milestone may name the output too (white flag refused it: already spent).
    if (spends && applied(bytes)) return blake2b256(payload);
  }
  return undefined;
}

/** A block by its ID: accepted into an open slot, or committed. @throws LedgerError NOT_FOUND, STORE_CORRUPT */
export function blockById(state: LedgerState, blockId: Uint8Array): LedgerBlock {
  checkId(blockId, 32, 'block ID');
  const pending = state.pending.block(blockId);
  if (pending !== undefined)
    return { blockId: blockId.slice(), bytes: pending.bytes.slice(), slot: pending.slot, committed: false };
  const { committed } = state;
  const slot = committed.blockSlot(blockId);
  const key = slot === undefined ? undefined : keys.block(slot, blockId);
  const record = key === undefined ? undefined : committed.store.get(key);
  if (slot === undefined) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(blockId)}`);
  if (record === undefined) throw missingBlock(committed, slot, blockId, key!);
  const { bytes } = checkedBlockRecord(key!, record);
  const id = blockId.slice();
  return {
    blockId: id,
    bytes,
    slot,
    committed: true,
    // Read when asked (the metadata route), not for the block's bytes: a milestone's record is all its cone's.
    get whiteFlag() {
      return whiteFlagOf(state, slot, id);
    },
  };
}

/**
 * What a block the index names (or a transaction's record) but the store lacks is: pruned with its slot, or a
 * snapshot's (NOT_FOUND), else damage — a flipped bit of its key moved the record where no read looks (issue 57).
 * Only on a miss.
 */
export function missingBlock(committed: CommittedState, slot: number, blockId: Uint8Array, key: Uint8Array) {
  return !holdsBlocksOf(committed, slot)
    ? new LedgerError('NOT_FOUND', `block not found: ${toHex(blockId)}`)
    : missingRecord(`block ${toHex(blockId)}`, key, `it is missing, where the index names slot ${slot}, not pruned`);
}

/** A block's verdict in the white-flag record of a real milestone's slot (history/); none in a slot without one. */
function whiteFlagOf(state: LedgerState, slot: number, blockId: Uint8Array): WhiteFlagVerdict | undefined {
  const key = keys.whiteFlag(slot);
  const bytes = state.committed.store.get(key);
  if (bytes === undefined && keepsWhiteFlag(state.committed, slot))
    throw missingRecord(`white-flag record of milestone ${slot}`, key);
  return bytes === undefined ? undefined : whiteFlagIn(bytes, slot, blockId);
}

/**
 * Whether the node knows a block: accepted into an open slot, committed and not pruned, or one of the solid entry
 * points of the latest imported milestone (the blocks a snapshot's ledger starts from). A block whose parents it does
 * not know is not solid (TIP-25's `isSolid`): hornet never attaches it.
 */
export function knowsBlock(state: LedgerState, blockId: Uint8Array): boolean {
  checkId(blockId, 32, 'block ID');
  if (state.pending.block(blockId) !== undefined || state.committed.blockSlot(blockId) !== undefined) return true;
  const { committed } = state;
  const key = keys.solidEntryPoints(committed.meta.latestSlot);
  const seps = committed.store.get(key);
  return (
    seps !== undefined &&
    checkedValue(solidEntryPoints, key, seps, 'solid entry points').some((id) => equalBytes(id, blockId))
  );
}

/**
 * Blocks a new block may take as parents: up to MAX_TIPS of the latest accepted ones (the open slots' newest), else
 * of the newest committed slot that has blocks. tangle-core keeps no tangle to select tips from: any known block is
 * a valid parent for it, and recent ones are what a real node would give. Empty when no recent slot has a block.
 */
export function tips(state: LedgerState): Uint8Array[] {
  const found: Uint8Array[] = state.pending.newestBlocks(MAX_TIPS).map((b) => b.blockId.slice());
  const { committed } = state;
  const latest = committed.meta.latestSlot;
  const oldest = Math.max(latest - TIP_SLOTS + 1, committed.meta.prunedUntil);
  for (let slot = latest; found.length === 0 && slot >= oldest; slot--)
    found.push(...blockIdsOfSlot(state, slot, MAX_TIPS));
  return found;
}

/** Up to `limit` IDs of a committed slot's blocks, in ID order (their keys' order). */
export function blockIdsOfSlot({ committed }: LedgerState, slot: number, limit: number): Uint8Array[] {
  const ids: Uint8Array[] = [];
  if (slot > committed.meta.latestSlot || limit <= 0) return ids;
  // Each record checked (a CRC of the value the scan reads anyway): its checksum covers its key, so a block moved
  // within its slot by a flipped bit of its ID is not listed under the ID it moved to.
  for (const [key, record] of committed.store.entries(keys.blocksOfSlot(slot))) {
    checkedBlockRecord(key, record);
    if (ids.push(key.slice(5)) >= limit) break;
  }
  // All of a committed, unpruned slot's blocks read: as many as the weight its commitment adds (a commit adds one a
  // block: commit-slot.ts), else one was moved by a flipped bit of its key (issue 57). Two commitments, kept in memory.
  if (ids.length < limit && slot >= committed.meta.prunedUntil && slot > committed.params.genesisSlot) {
    const [c, before] = [committed.commitment(slot), committed.commitment(slot - 1)];
    const weight = c && before && c.cumulativeWeight - before.cumulativeWeight;
    if (weight !== undefined && weight !== BigInt(ids.length))
      throw corrupt(
        `the stored blocks of slot ${slot} (key ${toHex(keys.blocksOfSlot(slot))})`,
        `${ids.length} found, where its commitment adds the weight of ${weight}`,
      );
  }
  return ids;
}

/**
 * The current output of a chain (committed state): an alias or NFT by its 32-byte id, a foundry by its 38-byte id.
 * Undefined once the chain is destroyed, or if it never existed. @throws LedgerError INVALID_ARGUMENT, STORE_CORRUPT
 */
export function chainOutput(
  { committed }: LedgerState,
  chainId: Uint8Array,
): { outputId: Uint8Array; record: OutputRecord } | undefined {
  checkId(chainId, chainId instanceof Uint8Array && chainId.length === 38 ? 38 : 32, 'chain ID');
  const outputId = committed.chainOutput(chainId);
  if (outputId === undefined) return undefined;
  const found = committed.output(outputId);
  if (found === undefined) throw new LedgerError('STORE_CORRUPT', `chain ${toHex(chainId)}: its output is missing`);
  return { outputId: outputId.slice(), record: found.record };
}

/** Every unspent output of the committed state, by creating slot, then output ID. */
export function* unspentOutputs({ committed }: LedgerState): Iterable<[Uint8Array, OutputRecord]> {
  for (const [k, v] of committed.store.entries(Uint8Array.of(keys.tables.output))) {
    const record = readRecord(outputRecord, checkedOutputRecord(k, v), 'output');
    if (record.spentSlot === UNSPENT) yield [k.subarray(5), record]; // key: table, u32 slot, output ID
  }
}

/** The treasury output an imported ledger keeps; a ledger without one has none: 0, from no milestone. */
export function treasury(state: LedgerState): SnapshotTreasuryOutput {
  const bytes = state.committed.store.get(keys.treasury);
  if (bytes === undefined) return { milestoneId: new Uint8Array(32), amount: 0n };
  return checkedValue(snapshotTreasuryOutput, keys.treasury, bytes, 'treasury output');
}

/** TIP-26: a page of the indexer's query over the committed store. @throws LedgerError INDEXER_DISABLED */
export function indexedOutputs(
  committed: CommittedState,
  params: ProtocolParameters,
  query: IndexQuery,
): Promise<IndexPage> {
  return queryIndex(
    storeIndexSource(committed.store, () => committed.meta.latestSlot),
    params,
    query,
  );
}

/** How far the output index's build has come; undefined when none runs. */
export const indexBuild = (committed: CommittedState) => indexBuildProgress(committed.store);

/** The spender an imported milestone kept for `outputId` (sealed, store layout 7), if it kept one. */
function keptSpender(committed: CommittedState, outputId: Uint8Array): Uint8Array | undefined {
  const key = keys.spentBy(outputId);
  const kept = committed.store.get(key);
  return kept && checkedRecord(key, kept, 'spender an imported milestone kept');
}
