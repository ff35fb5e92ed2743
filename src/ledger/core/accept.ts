import { decode, toHex } from '../../codec/index.js';
import { blake2b256, verifyEd25519 } from '../../crypto/index.js';
import { decodeBlock } from '../../serialize.js';
import { payloadBytes } from '../../stardust/block.js';
import { blockId as computeBlockId } from '../../stardust/ids.js';
import { type Output, output as outputCodec } from '../../stardust/output.js';
import type { MilestonePayload } from '../../stardust/payload/milestone.js';
import { type TransactionPayload, transactionLayout } from '../../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { PayloadType } from '../../stardust/type-codes.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import {
  checkSemantics,
  ValidationError,
  validateDecodedBlock,
  verifyMilestoneSignatures,
  workingSet,
} from '../../validate/index.js';
import {
  type AcceptOptions,
  type AcceptResult,
  checkId,
  checkWriteSlot,
  LedgerError,
  readRecord,
  slotStartTime,
  workScore,
} from '../common/index.js';
import { type Precheck, precheckedVerifier } from '../ingest/index.js';
import type { CommittedState } from './committed-state.js';
import { Conflict, ConflictReason, semanticConflict } from './conflict-reason.js';
import { PendingBlock, PendingTransaction } from './pending.js';
import type { LedgerState } from './state.js';

// Accepting a block into a slot not yet committed: strict decode, syntactic validation with proof of work, and for a
// transaction semantic validation against the ledger's state as of its slot (state.ts), at the slot's start time, over
// a working set built once (validate/working-set.ts). Nothing is recorded until every check has passed, so a refused
// block changes nothing.

export interface AcceptContext {
  readonly state: LedgerState;
  readonly params: ProtocolParameters;
}

/** A slot that blocks and account events may still name. */
export function checkUncommitted(committed: CommittedState, slot: unknown): asserts slot is number {
  checkWriteSlot(slot);
  if (slot <= committed.meta.latestSlot) {
    throw new LedgerError(
      'SLOT_ALREADY_COMMITTED',
      `slot ${slot} is committed already (latest ${committed.meta.latestSlot})`,
    );
  }
}

/** A block's own copy of its bytes with what worker threads found out about them (`Ledger.precheck`). */
export interface Prechecked {
  own: Uint8Array;
  precheck: Precheck;
}

/**
 * @throws CodecError, ValidationError, LedgerError. With `pre` (for these very bytes), the checks it holds are not
 * done again.
 */
