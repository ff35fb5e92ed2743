import { fromHex, toHex } from '../codec/index.js';
import { blake2b256, verifyEd25519 } from '../crypto/index.js';
import type { Address } from '../stardust/address.js';
import { inputsCommitment, transactionSigningHash } from '../stardust/ids.js';
import { MAX_NATIVE_TOKENS } from '../stardust/limits.js';
import type { AliasOutput, NftOutput, Output } from '../stardust/output.js';
import type { TransactionPayload } from '../stardust/payload/transaction.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType, UnlockType } from '../stardust/type-codes.js';
import { bytesKey, equalBytes, keyBytes } from '../util/bytes.js';
import { aliasUnlocker, checkChainOutputs, checkChainOutputsUnique } from './chains.js';
import { ValidationError } from './errors.js';
import { checkFoundryTokens, foundryKey } from './foundries.js';
import { validateTransactionPayload } from './syntactic.js';
import { type TransactionContext, type WorkingSet, workingSet } from './working-set.js';

export type { TransactionContext } from './working-set.js';

// TIP-20 semantic validation of a transaction against the outputs it consumes, at a point in time (the confirming
// milestone's timestamp in Stardust; the slot's time in the ledger). The rules and their order are iota.go
// v3.0.0-rc.3's `Transaction.SemanticallyValidate` (transaction.go:314-342), which hornet ran to confirm the real
// ledger, so that the first rule broken, and with it the conflict reason white flag records, is hornet's:
//   chain outputs unique (iota.go checks it syntactically: output.go:873) →
//   TxSemanticTimelock (every input) → TxSemanticInputUnlocks (inputs commitment, then input by input its unlock) →
//   TxSemanticOutputsSender → TxSemanticDeposit (sum of amounts, then storage deposit returns) →
//   TxSemanticNativeTokens → TxSemanticSTVFOnChains (aliases, NFTs, foundries: chains.ts, foundries.ts).
// (iota-sdk orders them otherwise; where it differs, hornet wins: it is what confirmed the real ledger.)
// To add a rule: a check called from checkSemantics at its place in that order, its code in errors.ts, hornet's
// conflict reason for it in ledger/core/conflict-reason.ts.

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
 * @internal Every semantic rule, in hornet's order (iota.go rc.3, transaction.go:330-337), over a transaction that
 * passed the syntactic ones: its working set (the consumed outputs, signing hash, time) and the verifier to use (the
 * ledger's answers from signatures verified ahead). The ledger's hot path.
 */
export function checkSemantics(ws: WorkingSet, verify: typeof verifyEd25519 = verifyEd25519): void {
  const { outputs } = ws.tx.essence;
  const chainOutputs = outputs.some(isChainOutput);
  if (chainOutputs) checkChainOutputsUnique(outputs);
  checkTimelocks(ws);
  checkInputsCommitment(ws);
  const returns = checkUnlocks(ws, verify);
  checkSenders(ws);
  const tokens = checkDeposit(ws, returns);
  checkNativeTokens(ws, tokens.in, tokens.out);
  if (chainOutputs || ws.chains.idOf.size > 0 || ws.chains.foundries.size > 0) checkChains(ws, tokens.in, tokens.out);
}

const isChainOutput = (o: Output): boolean =>
  o.type === OutputType.Alias || o.type === OutputType.Nft || o.type === OutputType.Foundry;

/** TxSemanticTimelock (transaction.go:677): no input is timelocked past `time` (unlock_cond.go:211: time < its). */
function checkTimelocks({ consumedOutputs, time }: WorkingSet): void {
  consumedOutputs.forEach((output, i) => {
    for (const uc of output.unlockConditions) {
      if (uc.type === UnlockConditionType.Timelock && time < uc.unixTime) {
        throw new ValidationError(
          'TIMELOCK_NOT_EXPIRED',
          `input ${i} is timelocked until ${uc.unixTime}, time is ${time}`,
          { path: `essence.inputs[${i}]` },
        );
      }
    }
  });
}

/** TIP-20: the inputs commitment is BLAKE2b-256 of the consumed outputs' hashes (first in TxSemanticInputUnlocks). */
function checkInputsCommitment({ tx, committed }: WorkingSet): void {
  if (!equalBytes(inputsCommitment(committed), tx.essence.inputsCommitment)) {
    throw new ValidationError('INPUTS_COMMITMENT_MISMATCH', 'does not commit to the consumed outputs', {
      path: 'essence.inputsCommitment',
    });
  }
}

/**
 * TxSemanticInputUnlocks (transaction.go:459-504), input by input: its unlock (signature, reference, alias, NFT:
 * TIP-18 and TIP-20); an unlocked NFT, or an alias in a state transition, unlocks its own address for the rest of the
 * transaction. Returns the storage deposit returns owed: TxSemanticDeposit (transaction.go:634-638) owes none where
 * the return address is the one that unlocked that very input (`UnlockedBy(inputIndex, returnIdent)`: the owner,
 * the expiration's return address once expired, or an NFT input's own address).
 */
function checkUnlocks(ws: WorkingSet, verify: typeof verifyEd25519): Map<string, bigint> | undefined {
  const { consumedOutputs, time, chains, unlocked } = ws;
  let returns: Map<string, bigint> | undefined;
  consumedOutputs.forEach((output, i) => {
    const chain = chains.idOf.get(i);
    // An alias input is unlocked by its state controller in a state transition, by its governor otherwise; a
    // successor whose state index is neither the same nor the next is refused here, as iota.go's
    // AliasOutput.Ident does (ErrTransDepIdentOutputNextInvalid, output_alias.go:340-357: hornet's 12).
    const alias = output.type === OutputType.Alias ? aliasUnlocker(output, chain!, ws.tx.essence.outputs) : undefined;
    if (alias?.valid === false) {
      const to = (ws.tx.essence.outputs[alias.at] as AliasOutput).stateIndex;
      throw new ValidationError(
        'ALIAS_TRANSITION_INVALID',
        `state index ${to} after ${(output as AliasOutput).stateIndex} (input ${i}): the same or one more`,
        { path: `essence.outputs[${alias.at}].stateIndex` },
      );
    }
    const owner = alias?.address ?? unlockAddress(output, time);
    const ownerKey = addressKey(owner);
    checkUnlock(ws, i, owner, ownerKey, verify);
    const own = output.type === OutputType.Nft ? keyOf(AddressType.Nft, fromHex(chain!)) : undefined;
    if (own !== undefined) unlocked.add(own);
    if (alias?.state === true) unlocked.add(keyOf(AddressType.Alias, fromHex(chain!)));
    if (output.type !== OutputType.Basic && output.type !== OutputType.Nft) return;
    for (const uc of output.unlockConditions) {
      if (uc.type !== UnlockConditionType.StorageDepositReturn) continue;
      const to = addressKey(uc.returnAddress);
      if (to === ownerKey || to === own) continue;
      returns ??= new Map();
      addTo(returns, to, uc.amount);
    }
  });
  return returns;
}

/** Unlock `i` unlocks `address`, the owner of input `i` (TIP-20 signatures and references, TIP-18 chains). */
function checkUnlock(ws: WorkingSet, i: number, address: Address, key: string, verify: typeof verifyEd25519): void {
  const { tx, chains, unlocked, signingHash } = ws;
  const { unlocks } = tx;
  const at = `unlocks[${i}]`;
  const unlock = unlocks[i]!;
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

/** TxSemanticOutputsSender (transaction.go:601): each output's sender is unlocked by this transaction. */
function checkSenders({ tx, unlocked }: WorkingSet): void {
  tx.essence.outputs.forEach((output, j) => {
    output.features.forEach((f, k) => {
      if (f.type === FeatureType.Sender && !unlocked.has(addressKey(f.address))) {
        throw new ValidationError('SENDER_NOT_UNLOCKED', 'the sender address is not unlocked by this transaction', {
          path: `essence.outputs[${j}].features[${k}].address`,
        });
      }
    });
  });
}

/** The native tokens the inputs and the outputs hold, by token id (hex). */
interface TokenSums {
  in: Map<string, bigint>;
  out: Map<string, bigint>;
}

/**
 * TxSemanticDeposit (transaction.go:622-674): the base token balances, then every deposit return owed is paid to
 * its address in simple transfers (a basic output with no features, no native tokens and one unlock condition:
 * output_basic.go:103). The native tokens are summed on the way, for the next rule.
 */
function checkDeposit({ tx, consumedOutputs }: WorkingSet, returns: Map<string, bigint> | undefined): TokenSums {
  const tokens: TokenSums = { in: new Map(), out: new Map() };
  let amountIn = 0n;
  for (const output of consumedOutputs) {
    amountIn += output.amount;
    for (const t of output.nativeTokens) addTo(tokens.in, toHex(t.id), t.amount);
  }
  let amountOut = 0n;
  let simple: Map<string, bigint> | undefined;
  for (const output of tx.essence.outputs) {
    amountOut += output.amount;
    for (const t of output.nativeTokens) addTo(tokens.out, toHex(t.id), t.amount);
    const [only] = output.unlockConditions;
    if (
      returns !== undefined &&
      output.type === OutputType.Basic &&
      output.unlockConditions.length === 1 &&
      only?.type === UnlockConditionType.Address && // a basic output's one condition is its Address
      output.nativeTokens.length === 0 &&
      output.features.length === 0
    ) {
      simple ??= new Map();
      addTo(simple, addressKey(only.address), output.amount);
    }
  }
  if (amountIn !== amountOut) {
    throw new ValidationError('BASE_TOKEN_BALANCE_MISMATCH', `inputs hold ${amountIn}, outputs ${amountOut}`, {
      path: 'essence.outputs',
    });
  }
  if (returns === undefined) return tokens;
  for (const [address, amount] of returns) {
    if ((simple?.get(address) ?? 0n) < amount) {
      throw new ValidationError(
        'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
        `${amount} must be returned to ${toHex(keyBytes(address.slice(1))).slice(0, 12)}… in a simple output`,
        { path: 'essence.outputs' },
      );
    }
  }
  return tokens;
}

const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * TxSemanticNativeTokens (transaction.go:721-785): no sum past 2^256 − 1 (output.go:379), at most MAX_NATIVE_TOKENS
 * distinct tokens over the inputs and outputs, and a token the outputs hold more of than the inputs only where its
 * foundry is among the outputs (how much it minted is the foundry's own rule, among the chains); a deficit is burned.
 */
function checkNativeTokens(ws: WorkingSet, tokensIn: Map<string, bigint>, tokensOut: Map<string, bigint>): void {
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
  let foundries: Set<string> | undefined;
  for (const [id, out] of tokensOut) {
    if (out <= (tokensIn.get(id) ?? 0n)) continue;
    foundries ??= new Set(ws.tx.essence.outputs.flatMap((o) => (o.type === OutputType.Foundry ? [foundryKey(o)] : [])));
    if (!foundries.has(id)) {
      throw new ValidationError(
        'NATIVE_TOKEN_BALANCE_MISMATCH',
        `native token ${id.slice(0, 14)}…: outputs ${out} exceed inputs ${tokensIn.get(id) ?? 0n}, and its foundry ` +
          'is not among the outputs',
        { path: 'essence.outputs' },
      );
    }
  }
}

/**
 * TxSemanticSTVFOnChains (transaction.go:689-715): every chain's transition (chains.ts, foundries.ts), and a new
 * alias's or NFT's issuer unlocked by this transaction (chain.go:82, called from their genesis transition). Every
 * failure here is a ChainTransitionError in iota.go: hornet's 12, whichever rule.
 */
function checkChains(ws: WorkingSet, tokensIn: Map<string, bigint>, tokensOut: Map<string, bigint>): void {
  const { tx, consumedOutputs, chains, unlocked } = ws;
  const { outputs } = tx.essence;
  const newChains = checkChainOutputs(outputs, consumedOutputs, chains);
  for (const j of newChains) {
    (outputs[j] as AliasOutput | NftOutput).immutableFeatures.forEach((f, k) => {
      if (f.type === FeatureType.Issuer && !unlocked.has(addressKey(f.address))) {
        throw new ValidationError('ISSUER_NOT_UNLOCKED', "a new chain's issuer must be unlocked by this transaction", {
          path: `essence.outputs[${j}].immutableFeatures[${k}].address`,
        });
      }
    });
  }
  checkFoundryTokens(outputs, consumedOutputs, chains.foundries, tokensIn, tokensOut);
}
