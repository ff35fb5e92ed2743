import { fromHex, toHex } from '../codec/hex.js';
import { verifyEd25519 } from '../crypto/ed25519.js';
import { blake2b256 } from '../crypto/hash.js';
import type { Address } from '../model/address.js';
import { inputsCommitment, transactionSigningHash } from '../model/ids.js';
import { MAX_NATIVE_TOKENS } from '../model/limits.js';
import type { Output } from '../model/output.js';
import type { TransactionPayload } from '../model/payload/transaction.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType, UnlockType } from '../model/type-codes.js';
import { bytesKey, equalBytes, keyBytes } from '../util/bytes.js';
import { aliasUnlocker, checkChainOutputs } from './chains.js';
import { ValidationError } from './errors.js';
import { checkFoundryTokens } from './foundries.js';
import { validateTransactionPayload } from './syntactic.js';
import { type TransactionContext, type WorkingSet, workingSet } from './working-set.js';

export type { TransactionContext } from './working-set.js';

// TIP-20 semantic validation of a transaction against the outputs it consumes, at a point in time (the confirming
// milestone's timestamp in Stardust; the slot's time in the ledger). The order of the checks follows iota-sdk
// (Stardust) semantic_validation: inputs commitment; per input its unlock, timelock and storage deposit return
// obligation; per output its sender; then storage deposit returns, base-token balance, native-token balance.

/** Adds `amount` to the running sum under `key`. */
function addTo(sums: Map<string, bigint>, key: string, amount: bigint): void {
  sums.set(key, (sums.get(key) ?? 0n) + amount);
}

/** A Map key for an address: its type's character, then its bytes' (`bytesKey`: no hex string per address). */
const keyOf = (type: number, id: Uint8Array): string => String.fromCharCode(type) + bytesKey(id);
const addressKey = (a: Address): string =>
  keyOf(a.type, a.type === AddressType.Ed25519 ? a.pubKeyHash : a.type === AddressType.Alias ? a.aliasId : a.nftId);

/**
 * The address that must unlock an output at `time`: its Address (a foundry: its Immutable Alias Address) unlock
 * condition's, or the return address once an expiration has passed. (An alias input's unlocker depends on the
 * transaction: `aliasUnlocker`.)
 */
export function unlockAddress(output: Output, time: number): Address {
  let owner: Address | undefined;
  for (const uc of output.unlockConditions) {
    if (uc.type === UnlockConditionType.Address || uc.type === UnlockConditionType.ImmutableAliasAddress)
      owner = uc.address;
    else if (uc.type === UnlockConditionType.Expiration && time >= uc.unixTime) return uc.returnAddress;
  }
  if (owner === undefined)
    throw new ValidationError('ADDRESS_UNLOCK_CONDITION_MISSING', 'no Address unlock condition', {
      path: 'unlockConditions',
    });
  return owner;
}

/**
 * Syntactic rules (as `validateTransactionPayload`), then every semantic rule of TIP-20 and TIP-18: unlocks
 * (signature, reference, alias, NFT), timelocks and expirations, storage deposit returns, balances, and the chains
 * (aliases, foundries and their native tokens, NFTs). Throws the first broken rule.
 * @throws ValidationError (one code per rule), CodecError (a malformed model), TypeError (bad arguments)
 */
export function validateTransaction(tx: TransactionPayload, context: TransactionContext): void {
  if (typeof context !== 'object' || context === null)
    throw new TypeError('validateTransaction: expected { consumedOutputs, params, time }');
  const { consumedOutputs, params, time } = context;
  if (!Array.isArray(consumedOutputs))
    throw new TypeError('validateTransaction: consumedOutputs must be an array of outputs');
  if (!Number.isInteger(time) || time < 0)
    throw new TypeError('validateTransaction: time must be a unix time in seconds');
  validateTransactionPayload(tx, params);
  checkSemantics(workingSet(tx, context, transactionSigningHash(tx.essence)));
}

/**
 * @internal Every semantic rule, in iota-sdk's order, over a transaction that passed the syntactic ones: its working
 * set (the consumed outputs, signing hash, time) and the verifier to use (the ledger's answers from signatures verified
 * ahead). The ledger's hot path.
 */
