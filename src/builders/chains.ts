import type { Address, AliasAddress } from '../stardust/address.js';
import { outputChainId } from '../stardust/ids.js';
import type { AliasOutput, FoundryOutput, NftOutput, Output } from '../stardust/output.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType } from '../stardust/type-codes.js';
import { minStorageDeposit } from '../validate/index.js';

// Chain outputs for buildTransaction (TIP-18): a new alias, NFT or foundry, and the next state of one the inputs
// hold, with the fields the rules fix (ids, immutable features, serial numbers) carried over so that only what the
// caller means to change changes. Amounts stay as given (0 for new ones): `withMinimumDeposit` fills them in.

/** A spent output and its id, as buildTransaction takes inputs. */
export interface HeldOutput<T extends Output = Output> {
  outputId: Uint8Array;
  output: T;
}

/** `output` with its amount set to its minimum storage deposit (TIP-19) plus `extra`. */
export function withMinimumDeposit<T extends Output>(output: T, params: ProtocolParameters, extra = 0n): T {
  return { ...output, amount: minStorageDeposit(output, params.rentStructure) + extra };
}

const metadataFeatures = (data: Uint8Array | undefined) =>
  data === undefined ? [] : [{ type: FeatureType.Metadata, data } as const];
const issuerFeatures = (address: Address | undefined) =>
  address === undefined ? [] : [{ type: FeatureType.Issuer, address } as const];

/** A new alias (id zero, state index 0, no foundries): its id becomes BLAKE2b-256 of the id of the output made. */
export function newAlias(options: {
  stateController: Address;
  governor: Address;
  issuer?: Address;
  stateMetadata?: Uint8Array;
  metadata?: Uint8Array;
}): AliasOutput {
  return {
    type: OutputType.Alias,
    amount: 0n,
    nativeTokens: [],
    aliasId: new Uint8Array(32),
    stateIndex: 0,
    stateMetadata: options.stateMetadata ?? new Uint8Array(0),
    foundryCounter: 0,
    unlockConditions: [
      { type: UnlockConditionType.StateControllerAddress, address: options.stateController },
      { type: UnlockConditionType.GovernorAddress, address: options.governor },
    ],
    features: [],
    immutableFeatures: [...issuerFeatures(options.issuer), ...metadataFeatures(options.metadata)],
  };
}

/**
 * The next state of a held alias, id filled in: a state transition (state index + 1; signed by the state controller)
 * or a governance transition (same index; signed by the governor), with `changes` applied on top.
 */
export function nextAlias(
  held: HeldOutput<AliasOutput>,
  changes: Partial<Omit<AliasOutput, 'type' | 'aliasId' | 'immutableFeatures'>> = {},
  transition: 'state' | 'governance' = 'state',
): AliasOutput {
  const a = held.output;
  return {
    ...a,
    aliasId: outputChainId(a, held.outputId)!,
    stateIndex: transition === 'state' ? a.stateIndex + 1 : a.stateIndex,
    ...changes,
  };
}

/** The alias address of a held alias (what owns its foundries and what its alias unlocks unlock). */
export function aliasAddressOf(held: HeldOutput<AliasOutput>): AliasAddress {
  return { type: AddressType.Alias, aliasId: outputChainId(held.output, held.outputId)! };
}

/** A new NFT (id zero) owned by `owner`: its id becomes BLAKE2b-256 of the id of the output made. */
export function newNft(options: { owner: Address; issuer?: Address; metadata?: Uint8Array }): NftOutput {
  return {
    type: OutputType.Nft,
    amount: 0n,
    nativeTokens: [],
    nftId: new Uint8Array(32),
    unlockConditions: [{ type: UnlockConditionType.Address, address: options.owner }],
    features: [],
    immutableFeatures: [...issuerFeatures(options.issuer), ...metadataFeatures(options.metadata)],
  };
}

/** A held NFT passed on: id filled in, immutable features kept; `owner` replaces its unlock conditions. */
export function nextNft(held: HeldOutput<NftOutput>, owner?: Address): NftOutput {
  const n = held.output;
  return {
    ...n,
    nftId: outputChainId(n, held.outputId)!,
    ...(owner === undefined ? {} : { unlockConditions: [{ type: UnlockConditionType.Address, address: owner }] }),
  };
}

/** The NFT address of a held NFT (what its NFT unlocks unlock). */
export function nftAddressOf(held: HeldOutput<NftOutput>) {
  return { type: AddressType.Nft, nftId: outputChainId(held.output, held.outputId)! } as const;
}

/**
 * A new foundry of an alias with serial number `serialNumber` (the alias's foundry counter after this transaction,
 * counting this one), minting `mintedTokens` that the transaction's outputs must hold.
 */
export function newFoundry(options: {
  alias: AliasAddress;
  serialNumber: number;
  maximumSupply: bigint;
  mintedTokens?: bigint;
  metadata?: Uint8Array;
}): FoundryOutput {
  return {
    type: OutputType.Foundry,
    amount: 0n,
    nativeTokens: [],
    serialNumber: options.serialNumber,
    tokenScheme: {
      type: 0,
      mintedTokens: options.mintedTokens ?? 0n,
      meltedTokens: 0n,
      maximumSupply: options.maximumSupply,
    },
    unlockConditions: [{ type: UnlockConditionType.ImmutableAliasAddress, address: options.alias }],
    features: [],
    immutableFeatures: metadataFeatures(options.metadata),
  };
}

/** A held foundry's next state: `mint` more tokens (the outputs gain them) or `melt` some (the inputs lose them). */
export function nextFoundry(held: HeldOutput<FoundryOutput>, change: { mint?: bigint; melt?: bigint }): FoundryOutput {
  const s = held.output.tokenScheme;
  return {
    ...held.output,
    tokenScheme: {
      ...s,
      mintedTokens: s.mintedTokens + (change.mint ?? 0n),
      meltedTokens: s.meltedTokens + (change.melt ?? 0n),
    },
  };
}
