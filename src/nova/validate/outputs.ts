import { encode } from '../../codec/index.js';
import { bytesKey, compareBytes, equalBytes } from '../../util/bytes.js';
import { type Address, address as addressCodec, type MultiAddress } from '../address.js';
import type { Feature } from '../feature.js';
import { foundryId } from '../ids.js';
import type { Output } from '../output.js';
import type { ProtocolParameters } from '../protocol-parameters.js';
import { minimumDeposit } from '../scores.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType as UC } from '../type-codes.js';
import type { UnlockCondition } from '../unlock-condition.js';
import { fail } from './fail.js';

// The syntactic rules of a transaction's outputs (TIPs 38–54; iota.go v4 output.go `OutputsSyntactical*` and the
// address validators of api_common.go), each with its ValidationError code and the path of the offending field.

const isZero = (id: Uint8Array) => id.every((b) => b === 0);

/** Restricted addresses' capability bits (TIP-50), in bit order; the bitmask has no other bit and no trailing zero. */
const CAN_RECEIVE = [
  'nativeTokens',
  'mana',
  'timelock',
  'expiration',
  'storageDepositReturn',
  'account',
  'anchor',
  'nft',
  'delegation',
];

/** A bitmask of `bits` known bits, without a trailing zero byte. */
export function checkBitmask(mask: Uint8Array, bits: number, path: string): void {
  if (mask.length > 0 && mask[mask.length - 1] === 0)
    fail('CAPABILITIES_INVALID', 'a bitmask ends in a zero byte', path);
  for (let i = 0; i < mask.length; i++) {
    const known = Math.min(8, Math.max(0, bits - 8 * i));
    if (mask[i]! >> known !== 0)
      fail('CAPABILITIES_INVALID', `byte ${i} sets a capability bit that does not exist`, path);
  }
}

function checkMulti(a: MultiAddress, path: string): void {
  let weight = 0;
  let previous: Uint8Array | undefined;
  a.addresses.forEach((w, i) => {
    const key = encode(addressCodec, w.address);
    if (previous !== undefined && compareBytes(previous, key) >= 0) {
      fail('MULTI_ADDRESS_INVALID', 'the addresses are not in ascending order, each once', `${path}.addresses[${i}]`);
    }
    previous = key;
    if (w.weight === 0) fail('MULTI_ADDRESS_INVALID', 'a weight is at least 1', `${path}.addresses[${i}].weight`);
    weight += w.weight;
  });
  if (a.threshold < 1 || a.threshold > weight) {
    fail('MULTI_ADDRESS_INVALID', `the threshold is 1..${weight} (the sum of the weights)`, `${path}.threshold`);
  }
}

/** The rules of an address itself: a multi address's weights and order, a restricted address's bitmask. */
export function checkAddress(a: Address, path: string): void {
  if (a.type === AddressType.Multi) checkMulti(a, path);
  if (a.type === AddressType.Restricted) {
    checkBitmask(a.allowedCapabilities, CAN_RECEIVE.length, `${path}.allowedCapabilities`);
    if (a.address.type === AddressType.Multi) checkMulti(a.address, `${path}.address`);
  }
}

/** What an output needs its owner to be able to receive (TIP-50). */
function needs(o: Output): string[] {
  const need: string[] = [];
  if (o.type !== OutputType.Delegation && o.features.some((f: Feature) => f.type === FeatureType.NativeToken)) {
    need.push('nativeTokens');
  }
  if ('mana' in o && o.mana !== 0n) need.push('mana');
  const has = (t: number) => o.unlockConditions.some((c) => c.type === t);
  if (has(UC.Timelock)) need.push('timelock');
  if (has(UC.Expiration)) need.push('expiration');
  if (has(UC.StorageDepositReturn)) need.push('storageDepositReturn');
  const kind = { [OutputType.Account]: 'account', [OutputType.Anchor]: 'anchor', [OutputType.Nft]: 'nft' } as const;
  if (o.type === OutputType.Account || o.type === OutputType.Anchor || o.type === OutputType.Nft)
    need.push(kind[o.type]);
  if (o.type === OutputType.Delegation) need.push('delegation');
  return need;
}

function checkRestriction(o: Output, a: Address, path: string): void {
  if (a.type !== AddressType.Restricted) return;
  for (const n of needs(o)) {
    const bit = CAN_RECEIVE.indexOf(n);
    if (((a.allowedCapabilities[bit >> 3] ?? 0) & (1 << (bit & 7))) === 0) {
      fail('ADDRESS_CAPABILITY_MISSING', `the restricted address cannot receive ${n}`, path);
    }
  }
}

/** Sorted by type, each type once: unlock conditions and (immutable) features. */
function checkTypeOrder(
  list: readonly { type: number }[],
  code: 'UNLOCK_CONDITIONS_NOT_SORTED' | 'FEATURES_NOT_SORTED',
  path: string,
): void {
  for (let i = 1; i < list.length; i++) {
    if (list[i]!.type <= list[i - 1]!.type) fail(code, 'not in ascending type order, each type once', `${path}[${i}]`);
  }
}

