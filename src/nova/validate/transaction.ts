import { assertModel, encode } from '../../codec/index.js';
import { blake2b256 } from '../../crypto/index.js';
import { networkIdFromName } from '../../stardust/ids.js';
import { bytesKey, compareBytes } from '../../util/bytes.js';
import type { ContextInput } from '../input.js';
import type { ProtocolParameters } from '../protocol-parameters.js';
import {
  type SignedTransactionPayload,
  signedTransactionPayload,
  type Transaction,
  transaction as transactionCodec,
} from '../transaction.js';
import { ContextInputType, UnlockType } from '../type-codes.js';
import { type Unlock, unlock as unlockCodec } from '../unlock.js';
import { fail } from './fail.js';
import { checkBitmask, checkOutputs } from './outputs.js';

// TIP-45's syntactic rules of a signed transaction (iota.go v4 signed_transaction.go, transaction*.go, input*.go,
// unlock.go): what a node checks before it looks at the ledger. Each broken rule is a ValidationError with its code
// and the path of the field, the first one found in wire order.

/** The six capabilities of TIP-45: burn native tokens, burn mana, destroy accounts, anchors, foundries, NFTs. */
const TRANSACTION_CAPABILITIES = 6;
const MAX_OUTPUT_INDEX = 127;

/** Context inputs in type order, then by account or index; one commitment at most, needed by the others. */
function contextKey(c: ContextInput): [number, string | number] {
  if (c.type === ContextInputType.Commitment) return [c.type, 0];
  if (c.type === ContextInputType.BlockIssuanceCredit) return [c.type, bytesKey(c.accountId)];
  return [c.type, c.index];
}

function checkContextInputs(tx: Transaction): void {
  let hasCommitment = false;
  tx.contextInputs.forEach((c, i) => {
    const at = `transaction.contextInputs[${i}]`;
    if (i > 0) {
      const [t0, k0] = contextKey(tx.contextInputs[i - 1]!);
      const [t1, k1] = contextKey(c);
      if (t1 < t0 || (t1 === t0 && k1 <= k0)) fail('CONTEXT_INPUTS_NOT_SORTED', 'not in order, or repeated', at);
    }
    if (c.type === ContextInputType.Commitment) hasCommitment = true;
    else if (!hasCommitment) fail('COMMITMENT_INPUT_MISSING', 'this context input needs a commitment input', at);
    if (c.type === ContextInputType.Reward && c.index >= tx.inputs.length) {
      fail('REWARD_INPUT_INDEX_OUT_OF_RANGE', `no input ${c.index}`, `${at}.index`);
    }
  });
}

function checkTransaction(params: ProtocolParameters, tx: Transaction): void {
  checkBitmask(tx.capabilities, TRANSACTION_CAPABILITIES, 'transaction.capabilities');
  const network = networkIdFromName(params.networkName);
  if (tx.networkId !== network) fail('NETWORK_ID_MISMATCH', `expected ${network}`, 'transaction.networkId');
  const seen = new Set<string>();
  tx.inputs.forEach((input, i) => {
    const at = `transaction.inputs[${i}]`;
    const key = `${bytesKey(input.transactionId)}/${input.transactionOutputIndex}`;
    if (seen.has(key)) fail('INPUTS_NOT_UNIQUE', 'this output is spent twice', at);
    seen.add(key);
    if (input.transactionOutputIndex > MAX_OUTPUT_INDEX) {
      fail('INPUT_INDEX_OUT_OF_RANGE', `an output index is 0..${MAX_OUTPUT_INDEX}`, `${at}.transactionOutputIndex`);
    }
  });
  checkContextInputs(tx);
  const maxMana = (1n << BigInt(params.manaParameters.bitsCount)) - 1n;
  let allotted = 0n;
  tx.allotments.forEach((a, i) => {
    const at = `transaction.allotments[${i}]`;
    if (i > 0 && compareBytes(tx.allotments[i - 1]!.accountId, a.accountId) >= 0) {
      fail('ALLOTMENTS_NOT_SORTED', 'not in ascending account order, each account once', at);
    }
    allotted += a.mana;
    if (allotted > maxMana) fail('MANA_OUT_OF_RANGE', `more than ${maxMana} mana allotted`, `${at}.mana`);
  });
  const hasCommitment = tx.contextInputs.some((c) => c.type === ContextInputType.Commitment);
  checkOutputs(params, tx.outputs, hasCommitment, 'transaction.outputs');
}