export function checkSemantics(ws: WorkingSet, verify: typeof verifyEd25519 = verifyEd25519): void {
  checkInputsCommitment(ws);
  const inputs = checkInputs(ws, verify);
  const newChains = checkChainOutputs(ws.tx.essence.outputs, ws.consumedOutputs, ws.chains);
  const outputs = checkOutputs(ws, newChains);
  checkStorageDepositReturns(inputs.returns, outputs.simpleDeposits);
  checkBaseTokens(inputs.amount, outputs.amount);
  checkNativeTokens(ws, inputs.tokens, outputs.tokens);
}

/** TIP-20: the inputs commitment is BLAKE2b-256 of the consumed outputs' hashes. */
function checkInputsCommitment({ tx, committed }: WorkingSet): void {
  if (!equalBytes(inputsCommitment(committed), tx.essence.inputsCommitment)) {
    throw new ValidationError('INPUTS_COMMITMENT_MISMATCH', 'does not commit to the consumed outputs', {
      path: 'essence.inputsCommitment',
    });
  }
}

/** What the consumed outputs add up to, and the storage deposits they want returned (by address). */
interface InputSums {
  amount: bigint;
  tokens: Map<string, bigint>;
  returns: Map<string, bigint>;
}

/**
 * Per input, in order (iota-sdk): its unlock (signature, reference, alias, NFT: TIP-18 and TIP-20), its timelock, its
 * storage deposit return obligation; the addresses unlocked go into the working set.
 */
function checkInputs(ws: WorkingSet, verify: typeof verifyEd25519): InputSums {
  const { consumedOutputs, time, chains, unlocked } = ws;
  const sums: InputSums = { amount: 0n, tokens: new Map(), returns: new Map() };
  consumedOutputs.forEach((output, i) => {
    const chain = chains.idOf.get(i);
    // An alias input is unlocked by its state controller in a state transition, by its governor otherwise.
    const alias = output.type === OutputType.Alias ? aliasUnlocker(output, chain!, ws.tx.essence.outputs) : undefined;
    checkUnlock(ws, i, alias?.address ?? unlockAddress(output, time), verify);
    // An unlocked NFT, or an alias in a state transition, unlocks its own address for the rest of the transaction
    // (the outputs it owns, senders).
    if (output.type === OutputType.Nft) unlocked.add(keyOf(AddressType.Nft, fromHex(chain!)));
    if (alias?.state === true) unlocked.add(keyOf(AddressType.Alias, fromHex(chain!)));
    checkTimelocks(output, i, time, sums.returns);
    sums.amount += output.amount;
    for (const t of output.nativeTokens) addTo(sums.tokens, toHex(t.id), t.amount);
  });
  return sums;
}

