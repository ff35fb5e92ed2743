import type { Block, BlockBody } from './block.js';
import type { Feature } from './feature.js';
import { type Output, output } from './output.js';
import { type Payload, payload as payloadCodec } from './payload.js';
import type { ProtocolParameters, StorageScoreParameters, WorkScoreParameters } from './protocol-parameters.js';
import type { Transaction } from './transaction.js';
import {
  AddressType,
  BlockBodyType,
  FeatureType,
  OutputType,
  PayloadType,
  UnlockConditionType,
  UnlockType,
} from './type-codes.js';
import type { Unlock } from './unlock.js';
import type { UnlockCondition } from './unlock-condition.js';

// TIP-46 work score (what a block costs to process, times the reference mana cost is what it burns) and TIP-47
// storage score (what an output costs to keep, times the storage cost is its minimum deposit), as iota.go v4 computes
// them (workscore.go, storagescore.go and each type's WorkScore and StorageScore).

/** The work score of a block: a validation block's is 0; a basic block's is its payload's, or `block` without one. */
export function blockWorkScore(params: WorkScoreParameters, block: Block | BlockBody): number {
  const body = 'body' in block ? block.body : block;
  if (body.type === BlockBodyType.Validation) return 0;
  return body.payload === undefined ? params.block : payloadWorkScore(params, body.payload);
}

/** A payload's: `block` + `dataByte` per serialized byte, and for a transaction its inputs, outputs and signatures. */
export function payloadWorkScore(params: WorkScoreParameters, payload: Payload): number {
  const data = params.block + params.dataByte * payloadCodec.sizeOf(payload);
  if (payload.type !== PayloadType.SignedTransaction) return data;
  return data + transactionWorkScore(params, payload.transaction) + unlocksWorkScore(params, payload.unlocks);
}

export function transactionWorkScore(params: WorkScoreParameters, tx: Transaction): number {
  let score =
    tx.contextInputs.length * params.contextInput +
    tx.inputs.length * params.input +
    tx.allotments.length * params.allotment;
  for (const o of tx.outputs) score += outputWorkScore(params, o);
  return score;
}

function featureWorkScore(params: WorkScoreParameters, f: Feature): number {
  switch (f.type) {
    case FeatureType.NativeToken:
      return params.nativeToken;
    case FeatureType.BlockIssuer:
      return params.blockIssuer;
    case FeatureType.Staking:
      return params.staking;
    default:
      return 0;
  }
}

/**
 * `output` plus its features' (native token, block issuer, staking); a foundry's token scheme costs a native token's
 * (its uint256 arithmetic); conditions cost nothing.
 */
export function outputWorkScore(params: WorkScoreParameters, o: Output): number {
  let score = params.output;
  if (o.type === OutputType.Delegation) return score;
  if (o.type === OutputType.Foundry) score += params.nativeToken;
  for (const f of o.features) score += featureWorkScore(params, f);
  if ('immutableFeatures' in o) for (const f of o.immutableFeatures) score += featureWorkScore(params, f);
  return score;
}

function unlocksWorkScore(params: WorkScoreParameters, unlocks: readonly Unlock[]): number {
  let score = 0;
  for (const u of unlocks) {
    if (u.type === UnlockType.Signature) score += params.signatureEd25519;
    else if (u.type === UnlockType.Multi) score += unlocksWorkScore(params, u.unlocks);
  }
  return score;
}

/** What every output pays beside its bytes: the overhead, and the output id, block id and slot a node keeps. */
function offsetOutput(p: StorageScoreParameters): bigint {
  return p.offsetOutputOverhead + BigInt(p.factorData) * BigInt(38 + 36 + 4);
}

/**
 * The extra score of an implicit account creation address (TIP-42): what an account with one block issuer key scores
 * above a basic output owned by an Ed25519 address, so that turning the basic output into that account needs no more
 * deposit. Both outputs are iota.go's: 129 and 53 bytes.
 */
function offsetImplicitAccountCreationAddress(p: StorageScoreParameters): bigint {
  const factor = BigInt(p.factorData);
  const account = offsetOutput(p) + factor * 129n + p.offsetEd25519BlockIssuerKey;
  const basic = offsetOutput(p) + factor * 53n;
  return account - basic;
}

function conditionScore(p: StorageScoreParameters, c: UnlockCondition): bigint {
  if (c.type === UnlockConditionType.Address && c.address.type === AddressType.ImplicitAccountCreation) {
    return offsetImplicitAccountCreationAddress(p);
  }
  return 0n;
}

function featureScore(p: StorageScoreParameters, f: Feature): bigint {
  if (f.type === FeatureType.BlockIssuer) return p.offsetEd25519BlockIssuerKey * BigInt(f.blockIssuerKeys.length);
  if (f.type === FeatureType.Staking) return p.offsetStakingFeature;
  if (
    (f.type === FeatureType.Sender || f.type === FeatureType.Issuer) &&
    f.address.type === AddressType.ImplicitAccountCreation
  ) {
    return offsetImplicitAccountCreationAddress(p);
  }
  return 0n;
}

/** TIP-47 storage score of an output. */
export function storageScore(p: StorageScoreParameters, o: Output): bigint {
  let score = offsetOutput(p) + BigInt(p.factorData) * BigInt(output.sizeOf(o));
  for (const c of o.unlockConditions) score += conditionScore(p, c);
  if (o.type === OutputType.Delegation) return score + p.offsetDelegation;
  for (const f of o.features) score += featureScore(p, f);
  if ('immutableFeatures' in o) for (const f of o.immutableFeatures) score += featureScore(p, f);
  return score;
}

/** The least amount an output must hold: its storage score times the storage cost. */
export function minimumDeposit(params: Pick<ProtocolParameters, 'storageScoreParameters'>, o: Output): bigint {
  const p = params.storageScoreParameters;
  return storageScore(p, o) * p.storageCost;
}