/** A signer's identity: the hash of its public key (iota.go's SignerUID). */
const signer = (u: Unlock & { type: UnlockType.Signature }) => bytesKey(blake2b256(u.signature.publicKey));

function checkUnlocks(unlocks: readonly Unlock[]): void {
  const signers = new Set<string>();
  /** Keys that signed inside a multi unlock: a later signature unlock may not repeat them (two multis may). */
  const innerSigners = new Set<string>();
  const signatureAt = new Set<number>();
  const multiAt = new Set<number>();
  const referenceAt = new Set<number>();
  const multis = new Set<string>();
  /** A reference may point at a signature or multi unlock, or chain through a chainable one (not a reference). */
  const checkReference = (u: Unlock & { reference: number }, at: string, inMulti: boolean) => {
    if (referenceAt.has(u.reference)) {
      if (u.type === UnlockType.Reference) fail('REFERENCE_UNLOCK_INVALID', 'a reference unlock cannot chain', at);
      return;
    }
    if (!signatureAt.has(u.reference) && (inMulti || !multiAt.has(u.reference))) {
      fail('REFERENCE_UNLOCK_INVALID', `unlock ${u.reference} is not an earlier signature unlock`, `${at}.reference`);
    }
  };
  unlocks.forEach((u, i) => {
    const at = `unlocks[${i}]`;
    switch (u.type) {
      case UnlockType.Signature: {
        const who = signer(u);
        if (signers.has(who) || innerSigners.has(who))
          fail('SIGNATURE_UNLOCK_DUPLICATE', 'this key has already signed', at);
        signers.add(who);
        signatureAt.add(i);
        return;
      }
      case UnlockType.Empty:
        return fail('EMPTY_UNLOCK_OUTSIDE_MULTI', 'an empty unlock belongs in a multi unlock', at);
      case UnlockType.Multi: {
        const key = bytesKey(encode(unlockCodec, u));
        if (multis.has(key)) fail('MULTI_UNLOCK_DUPLICATE', 'the same multi unlock twice', at);
        multis.add(key);
        u.unlocks.forEach((inner, k) => {
          if (inner.type === UnlockType.Signature) {
            const who = signer(inner);
            if (signers.has(who))
              fail('SIGNATURE_UNLOCK_DUPLICATE', 'this key has already signed', `${at}.unlocks[${k}]`);
            innerSigners.add(who);
          } else if (inner.type !== UnlockType.Empty) {
            checkReference(inner, `${at}.unlocks[${k}]`, true);
          }
        });
        multiAt.add(i);
        return;
      }
      default:
        checkReference(u, at, false);
        referenceAt.add(i);
    }
  });
}

/**
 * Every syntactic rule of a transaction alone (TIP-45 and the output TIPs), paths from `transaction`: what iota-sdk's
 * verifyTransactionSyntax checks. @throws ValidationError, CodecError (a malformed model)
 */
export function validateTransaction(params: ProtocolParameters, tx: Transaction): void {
  assertModel(tx, 'Transaction');
  encode(transactionCodec, tx);
  checkTransaction(params, tx);
}

/**
 * Every syntactic rule of a signed transaction: the transaction's, one unlock per input, and the unlocks' own (unique
 * signers, references back to a signature, empty unlocks only in a multi unlock).
 * @throws ValidationError (the first broken rule, with its path), CodecError (a malformed model)
 */
export function validateSignedTransaction(params: ProtocolParameters, payload: SignedTransactionPayload): void {
  assertModel(payload, 'SignedTransactionPayload');
  encode(signedTransactionPayload, payload);
  if (payload.unlocks.length !== payload.transaction.inputs.length) {
    fail(
      'UNLOCK_COUNT_MISMATCH',
      `${payload.unlocks.length} unlocks for ${payload.transaction.inputs.length} inputs`,
      'unlocks',
    );
  }
  checkTransaction(params, payload.transaction);
  checkUnlocks(payload.unlocks);
}