function checkCondition(o: Output, c: UnlockCondition, path: string): void {
  if ('address' in c) checkAddress(c.address, `${path}.address`);
  if ('returnAddress' in c) checkAddress(c.returnAddress, `${path}.returnAddress`);
  if ((c.type === UC.Timelock || c.type === UC.Expiration) && c.slot === 0)
    fail('SLOT_ZERO', 'slot 0 is not a time', `${path}.slot`);
  if (
    c.type === UC.Address ||
    c.type === UC.StateControllerAddress ||
    c.type === UC.GovernorAddress ||
    c.type === UC.Expiration
  ) {
    const a = c.type === UC.Expiration ? c.returnAddress : c.address;
    checkRestriction(o, a, path);
  }
  if (c.type === UC.Address && c.address.type === AddressType.ImplicitAccountCreation && o.type !== OutputType.Basic) {
    fail(
      'IMPLICIT_ACCOUNT_ADDRESS_NOT_ALLOWED',
      'only a basic output may be owned by an implicit account creation address',
      `${path}.address`,
    );
  }
}

/** The id of a chain output (account, anchor, NFT, delegation), or undefined for a basic or foundry output. */
function chainIdOf(o: Output): Uint8Array | undefined {
  if (o.type === OutputType.Account) return o.accountId;
  if (o.type === OutputType.Anchor) return o.anchorId;
  if (o.type === OutputType.Nft) return o.nftId;
  if (o.type === OutputType.Delegation) return o.delegationId;
  return undefined;
}

/** The chain an output continues, keyed for uniqueness; undefined for a new chain (all-zero id) or none. */
function chainKey(o: Output): string | undefined {
  const id = chainIdOf(o);
  return id === undefined || isZero(id) ? undefined : `${o.type}:${bytesKey(id)}`;
}

/** The address kind that names an account's, anchor's or NFT's own chain (a delegation has no address). */
const OWN_ADDRESS: Partial<Record<number, number>> = {
  [OutputType.Account]: AddressType.Account,
  [OutputType.Anchor]: AddressType.Anchor,
  [OutputType.Nft]: AddressType.Nft,
};
function ownId(o: Output): [number, Uint8Array] | undefined {
  const kind = OWN_ADDRESS[o.type];
  return kind === undefined ? undefined : [kind, chainIdOf(o)!];
}
const idOf = (a: Address): Uint8Array | undefined =>
  a.type === AddressType.Account
    ? a.accountId
    : a.type === AddressType.Anchor
      ? a.anchorId
      : a.type === AddressType.Nft
        ? a.nftId
        : undefined;

function checkKind(o: Output, path: string): void {
  if (o.type === OutputType.Account && isZero(o.accountId) && o.foundryCounter !== 0) {
    fail('CHAIN_STATE_NOT_EMPTY', 'a new account has a foundry counter of 0', `${path}.foundryCounter`);
  }
  if (o.type === OutputType.Anchor && isZero(o.anchorId) && o.stateIndex !== 0) {
    fail('CHAIN_STATE_NOT_EMPTY', 'a new anchor has a state index of 0', `${path}.stateIndex`);
  }
  const own = ownId(o);
  if (own !== undefined && !isZero(own[1])) {
    o.unlockConditions.forEach((c, i) => {
      if ('address' in c && c.address.type === own[0] && equalBytes(idOf(c.address)!, own[1])) {
        fail(
          'CHAIN_SELF_CONTROLLED',
          'the output is unlocked by its own address',
          `${path}.unlockConditions[${i}].address`,
        );
      }
    });
  }
  if (o.type === OutputType.Account) {
    const staking = o.features.find((f) => f.type === FeatureType.Staking);
    if (staking !== undefined) {
      if (o.amount < staking.stakedAmount)
        fail('STAKED_AMOUNT_EXCEEDS_AMOUNT', 'the account stakes more than it holds', `${path}.features`);
      if (!o.features.some((f) => f.type === FeatureType.BlockIssuer)) {
        fail('BLOCK_ISSUER_FEATURE_MISSING', 'a staking account is a block issuer', `${path}.features`);
      }
    }
  }
  if (o.type === OutputType.Foundry) {
    if (o.serialNumber === 0)
      fail('FOUNDRY_SERIAL_INVALID', 'a foundry serial number starts at 1', `${path}.serialNumber`);
    const { mintedTokens: minted, meltedTokens: melted, maximumSupply: max } = o.tokenScheme;
    if (max === 0n || melted > minted || minted - melted > max) {
      fail('TOKEN_SCHEME_INVALID', 'minted, melted and maximum supply are inconsistent', `${path}.tokenScheme`);
    }
    const token = o.features.findIndex((f) => f.type === FeatureType.NativeToken);
    const account = o.unlockConditions[0]!.address.accountId;
    if (
      token >= 0 &&
      !equalBytes((o.features[token] as { id: Uint8Array }).id, foundryId(account, o.serialNumber, o.tokenScheme.type))
    ) {
      fail('FOUNDRY_NATIVE_TOKEN_MISMATCH', "a foundry's native token is its own", `${path}.features[${token}].id`);
    }
  }
  if (o.type === OutputType.Delegation && isZero(o.validatorAddress.accountId)) {
    fail('DELEGATION_VALIDATOR_EMPTY', 'the validator is an account', `${path}.validatorAddress`);
  }
}

