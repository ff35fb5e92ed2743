import { toHex } from '../../codec/index.js';
import { blockToJson } from '../../serialize.js';
import type { Block } from '../../stardust/block.js';
import { LIVE } from '../../stardust/ledger-records.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import {
  AddressType,
  EssenceType,
  InputType,
  OutputType,
  PayloadType,
  SignatureType,
  UnlockConditionType,
  UnlockType,
} from '../../stardust/type-codes.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import {
  COMMITMENT_ID_LENGTH,
  type Congestion,
  checkId,
  commitmentId,
  diffBounds,
  type IncludedBlock,
  keys,
  LedgerError,
  missingRecord,
  readDiff,
  type SlotCommitment,
  slotOfCommitmentId,
  storedBlockModel,
  type UtxoChanges,
  workScore,
} from '../common/index.js';
import type { LedgerState } from './state.js';

// The three queries of SPEC B4, over the committed state and (for included blocks and readiness) the pending one.

const ZERO_32 = new Uint8Array(32);
const ZERO_36 = new Uint8Array(36);

/** 4.1: the block that applied a transaction (accepted or committed). @throws LedgerError NOT_FOUND */
export function includedBlock(state: LedgerState, txId: Uint8Array): IncludedBlock {
  checkId(txId, 32, 'transaction ID');
  const found = state.includingBlock(txId);
  if (found === undefined) throw new LedgerError('NOT_FOUND', `output for transaction not found: ${toHex(txId)}`);
  if (found.bytes === undefined) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(found.blockId)}`);
  // A committed block's record was checked as it was read (state.ts): its checksum stands for hashing it again.
  const block: Block = storedBlockModel(found.bytes, found.blockId);
  return { blockId: found.blockId, slot: found.slot, bytes: found.bytes, json: blockToJson(block) };
}

/** 4.2: the UTXO changes of a committed slot. @throws LedgerError BEFORE_GENESIS, NOT_FOUND */
export function utxoChanges({ committed }: LedgerState, slot: number): UtxoChanges {
  const { params, meta } = committed;
  if (slot < params.genesisSlot)
    throw new LedgerError('BEFORE_GENESIS', `slot ${slot} is before genesis slot ${params.genesisSlot}`);
  if (slot > meta.latestSlot)
    throw new LedgerError('NOT_FOUND', `commitment is from a future slot (${slot} > ${meta.latestSlot})`);
  // Every slot from genesis to the latest has its commitment (the chain names each), and from prunedUntil on its
  // diff: missing, a flipped bit of its key moved it (issue 57), not a 404.
  const c = committed.commitment(slot);
  if (c === undefined)
    throw missingRecord(`commitment of slot ${slot}`, keys.commitment(slot), 'it is missing, where the chain names it');
  const bytes = committed.store.get(keys.diff(slot));
  if (bytes === undefined && slot >= meta.prunedUntil)
    throw missingRecord(`UTXO changes of slot ${slot}`, keys.diff(slot), 'it is missing, where its slot is committed');
  if (bytes === undefined) throw new LedgerError('NOT_FOUND', `slot diffs not found, slot: ${slot}`);
  const diff = readDiff(bytes, slot, ...diffBounds(params));
  return {
    commitmentId: commitmentId(c),
    createdOutputs: diff.created,
    consumedOutputs: diff.consumed,
    consumedCreatedSlots: diff.consumedSlots,
  };
}

export interface CongestionQuery {
  workScore?: number;
  commitmentId?: Uint8Array;
}

/**
 * What the congestion answer is made of, read from one committed state: the embedded store reads them in place, the
 * PostgreSQL reader fetches them in one statement. One decision (`congestionOf`) for both: same answers, same errors.
 */
export interface CongestionFacts {
  params: ProtocolParameters;
  latestSlot: number;
  latest: SlotCommitment;
  /** The stored commitment of a committed slot (undefined: pruned, or not stored). */
  commitment(slot: number): SlotCommitment | undefined;
  /** The account's credits as of `slot`; undefined when it was not an account then (not yet, or destroyed). */
  creditsAt(slot: number): bigint | undefined;
  /** The account's credits now; undefined when it is not a live account now. */
  creditsNow(): bigint | undefined;
  /** What its blocks in uncommitted slots will burn at this RMC (none for a reader of committed state only). */
  pendingCost(rmc: bigint): bigint;
}

/**
 * 4.3: an account's congestion as of a commitment (default the latest). `ready`: the account can pay, at the latest
 * RMC, for a block of `workScore` (default a minimal signed transaction block) on top of its blocks in uncommitted
 * slots, without going negative. The caller checks the sync rule and the account id first.
 * @throws LedgerError NOT_FOUND, BEFORE_GENESIS, COMMITMENT_MISMATCH, OUTSIDE_HISTORY, INVALID_ARGUMENT
 */
export function congestionOf(
  facts: CongestionFacts,
  accountId: Uint8Array,
  options: CongestionQuery,
  defaultWork: () => number,
): Congestion {
  const { params, latestSlot } = facts;
  const { slot, commitment } = commitmentFor(facts, options.commitmentId);
  if (slot + params.maxCommittableAge < latestSlot) {
    throw new LedgerError(
      'OUTSIDE_HISTORY',
      `can't calculate account, target slot index older than allowed ` +
        `(${slot}<${latestSlot}-${params.maxCommittableAge})`,
    );
  }
  const credits = facts.creditsAt(slot);
  if (credits === undefined) throw new LedgerError('NOT_FOUND', `account ${toHex(accountId)} not found`);
  const work = options.workScore ?? defaultWork();
  if (!Number.isInteger(work) || work < 0 || work > 0xffffffff)
    throw new LedgerError('INVALID_ARGUMENT', 'workScore must be a uint32');
  const rmcNow = facts.latest.referenceManaCost;
  const now = facts.creditsNow();
  const ready = now !== undefined && now - facts.pendingCost(rmcNow) >= BigInt(work) * rmcNow;
  return { slot, ready, referenceManaCost: commitment.referenceManaCost, blockIssuanceCredits: credits };
}

