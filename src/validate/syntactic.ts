import { assertModel, encode } from '../codec/index.js';
import { powScore } from '../crypto/index.js';
import { joinPath } from '../errors.js';
import { type Block, block as blockCodec } from '../stardust/block.js';
import { MAX_NATIVE_TOKENS, MAX_OUTPUT_INDEX } from '../stardust/limits.js';
import { type Output, output as outputCodec } from '../stardust/output.js';
import {
  type TransactionPayload,
  transactionPayload as transactionCodec,
  unlocks as unlocksCodec,
} from '../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { OutputType, PayloadType, UnlockConditionType, UnlockType } from '../stardust/type-codes.js';
import type { Unlock } from '../stardust/unlock.js';
import { bytesKey, compareBytes } from '../util/bytes.js';
import { ValidationError } from './errors.js';
import { checkMilestone } from './milestone.js';
import { minStorageDeposit, minStorageDepositReturn } from './storage-deposit.js';

// The syntactic rules of SPEC A §9 that need protocol parameters but no ledger. Shape rules (counts, lengths,
// type tags, JavaScript types) belong to the codec: each public function first encodes its argument, so a
// malformed model is refused with a CodecError and a path, and the rules (the `check*` functions) can trust it.
// They throw the first broken rule as a ValidationError.

function assertParams(params: unknown): asserts params is ProtocolParameters {
  if (typeof params !== 'object' || params === null || typeof (params as ProtocolParameters).networkId !== 'bigint') {
    throw new TypeError('expected protocol parameters (e.g. PROTOCOL_PARAMETERS.shimmer)');
  }
}

export interface ValidateBlockOptions {
  /** Skip the proof-of-work check (TIP-12). */
  skipPow?: boolean;
}

/**
 * Every syntactic rule of a block that needs no ledger: protocol version, parents sorted and unique, length, the
 * payload's rules, and last the TIP-12 proof of work (score ≥ `params.minPowScore`; skipped when that is 0 or
 * `skipPow` is set), so that a block breaking a structural rule is reported for that rule.
 * @throws ValidationError, CodecError (a malformed model)
 */
export function validateBlock(block: Block, params: ProtocolParameters, options: ValidateBlockOptions = {}): void {
  assertModel(block, 'Block');
  assertParams(params);
  validateDecodedBlock(block, encode(blockCodec, block), params, options);
}

/**
 * @internal `validateBlock` for a block decoded from `bytes` (so well-formed, and those are its exact bytes): no
 * re-encoding. The ledger's hot path.
 */
export function validateDecodedBlock(
  block: Block,
  bytes: Uint8Array,
  params: ProtocolParameters,
  options: ValidateBlockOptions = {},
): void {
  checkBlock(block, bytes.length, params);
  // A milestone block has no proof of work: its nonce is 0 (TIP-24), checked by checkMilestone.
  if (options.skipPow !== true && params.minPowScore > 0 && block.payload?.type !== PayloadType.Milestone) {
    const score = powScore(bytes);
    if (score < params.minPowScore) {
      throw new ValidationError(
        'POW_SCORE_TOO_LOW',
        `proof-of-work score ${score.toFixed(2)} below ${params.minPowScore}`,
        { path: 'nonce' },
      );
    }
  }
}

function checkBlock(block: Block, length: number, params: ProtocolParameters): void {
  if (block.protocolVersion !== params.protocolVersion) {
    throw new ValidationError(
      'PROTOCOL_VERSION_MISMATCH',
      `expected ${params.protocolVersion}, got ${block.protocolVersion}`,
      { path: 'protocolVersion' },
    );
  }
  for (let i = 1; i < block.parents.length; i++) {
    if (compareBytes(block.parents[i - 1]!, block.parents[i]!) >= 0) {
      throw new ValidationError('PARENTS_NOT_SORTED', 'parents must be sorted ascending and unique', {
        path: `parents[${i}]`,
      });
    }
  }
  if (length > params.maxBlockLength) {
    throw new ValidationError('BLOCK_TOO_LONG', `block is ${length} bytes, at most ${params.maxBlockLength}`);
  }
  if (block.payload?.type === PayloadType.Transaction) checkTransaction(block.payload, params, 'payload');
  if (block.payload?.type === PayloadType.Milestone) {
    if (block.nonce !== 0n)
      throw new ValidationError('MILESTONE_NONCE_NOT_ZERO', 'a milestone block has nonce 0', { path: 'nonce' });
    checkMilestone(block.payload, block.parents, 'payload');
  }
}

/** TIP-20 syntactic rules of a transaction payload. @throws ValidationError */
export function validateTransactionPayload(tx: TransactionPayload, params: ProtocolParameters): void {
  assertModel(tx, 'TransactionPayload');
  assertParams(params);
  encode(transactionCodec, tx);
  checkTransaction(tx, params, '');
}

