import { encode, toHex } from '../codec/index.js';
import { ed25519PublicKey, findNonce, signEd25519 } from '../crypto/index.js';
import { type Block, block as blockCodec, type Payload } from '../stardust/block.js';
import type { TransactionEssence } from '../stardust/essence.js';
import { inputsCommitment, parseOutputId, transactionSigningHash } from '../stardust/ids.js';
import type { Output } from '../stardust/output.js';
import type { TaggedDataPayload } from '../stardust/payload/tagged-data.js';
import type { TransactionPayload } from '../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import {
  AddressType,
  EssenceType,
  InputType,
  OutputType,
  PayloadType,
  SignatureType,
  UnlockConditionType,
  UnlockType,
} from '../stardust/type-codes.js';
import type { Unlock } from '../stardust/unlock.js';
import { sortedUnique } from '../util/bytes.js';
import { inputChainId, validateOutput } from '../validate/index.js';

export interface BuildTransactionInput {
  /** 34-byte output ID of the output to spend. */
  outputId: Uint8Array;
  /** The output itself (its bytes enter the inputs commitment). */
  output: Output;
}

export interface BuildTransactionOptions {
  inputs: readonly BuildTransactionInput[];
  outputs: readonly Output[];
  taggedData?: { tag: Uint8Array; data: Uint8Array };
  params: ProtocolParameters;
}

/**
 * An unsigned transaction essence: inputs from the output IDs, the inputs commitment of the consumed outputs, the
 * network ID of `params`. Each output is checked syntactically (deposit, ordering…) so mistakes surface here.
 * @throws ValidationError, CodecError
 */
export function buildTransaction(options: BuildTransactionOptions): TransactionEssence {
  const { inputs, outputs, taggedData, params } = options;
  outputs.forEach((o) => validateOutput(o, params));
  const payload: TaggedDataPayload | undefined =
    taggedData === undefined ? undefined : { type: PayloadType.TaggedData, tag: taggedData.tag, data: taggedData.data };
  return {
    type: EssenceType.Regular,
    networkId: params.networkId,
    inputs: inputs.map((i) => ({ type: InputType.Utxo, ...parseOutputId(i.outputId) })),
    inputsCommitment: inputsCommitment(inputs.map((i) => i.output)),
    outputs: [...outputs],
    payload,
  };
}

/**
 * Signs an essence. `secretKeys[i]` is the 32-byte Ed25519 secret key that owns input i. The first input of each
 * key gets a Signature Unlock over the signing hash; later inputs of the same key get a Reference Unlock to it.
 *
 * With `consumed` (the outputs the inputs spend, in input order), an input owned by an NFT or an alias that is itself
 * an input (a foundry is always owned by its alias) gets an NFT or Alias Unlock pointing at that chain's input
 * (TIP-18; an alias unlocks only in a state transition); its key may be left `undefined`. The owner is read from the
 * Address (or Immutable Alias Address) unlock condition (an expired output's return address is not considered).
 * The chain's input must come first.
 * @throws RangeError (one key per input, or an NFT after the inputs it owns), TypeError
 */
export function signTransaction(
  essence: TransactionEssence,
  secretKeys: readonly (Uint8Array | undefined)[],
  options: { consumed?: readonly Output[] } = {},
): TransactionPayload {
  if (!Array.isArray(secretKeys) || secretKeys.length !== essence.inputs.length) {
    throw new RangeError(`signTransaction: expected one secret key per input (${essence.inputs.length})`);
  }
  // Chain inputs by address key (type ‖ id): an input owned by one of them gets a chain unlock pointing at it.
  const chainInputs = new Map<string, number>();
  options.consumed?.forEach((o, i) => {
    if (o.type !== OutputType.Nft && o.type !== OutputType.Alias) return;
    const id = inputChainId(o, essence.inputs[i]!)!;
    chainInputs.set(`${o.type === OutputType.Nft ? AddressType.Nft : AddressType.Alias}${toHex(id)}`, i);
  });
  const hash = transactionSigningHash(essence);
  const first = new Map<string, number>();
  const unlocks: Unlock[] = secretKeys.map((sk, i) => {
    const owner = options.consumed?.[i]?.unlockConditions.find(
      (uc) => uc.type === UnlockConditionType.Address || uc.type === UnlockConditionType.ImmutableAliasAddress,
    );
    if (
      (owner?.type === UnlockConditionType.Address || owner?.type === UnlockConditionType.ImmutableAliasAddress) &&
      owner.address.type !== AddressType.Ed25519
    ) {
      const a = owner.address;
      const j = chainInputs.get(`${a.type}${toHex(a.type === AddressType.Nft ? a.nftId : a.aliasId)}`);
      if (j !== undefined) {
        if (j >= i)
          throw new RangeError(`signTransaction: input ${i} is owned by the chain of input ${j}: put it first`);
        return { type: a.type === AddressType.Nft ? UnlockType.Nft : UnlockType.Alias, reference: j };
      }
    }
    if (!(sk instanceof Uint8Array)) throw new TypeError(`signTransaction: no secret key for input ${i}`);
    const seen = first.get(toHex(sk));
    if (seen !== undefined) return { type: UnlockType.Reference, reference: seen };
    first.set(toHex(sk), i);
    return {
      type: UnlockType.Signature,
      signature: { type: SignatureType.Ed25519, publicKey: ed25519PublicKey(sk), signature: signEd25519(sk, hash) },
    };
  });
  return { type: PayloadType.Transaction, essence, unlocks };
}

export interface BuildBlockOptions {
  parents: readonly Uint8Array[];
  payload?: Payload;
  params: ProtocolParameters;
}

/**
 * A block with its parents sorted and deduplicated and, when the network asks for proof of work
 * (`minPowScore > 0`), a nonce that meets it (TIP-12; seconds of CPU on mainnet parameters).
 * @throws CodecError (a malformed payload or too many parents), RangeError
 */
export function buildBlock(options: BuildBlockOptions): Block {
  const { params } = options;
  const parents = sortedUnique(options.parents);
  const block: Block = { protocolVersion: params.protocolVersion, parents, payload: options.payload, nonce: 0n };
  if (params.minPowScore > 0) {
    const bytes = encode(blockCodec, block);
    const nonce = findNonce(bytes.subarray(0, bytes.length - 8), params.minPowScore);
    if (nonce === undefined) throw new RangeError('buildBlock: no nonce found');
    block.nonce = nonce;
  }
  return block;
}