/** 4.3 over the embedded store: the facts read in place from the committed state and the pending one. */
export function congestion(
  state: LedgerState,
  accountId: Uint8Array,
  options: CongestionQuery,
  defaultWork: () => number,
): Congestion {
  checkId(accountId, 32, 'account ID');
  const { committed } = state;
  const record = committed.accounts.get(bytesKey(accountId));
  const facts: CongestionFacts = {
    params: committed.params,
    latestSlot: committed.meta.latestSlot,
    latest: committed.latest,
    commitment: (slot) => committed.commitment(slot),
    creditsAt(slot) {
      if (record === undefined || record.createdSlot > slot || record.destroyedSlot <= slot) return undefined;
      return record.history.filter((e) => e.slot <= slot).at(-1)?.blockIssuanceCredits;
    },
    creditsNow: () => (record?.destroyedSlot === LIVE ? record.blockIssuanceCredits : undefined),
    pendingCost: (rmc) => state.pendingCost(accountId, rmc),
  };
  return congestionOf(facts, accountId, options, defaultWork);
}

/** The commitment a query names (all zeros or none: the latest), checked against the store. */
function commitmentFor(
  facts: CongestionFacts,
  wanted: Uint8Array | undefined,
): { slot: number; commitment: SlotCommitment } {
  const { params, latestSlot } = facts;
  if (wanted === undefined || equalBytes(wanted, ZERO_36)) return { slot: latestSlot, commitment: facts.latest };
  checkId(wanted, COMMITMENT_ID_LENGTH, 'commitment ID');
  const slot = slotOfCommitmentId(wanted);
  if (slot > latestSlot)
    throw new LedgerError('NOT_FOUND', `commitment is from a future slot (${slot} > ${latestSlot})`);
  if (slot < params.genesisSlot)
    throw new LedgerError('BEFORE_GENESIS', `slot ${slot} is before genesis slot ${params.genesisSlot}`);
  const stored = facts.commitment(slot);
  if (stored === undefined) throw new LedgerError('NOT_FOUND', `commitment not found, slot: ${slot}`);
  if (!equalBytes(commitmentId(stored), wanted)) {
    throw new LedgerError(
      'COMMITMENT_MISMATCH',
      `commitment in the store for slot ${slot} does not match the given commitmentID ` +
        `(${toHex(commitmentId(stored))} != ${toHex(wanted)})`,
    );
  }
  return { slot, commitment: stored };
}

/** Work score of a block with one parent and a transaction of one input, one output and one signature. */
export function minimalTransactionWorkScore(params: ProtocolParameters): number {
  const address = { type: AddressType.Ed25519, pubKeyHash: ZERO_32 };
  const block: Block = {
    protocolVersion: params.protocolVersion,
    parents: [ZERO_32],
    payload: {
      type: PayloadType.Transaction,
      essence: {
        type: EssenceType.Regular,
        networkId: params.networkId,
        inputs: [{ type: InputType.Utxo, transactionId: ZERO_32, transactionOutputIndex: 0 }],
        inputsCommitment: ZERO_32,
        outputs: [
          {
            type: OutputType.Basic,
            amount: 1n,
            nativeTokens: [],
            unlockConditions: [{ type: UnlockConditionType.Address, address }],
            features: [],
          },
        ],
      },
      unlocks: [
        {
          type: UnlockType.Signature,
          signature: { type: SignatureType.Ed25519, publicKey: ZERO_32, signature: new Uint8Array(64) },
        },
      ],
    },
    nonce: 0n,
  };
  return Number(workScore(block, params));
}