/** @internal The rules of `validateTransactionPayload` for a model known to be well-formed (decoded). */
export function checkTransaction(tx: TransactionPayload, params: ProtocolParameters, path: string): void {
  const essence = tx.essence;
  const ep = joinPath(path, 'essence');
  if (essence.networkId !== params.networkId) {
    throw new ValidationError(
      'NETWORK_ID_MISMATCH',
      `expected ${params.networkId} (${params.networkName}), got ${essence.networkId}`,
      { path: joinPath(ep, 'networkId') },
    );
  }

  const spent = new Set<string>();
  essence.inputs.forEach((input, i) => {
    const at = () => joinPath(ep, `inputs[${i}]`);
    if (input.transactionOutputIndex > MAX_OUTPUT_INDEX) {
      throw new ValidationError(
        'INPUT_INDEX_OUT_OF_RANGE',
        `index ${input.transactionOutputIndex} > ${MAX_OUTPUT_INDEX}`,
        { path: joinPath(at(), 'transactionOutputIndex') },
      );
    }
    const key = bytesKey(input.transactionId) + input.transactionOutputIndex; // 32 characters, then the index
    if (spent.has(key))
      throw new ValidationError('INPUTS_NOT_UNIQUE', 'the same output is spent twice', { path: at() });
    spent.add(key);
  });

  let total = 0n;
  const tokenIds = new Set<string>();
  essence.outputs.forEach((output, i) => {
    // Paths are built only for an error: a block that passes pays for none.
    const at = () => joinPath(ep, `outputs[${i}]`);
    try {
      checkOutput(output, params, '');
    } catch (e) {
      throw e instanceof ValidationError ? e.prefix(at()) : e;
    }
    total += output.amount;
    if (total > params.tokenSupply) {
      throw new ValidationError(
        'TOTAL_AMOUNT_EXCEEDS_SUPPLY',
        `outputs sum to more than the token supply ${params.tokenSupply}`,
        { path: joinPath(at(), 'amount') },
      );
    }
    for (const t of output.nativeTokens) tokenIds.add(bytesKey(t.id));
    if (tokenIds.size > MAX_NATIVE_TOKENS) {
      throw new ValidationError(
        'NATIVE_TOKEN_COUNT_EXCEEDED',
        `more than ${MAX_NATIVE_TOKENS} distinct native tokens`,
        { path: joinPath(at(), 'nativeTokens') },
      );
    }
  });

  checkUnlocks(tx.unlocks, essence.inputs.length, joinPath(path, 'unlocks'));
}

/**
 * TIP-20 unlock rules: one unlock per input; Signature Unlocks pairwise distinct (GO compares the whole
 * unlock); a Reference Unlock points to an earlier Signature Unlock (no chains). @throws ValidationError
 */
export function validateUnlocks(unlocks: readonly Unlock[], inputCount: number): void {
  if (!Array.isArray(unlocks)) throw new TypeError('validateUnlocks: expected an array of unlocks');
  if (!Number.isInteger(inputCount) || inputCount < 0)
    throw new RangeError('validateUnlocks: inputCount must be a whole number');
  encode(unlocksCodec, unlocks);
  checkUnlocks(unlocks, inputCount, 'unlocks');
}

function checkUnlocks(unlocks: readonly Unlock[], inputCount: number, path: string): void {
  if (unlocks.length !== inputCount) {
    throw new ValidationError('UNLOCK_COUNT_MISMATCH', `${unlocks.length} unlock(s) for ${inputCount} input(s)`, {
      path,
    });
  }
  const signatures = new Set<string>();
  unlocks.forEach((u, i) => {
    if (u.type === UnlockType.Signature) {
      const key = bytesKey(u.signature.publicKey) + bytesKey(u.signature.signature); // 32 + 64 characters
      if (signatures.has(key))
        throw new ValidationError(
          'SIGNATURE_UNLOCK_DUPLICATE',
          'repeats an earlier signature unlock; use a reference unlock',
          { path: `${path}[${i}]` },
        );
      signatures.add(key);
    } else if (u.type !== UnlockType.Reference) {
      // Alias and NFT unlocks point to the unlock of the input that is their chain: any earlier unlock (TIP-18).
      if (u.reference >= i) {
        throw new ValidationError(
          'REFERENCE_UNLOCK_INVALID',
          `reference ${u.reference} must point to an earlier unlock`,
          {
            path: `${path}[${i}].reference`,
          },
        );
      }
    } else {
      const ref = u.reference;
      if (ref >= i || unlocks[ref]?.type !== UnlockType.Signature) {
        throw new ValidationError(
          'REFERENCE_UNLOCK_INVALID',
          `reference ${ref} must point to an earlier signature unlock`,
          { path: `${path}[${i}].reference` },
        );
      }
    }
  });
}

/** TIP-18/19 rules of a Basic Output. @throws ValidationError */
export function validateOutput(output: Output, params: ProtocolParameters): void {
  assertModel(output, 'Output');
  assertParams(params);
  encode(outputCodec, output);
  checkOutput(output, params, '');
}

/**
 * TIP-18 field rules of chain outputs that need no ledger: a new alias (all-zero id) starts at state index 0 with no
 * foundries; a foundry's token scheme has a maximum supply above 0, melts no more than it minted, and keeps
 * minted − melted within the maximum.
 */
