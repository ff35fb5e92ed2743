import { toHex } from '../codec/hex.js';
import { decode } from '../codec/index.js';
import { verifyEd25519 } from '../crypto/ed25519.js';
import { blake2b256 } from '../crypto/hash.js';
import { payloadBytes } from '../model/block-layout.js';
import { inputs, transactionEssence } from '../model/essence.js';
import { blockId as computeBlockId, outputId as makeOutputId } from '../model/ids.js';
import { type Output, output as outputCodec } from '../model/output.js';
import type { TransactionPayload } from '../model/payload/transaction.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { PayloadType } from '../model/type-codes.js';
import { decodeBlock } from '../serialize.js';
import { bytesKey, equalBytes } from '../util/bytes.js';
import { ValidationError } from '../validate/errors.js';
import { verifyMilestoneSignatures } from '../validate/milestone.js';
import { checkSemantics } from '../validate/semantic.js';
import { validateDecodedBlock } from '../validate/syntactic.js';
import { checkId, checkWriteSlot } from './arguments.js';
import { type CommittedState, readRecord } from './committed-state.js';
import { slotStartTime, workScore } from './congestion.js';
import { LedgerError } from './errors.js';
import type { PendingBlock, PendingState, PendingTransaction } from './pending.js';
import { type Precheck, precheckedVerifier } from './precheck.js';
import { keys, LIVE, OUTPUT_RECORD_HEADER, outputRecord, UNSPENT } from './records.js';
import type { AcceptOptions, AcceptResult } from './types.js';

// Accepting a block into a slot not yet committed: strict decode, syntactic validation with proof of work, and for a
// transaction semantic validation against the UTXO set (committed, then pending), at the slot's start time. Nothing
// is recorded until every check has passed, so a refused block changes nothing.