/** Unlock `i` unlocks `address`, the owner of input `i` (TIP-20 signatures and references, TIP-18 chains). */
function checkUnlock(ws: WorkingSet, i: number, address: Address, verify: typeof verifyEd25519): void {
  const { tx, chains, unlocked, signingHash } = ws;
  const { unlocks } = tx;
  const at = `unlocks[${i}]`;
  const unlock = unlocks[i]!;
  const key = addressKey(address);
  if (address.type === AddressType.Alias || address.type === AddressType.Nft) {
    // TIP-18: an alias or NFT unlock pointing at the input that is this chain, unlocked earlier (reference < i);
    // an alias unlocks what it owns only in a state transition.
    const [wanted, index] =
      address.type === AddressType.Alias
        ? [UnlockType.Alias, chains.aliases.get(toHex(address.aliasId))]
        : [UnlockType.Nft, chains.nfts.get(toHex(address.nftId))];
    if (unlock.type !== wanted || index !== unlock.reference || !unlocked.has(key)) {
      const kind = address.type === AddressType.Alias ? 'alias' : 'NFT';
      throw new ValidationError(
        'UNLOCK_INVALID',
        `input ${i} is owned by an ${kind}: it needs an ${kind} unlock pointing at that ${kind}'s input, ` +
          'unlocked before it (an alias: in a state transition)',
        { path: at },
      );
    }
  } else if (unlock.type === UnlockType.Signature) {
    if (unlocked.has(key))
      throw new ValidationError(
        'UNLOCK_INVALID',
        'this address is already unlocked by an earlier signature; use a reference unlock',
        { path: at },
      );
    const { publicKey, signature } = unlock.signature;
    if (!equalBytes(blake2b256(publicKey), address.pubKeyHash)) {
      throw new ValidationError(
        'SIGNATURE_ADDRESS_MISMATCH',
        `the public key does not hash to the address of input ${i}`,
        { path: `${at}.signature.publicKey` },
      );
    }
    if (!verify(publicKey, signingHash, signature)) {
      throw new ValidationError('SIGNATURE_INVALID', 'not a valid Ed25519 signature of the transaction (ZIP-215)', {
        path: `${at}.signature.signature`,
      });
    }
    unlocked.add(key);
  } else if (unlock.type !== UnlockType.Reference) {
    throw new ValidationError(
      'UNLOCK_INVALID',
      `input ${i} is owned by an Ed25519 address: an alias or NFT unlock cannot unlock it`,
      {
        path: at,
      },
    );
  } else {
    // validateTransactionPayload guarantees the target is an earlier Signature Unlock, verified when it was reached.
    const target = unlocks[unlock.reference]!;
    if (
      target.type !== UnlockType.Signature ||
      !equalBytes(blake2b256(target.signature.publicKey), address.pubKeyHash)
    ) {
      throw new ValidationError('UNLOCK_INVALID', `the referenced signature is not for the address of input ${i}`, {
        path: `${at}.reference`,
      });
    }
  }
}

/** TIP-20: a timelocked input cannot be spent before its time; an unexpired deposit return is owed. */
function checkTimelocks(output: Output, i: number, time: number, returns: Map<string, bigint>): void {
  let expired = false;
  for (const uc of output.unlockConditions) {
    if (uc.type === UnlockConditionType.Timelock && time < uc.unixTime) {
      throw new ValidationError(
        'TIMELOCK_NOT_EXPIRED',
        `input ${i} is timelocked until ${uc.unixTime}, time is ${time}`,
        { path: `essence.inputs[${i}]` },
      );
    }
    if (uc.type === UnlockConditionType.Expiration && time >= uc.unixTime) expired = true;
  }
  if (!expired) {
    for (const uc of output.unlockConditions) {
      if (uc.type === UnlockConditionType.StorageDepositReturn) addTo(returns, addressKey(uc.returnAddress), uc.amount);
    }
  }
}

/** What the outputs add up to, and what simple outputs each address receives (where deposits can be returned). */
interface OutputSums {
  amount: bigint;
  tokens: Map<string, bigint>;
  simpleDeposits: Map<string, bigint>;
}

/** Per output: its senders, and a new chain's issuer, are unlocked by this transaction (TIP-18, TIP-20). */
function checkOutputs({ tx, unlocked }: WorkingSet, newChains: readonly number[]): OutputSums {
  const { essence } = tx;
  // Outputs that can receive a storage deposit return: basic, only an Address UC, no native tokens, no features.
  const sums: OutputSums = { amount: 0n, tokens: new Map(), simpleDeposits: new Map() };
  essence.outputs.forEach((output, j) => {
    output.features.forEach((f, k) => {
      if (f.type === FeatureType.Sender && !unlocked.has(addressKey(f.address))) {
        throw new ValidationError('SENDER_NOT_UNLOCKED', 'the sender address is not unlocked by this transaction', {
          path: `essence.outputs[${j}].features[${k}].address`,
        });
      }
    });
    // A new chain's issuer must be unlocked by this transaction (TIP-18 alias and NFT creation).
    if ((output.type === OutputType.Alias || output.type === OutputType.Nft) && newChains.includes(j)) {
      output.immutableFeatures.forEach((f, k) => {
        if (f.type === FeatureType.Issuer && !unlocked.has(addressKey(f.address))) {
          throw new ValidationError(
            'ISSUER_NOT_UNLOCKED',
            "a new chain's issuer must be unlocked by this transaction",
            {
              path: `essence.outputs[${j}].immutableFeatures[${k}].address`,
            },
          );
        }
      });
    }
    const [only] = output.unlockConditions;
    if (
      output.type === OutputType.Basic && // iota-sdk counts basic outputs only
      output.unlockConditions.length === 1 &&
      only?.type === UnlockConditionType.Address &&
      output.nativeTokens.length === 0 &&
      output.features.length === 0
    ) {
      addTo(sums.simpleDeposits, addressKey(only.address), output.amount);
    }
    sums.amount += output.amount;
    for (const t of output.nativeTokens) addTo(sums.tokens, toHex(t.id), t.amount);
  });
  return sums;
}