function checkFeatures(list: readonly Feature[], path: string): void {
  checkTypeOrder(list, 'FEATURES_NOT_SORTED', path);
  list.forEach((f, i) => {
    const at = `${path}[${i}]`;
    if (f.type === FeatureType.Sender || f.type === FeatureType.Issuer) checkAddress(f.address, `${at}.address`);
    if (f.type === FeatureType.NativeToken && f.amount === 0n)
      fail('NATIVE_TOKEN_AMOUNT_ZERO', 'a native token amount is above 0', `${at}.amount`);
    if (f.type === FeatureType.BlockIssuer) {
      for (let k = 1; k < f.blockIssuerKeys.length; k++) {
        if (compareBytes(f.blockIssuerKeys[k - 1]!.pubKeyHash, f.blockIssuerKeys[k]!.pubKeyHash) >= 0) {
          fail(
            'BLOCK_ISSUER_KEYS_NOT_SORTED',
            'the keys are not in ascending order, each once',
            `${at}.blockIssuerKeys[${k}]`,
          );
        }
      }
    }
  });
}

/**
 * Every rule of `outputs` alone: each output's own, then across them (the sum of amounts within the supply, of stored
 * mana within its bits, each chain once). `hasCommitment` says whether the transaction has a commitment input, which
 * staking, block issuers and delegations need.
 */
export function checkOutputs(
  params: ProtocolParameters,
  outputs: readonly Output[],
  hasCommitment: boolean,
  path: string,
): void {
  const maxMana = (1n << BigInt(params.manaParameters.bitsCount)) - 1n;
  const chains = new Set<string>();
  let amounts = 0n;
  let mana = 0n;
  outputs.forEach((o, i) => {
    const at = `${path}[${i}]`;
    checkTypeOrder(o.unlockConditions, 'UNLOCK_CONDITIONS_NOT_SORTED', `${at}.unlockConditions`);
    if (o.type !== OutputType.Delegation) checkFeatures(o.features, `${at}.features`);
    if ('immutableFeatures' in o) checkFeatures(o.immutableFeatures, `${at}.immutableFeatures`);
    o.unlockConditions.forEach((c, k) => checkCondition(o, c, `${at}.unlockConditions[${k}]`));
    checkKind(o, at);
    if (o.amount === 0n) fail('AMOUNT_OUT_OF_RANGE', 'an output holds base tokens', `${at}.amount`);
    amounts += o.amount;
    if (amounts > params.tokenSupply)
      fail('TOTAL_AMOUNT_EXCEEDS_SUPPLY', `the outputs hold more than ${params.tokenSupply}`, `${at}.amount`);
    const deposit = minimumDeposit(params, o);
    if (o.amount < deposit)
      fail('STORAGE_DEPOSIT_INSUFFICIENT', `${o.amount} is below the minimum deposit ${deposit}`, `${at}.amount`);
    const sdr = o.unlockConditions.findIndex((c) => c.type === UC.StorageDepositReturn);
    if (sdr >= 0) {
      const c = o.unlockConditions[sdr] as { returnAddress: Address; amount: bigint };
      const back: Output = {
        type: OutputType.Basic,
        amount: 0n,
        mana: 0n,
        features: [],
        unlockConditions: [{ type: UC.Address, address: c.returnAddress }],
      };
      if (c.amount < minimumDeposit(params, back) || c.amount > o.amount) {
        fail(
          'STORAGE_DEPOSIT_RETURN_INVALID',
          'the return covers a basic output to the return address, within the amount',
          `${at}.unlockConditions[${sdr}].amount`,
        );
      }
    }
    if ('mana' in o) {
      mana += o.mana;
      if (mana > maxMana) fail('MANA_OUT_OF_RANGE', `the outputs store more than ${maxMana} mana`, `${at}.mana`);
    }
    const chain = chainKey(o);
    if (chain !== undefined) {
      if (chains.has(chain)) fail('CHAIN_OUTPUT_DUPLICATED', 'another output already continues this chain', at);
      chains.add(chain);
    }
    const needsCommitment =
      o.type === OutputType.Delegation ||
      (o.type === OutputType.Account &&
        o.features.some((f) => f.type === FeatureType.Staking || f.type === FeatureType.BlockIssuer));
    if (needsCommitment && !hasCommitment) fail('COMMITMENT_INPUT_MISSING', 'this output needs a commitment input', at);
  });
}