export function acceptBlock(
  ctx: AcceptContext,
  bytes: Uint8Array,
  options: AcceptOptions,
  pre?: Prechecked,
): AcceptResult {
  const { state, params } = ctx;
  if (!(bytes instanceof Uint8Array)) throw new LedgerError('INVALID_ARGUMENT', 'block bytes must be a Uint8Array');
  const { slot, issuerId } = options ?? ({} as AcceptOptions);
  checkUncommitted(state.committed, slot);
  if (issuerId !== undefined) checkId(issuerId, 32, 'issuer ID');

  // Own copy: the models decoded from it stay valid whatever the caller does with its buffer.
  const own = pre?.own ?? bytes.slice();
  const block = decodeBlock(own);
  if (pre === undefined) validateDecodedBlock(block, own, params); // syntactic rules (the transaction's too), PoW
  if (pre === undefined && block.payload?.type === PayloadType.Milestone) {
    // Anyone can write a milestone; only its signatures against the network's milestone keys make it one. It goes
    // into its slot like any block (work, commitment) and changes no output.
    const keys = params.milestoneKeys;
    if (keys === undefined) {
      throw new LedgerError(
        'MILESTONE_NOT_ACCEPTED',
        `milestone blocks are not accepted: no milestone keys are configured for ${params.networkName}`,
      );
    }
    try {
      verifyMilestoneSignatures(block.payload, keys.keyRanges, keys.threshold);
    } catch (e) {
      throw e instanceof ValidationError ? e.prefix('payload') : e;
    }
  }
  const id = pre?.precheck.blockId ?? computeBlockId(own);
  const blockKey = bytesKey(id);
  const txPayload = block.payload?.type === PayloadType.Transaction ? block.payload : undefined;
  if (state.knowsBlock(id, blockKey, txPayload !== undefined))
    throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(id)} is known already`);
  if (issuerId !== undefined) {
    if (!state.accountLiveAt(issuerId, slot))
      throw new LedgerError('ISSUER_NOT_FOUND', `issuer account ${toHex(issuerId)} does not exist`);
    const credits = state.committedCredits(issuerId);
    if (credits !== undefined && credits < 0n) {
      throw new LedgerError('ISSUER_LOCKED', `issuer account ${toHex(issuerId)} has negative block issuance credits`);
    }
  }

  const payload = payloadBytes(own); // the payload's bytes as received (a transaction's: from its u32 type on)
  // The payload's own bytes, as received: its ID and signing hash need no re-encoding.
  const tx =
    txPayload === undefined
      ? undefined
      : checkTransaction(ctx, txPayload, own, id, slot, payload!, pre?.precheck, slotStartTime(slot, params));
  const entry = new PendingBlock(id, own, slot, issuerId?.slice(), workScore(block, params, payload?.length), tx);
  state.pending.addBlock(entry); // everything checked: record it
  // Copies: the entry's IDs are what the commit writes, and the caller may change what it is given.
  return { blockId: id.slice(), transactionId: tx?.id.slice(), workScore: entry.workScore };
}

/** The transaction's checks against the ledger, as of `slot`; what its pending block keeps of it. */
function checkTransaction(
  ctx: AcceptContext,
  payload: TransactionPayload,
  blockBytes: Uint8Array,
  blockId: Uint8Array,
  slot: number,
  payloadBytes: Uint8Array,
  pre: Precheck | undefined,
  time: number,
  referenced = false,
): PendingTransaction {
  const { state, params } = ctx;
  const txId = pre?.transactionId ?? blake2b256(payloadBytes);
  const payloadAt = payloadBytes.byteOffset - blockBytes.byteOffset;
  const layout = transactionLayout(payload, payloadAt);
  const tx = new PendingTransaction(txId, blockBytes, layout);
  // A transaction applied already (by a pending or a committed block) spent every one of its inputs, or they were
  // pruned since, so its first input fails: only then is the transaction looked up (for a committed one, a random
  // read into a table as large as the ledger's history), before that input's error is thrown. The refusal is the
  // same; a new transaction skips the read.
  const inputError = (error: LedgerError, reason: number): LedgerError | Conflict => {
    // White flag asks why the input fails (hornet's reason), not whether the transaction is known.
    if (referenced) return new Conflict(reason, error);
    const applied = state.transaction(txId);
    if (applied === undefined) return error;
    // A committed transaction block is found through its transaction (it has no block index entry).
    if (equalBytes(applied.blockId, blockId))
      return new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(blockId)} is known already`);
    return new LedgerError('TRANSACTION_ALREADY_APPLIED', `transaction ${toHex(txId)} was applied by an earlier block`);
  };

  // The consumed outputs as models (for the rules) and as bytes for the inputs commitment, as the state has them.
  const ids: Uint8Array[] = [];
  for (let i = 0; i < tx.inputCount; i++) ids.push(tx.consumedId(i));
  const found = state.outputs(ids, tx.consumedKeys, slot);
  const consumedBytes: Uint8Array[] = [];
  const consumedOutputs: Output[] = [];
  for (let i = 0; i < found.length; i++) {
    const o = found[i];
    if (o === undefined)
      throw inputError(
        new LedgerError('INPUT_NOT_FOUND', `input ${i}: output ${toHex(ids[i]!)} does not exist (by slot ${slot})`),
        ConflictReason.InputNotFound,
      );
    if (o.spentSlot !== undefined) {
      const by = o.spentPending ? 'is spent by an accepted block' : `was spent in slot ${o.spentSlot}`;
      throw inputError(
        new LedgerError('INPUT_ALREADY_SPENT', `input ${i}: output ${toHex(ids[i]!)} ${by}`),
        o.spentPending ? ConflictReason.InputSpentInThisMilestone : ConflictReason.InputAlreadySpent,
      );
    }
    consumedBytes.push(o.output);
    tx.storedInputs.push(o.stored);
    // A stored output's bytes decode (else the store is damaged); a pending one's came in an accepted block.
    consumedOutputs.push(
      o.stored === undefined ? decode(outputCodec, o.output) : readRecord(outputCodec, o.output, 'output'),
    );
  }
  const signingHash = pre?.signingHash ?? blake2b256(blockBytes.subarray(layout.essence.start, layout.essence.end));
  try {
    const ws = workingSet(payload, { consumedOutputs, params, time }, signingHash, consumedBytes);
    checkSemantics(ws, pre === undefined ? verifyEd25519 : precheckedVerifier(pre, payload));
  } catch (e) {
    throw referenced && e instanceof ValidationError ? semanticConflict(e) : e;
  }
  return tx;
}