function checkChainFields(output: Output, path: string): void {
  if (output.type === OutputType.Alias && output.aliasId.every((b) => b === 0)) {
    if (output.stateIndex !== 0 || output.foundryCounter !== 0) {
      throw new ValidationError('ALIAS_NEW_STATE_INVALID', 'a new alias has state index 0 and foundry counter 0', {
        path: joinPath(path, output.stateIndex !== 0 ? 'stateIndex' : 'foundryCounter'),
      });
    }
  }
  if (output.type === OutputType.Foundry) {
    const { mintedTokens, meltedTokens, maximumSupply } = output.tokenScheme;
    const at = joinPath(path, 'tokenScheme');
    if (maximumSupply === 0n) {
      throw new ValidationError('TOKEN_SCHEME_INVALID', 'maximum supply must be above 0', {
        path: joinPath(at, 'maximumSupply'),
      });
    }
    if (meltedTokens > mintedTokens) {
      throw new ValidationError('TOKEN_SCHEME_INVALID', 'melted tokens exceed minted tokens', {
        path: joinPath(at, 'meltedTokens'),
      });
    }
    if (mintedTokens - meltedTokens > maximumSupply) {
      throw new ValidationError('TOKEN_SCHEME_INVALID', 'minted − melted exceeds the maximum supply', {
        path: joinPath(at, 'mintedTokens'),
      });
    }
  }
}

function checkOutput(output: Output, params: ProtocolParameters, path: string): void {
  const { amount } = output;
  if (amount === 0n || amount > params.tokenSupply) {
    throw new ValidationError('AMOUNT_OUT_OF_RANGE', `amount ${amount} outside 1..${params.tokenSupply}`, {
      path: joinPath(path, 'amount'),
    });
  }
  checkChainFields(output, path);

  output.nativeTokens.forEach((t, i) => {
    if (t.amount === 0n)
      throw new ValidationError('NATIVE_TOKEN_AMOUNT_ZERO', 'native token amount must not be zero', {
        path: joinPath(path, `nativeTokens[${i}].amount`),
      });
    if (i > 0 && compareBytes(output.nativeTokens[i - 1]!.id, t.id) >= 0) {
      throw new ValidationError('NATIVE_TOKENS_NOT_SORTED', 'native tokens must be sorted by ID and unique', {
        path: joinPath(path, `nativeTokens[${i}]`),
      });
    }
  });

  let hasAddress = false;
  output.unlockConditions.forEach((uc, i) => {
    const at = () => joinPath(path, `unlockConditions[${i}]`);
    if (i > 0 && output.unlockConditions[i - 1]!.type >= uc.type) {
      throw new ValidationError('UNLOCK_CONDITIONS_NOT_SORTED', 'unlock conditions must be sorted by type and unique', {
        path: at(),
      });
    }
    switch (uc.type) {
      case UnlockConditionType.Address:
        hasAddress = true;
        break;
      case UnlockConditionType.StorageDepositReturn: {
        const min = minStorageDepositReturn(uc.returnAddress, params.rentStructure);
        if (uc.amount < min || uc.amount > amount) {
          throw new ValidationError(
            'STORAGE_DEPOSIT_RETURN_INVALID',
            `return amount ${uc.amount} outside ${min}..${amount}`,
            { path: joinPath(at(), 'amount') },
          );
        }
        break;
      }
      case UnlockConditionType.Timelock:
      case UnlockConditionType.Expiration:
        if (uc.unixTime === 0)
          throw new ValidationError('UNIX_TIME_ZERO', 'unix time must be greater than 0', {
            path: joinPath(at(), 'unixTime'),
          });
        break;
    }
  });
  // Alias and foundry outputs carry their required conditions by their codec (exactly 2 of {4, 5}, sorted; exactly 6).
  if (!hasAddress && (output.type === OutputType.Basic || output.type === OutputType.Nft)) {
    throw new ValidationError(
      'ADDRESS_UNLOCK_CONDITION_MISSING',
      'basic and NFT outputs need an Address unlock condition',
      {
        path: joinPath(path, 'unlockConditions'),
      },
    );
  }

  const lists: [string, readonly { type: number }[]][] = [['features', output.features]];
  if (output.type !== OutputType.Basic) lists.push(['immutableFeatures', output.immutableFeatures]);
  for (const [list, fs] of lists) {
    fs.forEach((f, i) => {
      if (i > 0 && fs[i - 1]!.type >= f.type) {
        throw new ValidationError('FEATURES_NOT_SORTED', 'features must be sorted by type and unique', {
          path: joinPath(path, `${list}[${i}]`),
        });
      }
    });
  }

  const min = minStorageDeposit(output, params.rentStructure);
  if (amount < min) {
    throw new ValidationError('STORAGE_DEPOSIT_INSUFFICIENT', `amount ${amount} below the storage deposit ${min}`, {
      path: joinPath(path, 'amount'),
    });
  }
}