/** TIP-20: every deposit return owed is paid to its address in simple outputs. */
function checkStorageDepositReturns(returns: Map<string, bigint>, simpleDeposits: Map<string, bigint>): void {
  for (const [address, amount] of returns) {
    if ((simpleDeposits.get(address) ?? 0n) < amount) {
      throw new ValidationError(
        'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
        `${amount} must be returned to ${toHex(keyBytes(address.slice(1))).slice(0, 12)}… in a simple output`,
        { path: 'essence.outputs' },
      );
    }
  }
}

/** TIP-20: the base token balances. */
function checkBaseTokens(amountIn: bigint, amountOut: bigint): void {
  if (amountIn !== amountOut) {
    throw new ValidationError('BASE_TOKEN_BALANCE_MISMATCH', `inputs hold ${amountIn}, outputs ${amountOut}`, {
      path: 'essence.outputs',
    });
  }
}

const MAX_UINT256 = (1n << 256n) - 1n;

/** TIP-20 and TIP-18: native tokens balance, or their foundries mint and melt them; at most MAX_NATIVE_TOKENS kinds. */
function checkNativeTokens(ws: WorkingSet, tokensIn: Map<string, bigint>, tokensOut: Map<string, bigint>): void {
  const { tx, consumedOutputs, chains } = ws;
  // iota.go's NativeTokenSum (hornet): a token's sum over the inputs, or over the outputs, past 2^256 − 1 is
  // ErrNativeTokenSumExceedsUint256. Each amount fits 256 bits; only a sum can pass it.
  for (const [sums, side, path] of [
    [tokensIn, 'inputs', 'essence.inputs'],
    [tokensOut, 'outputs', 'essence.outputs'],
  ] as const) {
    for (const [id, sum] of sums) {
      if (sum > MAX_UINT256)
        throw new ValidationError(
          'NATIVE_TOKEN_SUM_OVERFLOW',
          `native token ${id.slice(0, 14)}…: the ${side} hold ${sum} of it, more than 2^256 − 1`,
          { path },
        );
    }
  }
  // TIP-20: a surplus of a native token needs its foundry among the outputs, and that foundry's rules decide whether
  // the surplus was minted; a deficit is melted by its foundry or burned (allowed, as in iota-sdk).
  const foundries = checkFoundryTokens(tx.essence.outputs, consumedOutputs, chains.foundries, tokensIn, tokensOut);
  for (const [id, out] of tokensOut) {
    if (out > (tokensIn.get(id) ?? 0n) && !foundries.has(id)) {
      throw new ValidationError(
        'NATIVE_TOKEN_BALANCE_MISMATCH',
        `native token ${id.slice(0, 14)}…: outputs ${out} exceed inputs ${tokensIn.get(id) ?? 0n}, and its foundry ` +
          'is not among the outputs',
        { path: 'essence.outputs' },
      );
    }
  }
  // The union is no larger than the two counts together: only then is it built.
  if (
    tokensIn.size + tokensOut.size > MAX_NATIVE_TOKENS &&
    new Set([...tokensIn.keys(), ...tokensOut.keys()]).size > MAX_NATIVE_TOKENS
  ) {
    throw new ValidationError(
      'NATIVE_TOKEN_COUNT_EXCEEDED',
      `more than ${MAX_NATIVE_TOKENS} distinct native tokens in inputs and outputs`,
      { path: 'essence.outputs' },
    );
  }
}