/** What white flag decided of a block a milestone references (`acceptReferenced`). */
export interface ReferencedOutcome {
  /** Whether it carries a transaction. */
  transaction: boolean;
  /** Why its transaction was not applied (the block is kept all the same); undefined if applied or none. */
  conflict: Conflict | undefined;
  /** The milestone it carries, if it carries one signed by the network's keys. */
  milestone: MilestonePayload | undefined;
  /** Its transaction as decoded here, so that what measures the milestone does not decode the block again. */
  transactionPayload: TransactionPayload | undefined;
}

/**
 * @internal A block a milestone references (history/), into `slot`, whose ID the caller computed: decoded and checked
 * like any block (syntax, proof of work); its transaction checked against the ledger as it stands, the milestone's
 * earlier blocks applied, at `time` (the milestone's). A transaction that fails is not refused: the block is kept
 * without it and the failure returned (TIP-2: a conflicting block is referenced, its transaction not applied). With
 * `pre` (worker threads' checks of these very bytes) they are not done again. The ledger keeps `bytes`. A block a
 * coordinator took out of its slot (takeOpenSlot) keeps the issuer it was accepted with: that account pays for it.
 * @throws CodecError, ValidationError (the block itself is malformed), LedgerError
 */
export function acceptReferenced(
  ctx: AcceptContext,
  bytes: Uint8Array,
  id: Uint8Array,
  slot: number,
  time: number,
  pre?: Precheck,
): ReferencedOutcome {
  const { state, params } = ctx;
  checkUncommitted(state.committed, slot);
  const block = decodeBlock(bytes);
  if (pre === undefined) validateDecodedBlock(block, bytes, params);
  const p = block.payload;
  if (state.knowsBlock(id, bytesKey(id), p?.type === PayloadType.Transaction))
    throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(id)} is known already`);
  const payload = payloadBytes(bytes);
  let tx: PendingTransaction | undefined;
  let conflict: Conflict | undefined;
  if (p?.type === PayloadType.Transaction) {
    try {
      tx = checkTransaction(ctx, p, bytes, id, slot, payload!, pre, time, true);
    } catch (e) {
      if (!(e instanceof Conflict)) throw e;
      conflict = e;
    }
  }
  const issuerId = state.pending.issuerOfTaken(bytes);
  state.pending.addBlock(new PendingBlock(id, bytes, slot, issuerId, workScore(block, params, payload?.length), tx));
  const keys = params.milestoneKeys;
  let milestone: MilestonePayload | undefined;
  if (p?.type === PayloadType.Milestone && keys !== undefined) {
    try {
      // A precheck is made only of a block whose milestone's signatures verified.
      if (pre === undefined) verifyMilestoneSignatures(p, keys.keyRanges, keys.threshold);
      milestone = p;
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e; // a milestone not signed as it must be is a plain block here
    }
  }
  const transactionPayload = p?.type === PayloadType.Transaction ? p : undefined;
  return { transaction: transactionPayload !== undefined, conflict, milestone, transactionPayload };
}
