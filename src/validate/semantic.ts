import { fromHex, toHex } from '../codec/hex.js';
import { verifyEd25519 } from '../crypto/ed25519.js';
import { blake2b256 } from '../crypto/hash.js';
import type { Address } from '../model/address.js';
import { inputsCommitment, transactionSigningHash } from '../model/ids.js';
import { MAX_NATIVE_TOKENS } from '../model/limits.js';
import type { Output } from '../model/output.js';
import type { TransactionPayload } from '../model/payload/transaction.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType, UnlockType } from '../model/type-codes.js';
import { bytesKey, equalBytes, keyBytes } from '../util/bytes.js';
import { aliasUnlocker, checkChainOutputs, inputChains } from './chains.js';
import { ValidationError } from './errors.js';
import { checkFoundryTokens } from './foundries.js';
import { validateTransactionPayload } from './syntactic.js';

// TIP-20 semantic validation of a transaction against the outputs it consumes, at a point in time (the confirming
// milestone's timestamp in Stardust; the slot's time in the ledger). The order of the checks follows iota-sdk
// (Stardust) semantic_validation: inputs commitment; per input its unlock, timelock and storage deposit return
// obligation; per output its sender; then storage deposit returns, base-token balance, native-token balance.

export interface TransactionContext {
  /** The outputs the inputs consume, in input order (models as stored by the ledger). */
  consumedOutputs: readonly Output[];
  params: ProtocolParameters;
  /** Unix time in seconds against which timelocks and expirations are judged. */
  time: number;
}

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
  checkSemantics(tx, context, transactionSigningHash(tx.essence), consumedOutputs);
}

/**
 * @internal The semantic rules for a transaction that passed the syntactic ones, with its signing hash, and the
 * consumed outputs as models (`context`) and in any form `inputsCommitment` takes (their stored bytes avoid
 * re-encoding), and the verifier to use (the ledger's answers from signatures verified ahead). The ledger's hot path.
 */
export function checkSemantics(
  tx: TransactionPayload,
  context: TransactionContext,
  signingHash: Uint8Array,
  committed: readonly (Output | Uint8Array)[],
  verify: typeof verifyEd25519 = verifyEd25519,
): void {
  const { consumedOutputs, time } = context;
  const { essence, unlocks } = tx;
  if (consumedOutputs.length !== essence.inputs.length) {
    throw new ValidationError(
      'CONSUMED_OUTPUTS_MISMATCH',
      `${essence.inputs.length} input(s) but ${consumedOutputs.length} consumed output(s)`,
      { path: 'essence.inputs' },
    );
  }
  if (!equalBytes(inputsCommitment(committed), essence.inputsCommitment)) {
    throw new ValidationError('INPUTS_COMMITMENT_MISMATCH', 'does not commit to the consumed outputs', {
      path: 'essence.inputsCommitment',
    });
  }
  const unlocked = new Set<string>();
  const returns = new Map<string, bigint>();
  const tokensIn = new Map<string, bigint>();
  let amountIn = 0n;

  // TIP-18: the NFTs, aliases and foundries among the inputs.
  const chains = inputChains(consumedOutputs, essence.inputs);

  consumedOutputs.forEach((output, i) => {
    const at = `unlocks[${i}]`;
    const chain = chains.idOf.get(i);
    // An alias input is unlocked by its state controller in a state transition, by its governor otherwise.
    const alias = output.type === OutputType.Alias ? aliasUnlocker(output, chain!, essence.outputs) : undefined;
    const address = alias?.address ?? unlockAddress(output, time);
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

    // An unlocked NFT, or an alias in a state transition, unlocks its own address for the rest of the transaction
    // (the outputs it owns, senders).
    if (output.type === OutputType.Nft) unlocked.add(keyOf(AddressType.Nft, fromHex(chain!)));
    if (alias?.state === true) unlocked.add(keyOf(AddressType.Alias, fromHex(chain!)));

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
        if (uc.type === UnlockConditionType.StorageDepositReturn)
          addTo(returns, addressKey(uc.returnAddress), uc.amount);
      }
    }
    amountIn += output.amount;
    for (const t of output.nativeTokens) addTo(tokensIn, toHex(t.id), t.amount);
  });

  const newChains = checkChainOutputs(essence.outputs, consumedOutputs, chains);

  // Outputs that can receive a storage deposit return: basic, only an Address UC, no native tokens, no features.
  const simpleDeposits = new Map<string, bigint>();
  const tokensOut = new Map<string, bigint>();
  let amountOut = 0n;
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
      addTo(simpleDeposits, addressKey(only.address), output.amount);
    }
    amountOut += output.amount;
    for (const t of output.nativeTokens) addTo(tokensOut, toHex(t.id), t.amount);
  });

  for (const [address, amount] of returns) {
    if ((simpleDeposits.get(address) ?? 0n) < amount) {
      throw new ValidationError(
        'STORAGE_DEPOSIT_RETURN_UNFULFILLED',
        `${amount} must be returned to ${toHex(keyBytes(address.slice(1))).slice(0, 12)}… in a simple output`,
        { path: 'essence.outputs' },
      );
    }
  }
  if (amountIn !== amountOut) {
    throw new ValidationError('BASE_TOKEN_BALANCE_MISMATCH', `inputs hold ${amountIn}, outputs ${amountOut}`, {
      path: 'essence.outputs',
    });
  }
  // TIP-20: a surplus of a native token needs its foundry among the outputs, and that foundry's rules decide whether
  // the surplus was minted; a deficit is melted by its foundry or burned (allowed, as in iota-sdk).
  const foundries = checkFoundryTokens(essence.outputs, consumedOutputs, chains.foundries, tokensIn, tokensOut);
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