export interface AcceptContext {
  readonly committed: CommittedState;
  readonly pending: PendingState;
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

/** Whether an account exists at `slot`, counting creations and destructions accepted for slots up to it. */
export function accountLiveAt(ctx: AcceptContext, accountId: Uint8Array, slot: number): boolean {
  const record = ctx.committed.accounts.get(bytesKey(accountId));
  return ctx.pending.liveAt(accountId, slot, record !== undefined && record.destroyedSlot === LIVE);
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
  const { committed, pending, params } = ctx;
  if (!(bytes instanceof Uint8Array)) throw new LedgerError('INVALID_ARGUMENT', 'block bytes must be a Uint8Array');
  const { slot, issuerId } = options ?? ({} as AcceptOptions);
  checkUncommitted(committed, slot);
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
  // Only blocks without a transaction have a block index entry; a committed transaction block is found through its
  // transaction (checkTransaction), so for one the store is not asked here.
  const indexed =
    block.payload?.type !== PayloadType.Transaction && committed.store.get(keys.blockIndex(id)) !== undefined;
  if (pending.blocks.has(blockKey) || indexed) {
    throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(id)} is known already`);
  }
  if (issuerId !== undefined) {
    if (!accountLiveAt(ctx, issuerId, slot))
      throw new LedgerError('ISSUER_NOT_FOUND', `issuer account ${toHex(issuerId)} does not exist`);
    const record = committed.accounts.get(bytesKey(issuerId));
    if (record !== undefined && record.blockIssuanceCredits < 0n) {
      throw new LedgerError('ISSUER_LOCKED', `issuer account ${toHex(issuerId)} has negative block issuance credits`);
    }
  }

  const payload = payloadBytes(own); // the payload's bytes as received (a transaction's: from its u32 type on)
  const entry: PendingBlock = {
    blockId: id,
    blockKey,
    bytes: own,
    slot,
    issuerId: issuerId?.slice(),
    workScore: workScore(block, params, payload?.length),
    tx: undefined,
  };
  if (block.payload?.type === PayloadType.Transaction) {
    // The payload's own bytes, as received: its ID and signing hash need no re-encoding.
    entry.tx = checkTransaction(ctx, block.payload, entry, payload!, pre?.precheck);
  }
  pending.addBlock(entry); // everything checked: record it
  // Copies: the entry's IDs are what the commit writes, and the caller may change what it is given.
  return { blockId: id.slice(), transactionId: entry.tx?.id.slice(), workScore: entry.workScore };
}

/** The transaction's checks against the ledger; what its pending block keeps of it. */
function checkTransaction(
  ctx: AcceptContext,
  tx: TransactionPayload,
  entry: PendingBlock,
  payloadBytes: Uint8Array,
  pre: Precheck | undefined,
): PendingTransaction {
  const { committed, pending, params } = ctx;
  const txId = pre?.transactionId ?? blake2b256(payloadBytes);
  const txKey = bytesKey(txId);
  const refuseApplied = (applied: Uint8Array | undefined): void => {
    if (applied === undefined) return;
    // A committed transaction block is found through its transaction (it has no block index entry).
    if (equalBytes(applied, entry.blockId))
      throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(entry.blockId)} is known already`);
    throw new LedgerError('TRANSACTION_ALREADY_APPLIED', `transaction ${toHex(txId)} was applied by an earlier block`);
  };
  refuseApplied(pending.transactions.get(txKey)?.blockId);
  // A transaction a committed block applied spent every one of its inputs (or they were pruned since), so its first
  // input fails: the store's transaction index, a random read into a table as large as the ledger's history, is asked
  // only then, before that input's error is thrown. The refusal is the same; a new transaction skips the read.
  const inputError = (error: LedgerError): LedgerError => {
    refuseApplied(committed.transaction(txId)?.blockId);
    return error;
  };
  const own = entry.bytes;
  const pendingTx: PendingTransaction = {
    id: txId,
    key: txKey,
    inputsAt: [],
    outputsAt: createdOutputs(tx, payloadBytes.byteOffset - own.byteOffset),
    consumedKeys: [],
    storedInputs: [],
  };
  // The consumed outputs as models (for the rules) and as bytes for the inputs commitment: stored ones as they
  // are in the store, pending ones as their block carries them.
  const commitmentInputs: Uint8Array[] = [];
  // The creating slot of the last committed transaction looked up: inputs that spend several outputs of one earlier
  // transaction (change, consolidation) read its record once.
  let lastKey: string | undefined;
  let lastSlot = 0;
  const consumedOutputs = tx.essence.inputs.map((input, i) => {
    // validateDecodedBlock refused indices above 127 already, so outputId's argument checks hold.
    const oid = makeOutputId(input.transactionId, input.transactionOutputIndex);
    const ok = bytesKey(oid);
    const creator = bytesKey(input.transactionId);
    const created = pending.createdOutput(creator, input.transactionOutputIndex, entry.slot);
    let output: Output;
    if (created !== undefined) {
      output = decode(outputCodec, created); // bytes of an accepted block: they decode
      commitmentInputs.push(created);
      pendingTx.storedInputs.push(undefined);
    } else {
      if (creator !== lastKey) {
        lastSlot = committed.creatingSlot(oid, creator);
        lastKey = creator;
      }
      const located = committed.outputAt(lastSlot, oid);
      if (located === undefined)
        throw inputError(
          new LedgerError('INPUT_NOT_FOUND', `input ${i}: output ${toHex(oid)} does not exist (by slot ${entry.slot})`),
        );
      const record = readRecord(outputRecord, located.bytes, 'output');
      if (record.spentSlot !== UNSPENT) {
        throw inputError(
          new LedgerError(
            'INPUT_ALREADY_SPENT',
            `input ${i}: output ${toHex(oid)} was spent in slot ${record.spentSlot}`,
          ),
        );
      }
      output = record.output;
      commitmentInputs.push(located.bytes.subarray(OUTPUT_RECORD_HEADER));
      pendingTx.storedInputs.push({ slot: located.slot, bytes: located.bytes });
    }
    if (pending.spent.has(ok))
      throw inputError(
        new LedgerError('INPUT_ALREADY_SPENT', `input ${i}: output ${toHex(oid)} is spent by an accepted block`),
      );
    // The decoder's byte fields are views of the block's bytes: the spent output's ID (transaction ID, then the
    // index as u16) is where the input's transaction ID starts.
    pendingTx.inputsAt.push(input.transactionId.byteOffset - own.byteOffset);
    pendingTx.consumedKeys.push(ok);
    return output;
  });
  const signingHash =
    pre?.signingHash ?? blake2b256(payloadBytes.subarray(4, 4 + transactionEssence.sizeOf(tx.essence)));
  const context = { consumedOutputs, params, time: slotStartTime(entry.slot, params) };
  const verify = pre === undefined ? verifyEd25519 : precheckedVerifier(pre, tx);
  checkSemantics(tx, context, signingHash, commitmentInputs, verify);
  return pendingTx;
}

/**
 * Where each output the transaction creates starts in its block's bytes, then where the last ends (`payloadAt`: where
 * the payload starts in them). The strict decoder took these bytes, so they are each output's one encoding. The
 * essence's layout is fixed up to its outputs: payload type (u32), essence type (u8), network ID (u64), the inputs
 * (u16 count), the inputs commitment (32), the outputs' count (u16).
 */
function createdOutputs(tx: TransactionPayload, payloadAt: number): number[] {
  const { essence } = tx;
  let at = payloadAt + 4 + 1 + 8 + inputs.sizeOf(essence.inputs) + 32 + 2;
  const offsets = [at];
  for (const o of essence.outputs) {
    at += outputCodec.sizeOf(o);
    offsets.push(at);
  }
  return offsets;
}
