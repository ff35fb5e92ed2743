// TIP-18 chains in validateTransaction: creating, transitioning and destroying aliases, foundries (with their native
// tokens) and NFTs. Each verdict is compared with @iota/sdk-wasm's Utils.verifyTransactionSemantic ("None" when
// valid), on hand-made cases and on random ones; where iota-sdk is lenient and TIP-18 strict, the test says so.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AliasOutput,
  buildTransaction,
  chainId,
  minStorageDeposit,
  type NftOutput,
  type Output,
  outputId,
  signTransaction,
  toHex,
  transactionPayloadToJson,
  validateTransaction,
} from '../../src/index.js';
import {
  ALIAS_A,
  alias,
  basic,
  heldAlias,
  nft,
  owner,
  P,
  SDK_PARAMS,
  sdk,
  secret,
  TIME,
  verdicts,
} from '../helpers/sdk-verdicts.js';

describe('creating an alias or an NFT', () => {
  it('an NFT minted by its issuer, and one with no issuer: valid, as iota-sdk says', () => {
    expect(verdicts([nft(1)])).toMatchObject({ ours: 'valid', theirs: 'None' });
    expect(verdicts([nft(undefined)])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('an alias created with its issuer unlocked: valid, as iota-sdk says', () => {
    expect(verdicts([alias(1)])).toMatchObject({ ours: 'valid', theirs: 'None' });
    expect(verdicts([alias(undefined), nft(1)])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('ISSUER_NOT_UNLOCKED: the issuer of a new NFT or alias is an address the transaction does not unlock', () => {
    const a = verdicts([nft(3)]);
    expect(a.ours).toEqual(['ISSUER_NOT_UNLOCKED', 'essence.outputs[0].immutableFeatures[0].address']);
    expect(a.theirs).toBe('InvalidChainStateTransition');
    const b = verdicts([nft(1), alias(4)]);
    expect(b.ours).toEqual(['ISSUER_NOT_UNLOCKED', 'essence.outputs[1].immutableFeatures[0].address']);
    expect(b.theirs).toBe('InvalidChainStateTransition');
  });
  it("an NFT's sender feature is checked like a basic output's", () => {
    const a = verdicts([nft(1, { features: [{ type: 0, address: owner(5) }] })]);
    expect(a.ours).toEqual(['SENDER_NOT_UNLOCKED', 'essence.outputs[0].features[0].address']);
    expect(a.theirs).not.toBe('None');
    expect(verdicts([nft(1, { features: [{ type: 0, address: owner(1) }] })])).toMatchObject({
      ours: 'valid',
      theirs: 'None',
    });
  });
  it('a storage deposit return is met by a basic output only: an NFT with just an Address condition does not count', () => {
    const owed = 100_000n;
    const input = {
      ...basic(owner(1), 10_000_000n),
      unlockConditions: [
        { type: 0 as const, address: owner(1) },
        { type: 1 as const, returnAddress: owner(2), amount: owed },
      ],
    } as Output;
    // An NFT to the return address (owner 2), holding more than is owed, with nothing but its Address condition.
    const plain = nft(undefined, { immutableFeatures: [] });
    const deposit = minStorageDeposit(plain, P.rentStructure);
    const a = verdicts([{ ...plain, amount: deposit > owed ? deposit : owed }], [input]);
    expect(a.ours).toEqual(['STORAGE_DEPOSIT_RETURN_UNFULFILLED', 'essence.outputs']);
    expect(a.theirs).toBe('StorageDepositReturnUnfulfilled');
    // The same amount in a basic output to the return address is the fulfilment.
    expect(verdicts([basic(owner(2), owed)], [input])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
});

describe('chain outputs with no input of their chain', () => {
  it('an NFT or alias with a non-zero id and no input of that chain: refused by both', () => {
    const a = verdicts([nft(1, { nftId: new Uint8Array(32).fill(7) })]);
    expect(a.ours).toEqual(['CHAIN_INPUT_MISSING', 'essence.outputs[0].nftId']);
    expect(a.theirs).toBe('InvalidChainStateTransition');
    const b = verdicts([alias(1, { aliasId: new Uint8Array(32).fill(7) })]);
    expect(b.ours).toEqual(['CHAIN_INPUT_MISSING', 'essence.outputs[0].aliasId']);
    expect(b.theirs).toBe('InvalidChainStateTransition');
  });
  it('an id with some zero bytes is not a new chain; a foundry whose alias is not in the transaction is refused', () => {
    const almost = new Uint8Array(32);
    almost[31] = 1;
    expect(verdicts([nft(1, { nftId: almost })]).ours).toEqual(['CHAIN_INPUT_MISSING', 'essence.outputs[0].nftId']);
    const foundry = {
      type: 5 as const,
      amount: 0n,
      nativeTokens: [],
      serialNumber: 1,
      tokenScheme: { type: 0 as const, mintedTokens: 0n, meltedTokens: 0n, maximumSupply: 10n },
      unlockConditions: [{ type: 6 as const, address: { type: 8 as const, aliasId: new Uint8Array(32).fill(3) } }],
      features: [],
      immutableFeatures: [],
    };
    const { ours, theirs } = verdicts([foundry]);
    expect(ours).toEqual(['FOUNDRY_ALIAS_NOT_TRANSITIONED', 'essence.outputs[0].unlockConditions[0].address']);
    expect(theirs).toBe('InvalidChainStateTransition');
  });
});

describe('alias transitions (TIP-18), each verdict as iota-sdk gives it', () => {
  const aliasAddress = { type: 8 as const, aliasId: ALIAS_A };
  const held = heldAlias;
  const fund = basic(owner(1), 10_000_000n);
  const governorFund = basic(owner(3), 10_000_000n);

  it('a state transition by the state controller: next index, new state metadata and amount', () => {
    const next = held({ stateIndex: 5, stateMetadata: Uint8Array.of(1, 2), amount: 2_000_000n });
    expect(verdicts([next], [held(), fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('a state transition signed by the governor: the state controller must sign', () => {
    const a = verdicts([held({ stateIndex: 5 })], [held(), governorFund], {}, [3, 3]);
    expect(a.ours).toEqual(['SIGNATURE_ADDRESS_MISMATCH', 'unlocks[0].signature.publicKey']);
    expect(a.theirs).not.toBe('None');
  });
  it('a governance transition by the governor: new controllers, same state', () => {
    const next = held({
      unlockConditions: [
        { type: 4, address: owner(2) },
        { type: 5, address: owner(3) },
      ],
    });
    expect(verdicts([next], [held(), governorFund], {}, [3, 3])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('ALIAS_TRANSITION_INVALID: what each kind of transition may not change', () => {
    const cases: [Partial<AliasOutput>, number, string][] = [
      [{ amount: 2_000_000n }, 3, 'amount'],
      [{ stateMetadata: Uint8Array.of(7) }, 3, 'stateMetadata'],
      [{ foundryCounter: 3 }, 3, 'foundryCounter'],
      [{ stateIndex: 6 }, 3, 'stateIndex'],
      [{ stateIndex: 3 }, 3, 'stateIndex'],
      [{ stateIndex: 5, foundryCounter: 3 }, 1, 'foundryCounter'],
      [{ stateIndex: 5, features: [{ type: 2, data: Uint8Array.of(5) }] }, 1, 'features'],
      [{ nativeTokens: [] }, 3, 'nativeTokens'],
      [
        {
          stateIndex: 5,
          unlockConditions: [
            { type: 4, address: owner(1) },
            { type: 5, address: owner(1) },
          ],
        },
        1,
        'unlockConditions',
      ],
    ];
    const token = { id: Uint8Array.of(8, ...new Uint8Array(32).fill(4), 1, 0, 0, 0, 0), amount: 5n };
    for (const [change, key, field] of cases) {
      const funds = key === 3 ? governorFund : fund;
      const input = field === 'nativeTokens' ? held({ nativeTokens: [token] }) : held();
      const a = verdicts([held(change)], [input, funds], {}, [key, key]);
      expect(a.ours, field).toEqual(['ALIAS_TRANSITION_INVALID', `essence.outputs[0].${field}`]);
      expect(a.theirs, field).not.toBe('None');
    }
  });
  it("a state index past 2^32 − 1 wraps to 0, as iota.go's uint32 arithmetic has it (hornet: a valid state transition)", () => {
    // iota.go (vm/stardust, aliasStateSTVF): `current.StateIndex+1 != next.StateIndex` on uint32, so 4294967295 + 1
    // is 0: a state transition to 0, unlocked by the state controller (key 1). Any other index after it is refused.
    const last = held({ stateIndex: 0xffffffff });
    expect(verdicts([held({ stateIndex: 0 })], [last, fund], {}, [1, 1]).ours).toBe('valid');
    // Unlocked by the governor instead (key 3): a state transition wants the state controller.
    expect(verdicts([held({ stateIndex: 0 })], [last, governorFund], {}, [3, 3]).ours).not.toBe('valid');
    // Neither the same index nor the next: the governor's (key 3) transition, refused for its index.
    for (const index of [1, 0xfffffffe]) {
      const a = verdicts([held({ stateIndex: index })], [last, governorFund], {}, [3, 3]);
      expect(a.ours, String(index)).toEqual(['ALIAS_TRANSITION_INVALID', 'essence.outputs[0].stateIndex']);
    }
  });
  it('a state transition may add a sender feature (only the metadata feature is fixed)', () => {
    const next = held({ stateIndex: 5, features: [{ type: 0, address: owner(1) }] });
    expect(verdicts([next], [held(), fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('destroyed by its governor (no successor)', () => {
    expect(verdicts([basic(owner(3), 1_000_000n)], [held(), governorFund], {}, [3, 3])).toMatchObject({
      ours: 'valid',
      theirs: 'None',
    });
  });
  it('an output owned by the alias is unlocked by an alias unlock, in a state transition only', () => {
    const owned = basic(aliasAddress, 2_000_000n);
    const state = verdicts([held({ stateIndex: 5, amount: 3_000_000n })], [held(), owned], {
      1: { type: 2, reference: 0 },
    });
    expect(state).toMatchObject({ ours: 'valid', theirs: 'None' });
    const governance = verdicts(
      [held({ amount: 1_000_000n }), basic(owner(3), 2_000_000n)],
      [held(), owned],
      {
        1: { type: 2, reference: 0 },
      },
      [3, 3],
    );
    expect(governance.ours).toEqual(['UNLOCK_INVALID', 'unlocks[1]']);
    expect(governance.theirs).not.toBe('None');
  });
  it("an alias unlock must point at its own alias's input, not at another alias unlocked in the same transaction", () => {
    const B = new Uint8Array(32).fill(0x0b);
    const owned = basic(aliasAddress, 2_000_000n);
    // Both aliases in a state transition by the same controller: each has unlocked its own address.
    const outputs = [held({ stateIndex: 5, amount: 3_000_000n }), held({ aliasId: B, stateIndex: 5 })];
    const consumed = [held(), held({ aliasId: B }), owned];
    const right = verdicts(outputs, consumed, { 2: { type: 2, reference: 0 } });
    expect(right).toMatchObject({ ours: 'valid', theirs: 'None' });
    const wrong = verdicts(outputs, consumed, { 2: { type: 2, reference: 1 } });
    expect(wrong.ours).toEqual(['UNLOCK_INVALID', 'unlocks[2]']);
    expect(wrong.theirs).not.toBe('None');
  });
  it('signTransaction, given the consumed outputs, writes the alias unlock itself', () => {
    const consumed = [held(), basic(aliasAddress, 2_000_000n)];
    const inputs = consumed.map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0x81), i), output }));
    const next = held({ stateIndex: 5, amount: 3_000_000n });
    const tx = signTransaction(buildTransaction({ inputs, outputs: [next], params: P }), [secret(1), undefined], {
      consumed,
    });
    expect(tx.unlocks[1]).toEqual({ type: 2, reference: 0 });
    validateTransaction(tx, { consumedOutputs: consumed, params: P, time: TIME });
  });
});

describe('NFT transitions (TIP-18), each verdict as iota-sdk gives it', () => {
  const X = new Uint8Array(32).fill(7);
  /** An NFT X of key 1 with an issuer (key 5, not unlocked here: a transition needs no issuer) and metadata. */
  const held = (extra: Partial<NftOutput> = {}) =>
    nft(5, { nftId: X, amount: 1_000_000n, unlockConditions: [{ type: 0, address: owner(1) }], ...extra });
  const moved = (extra: Partial<NftOutput> = {}) =>
    nft(5, { nftId: X, amount: 1_000_000n, unlockConditions: [{ type: 0, address: owner(2) }], ...extra });
  const nftAddress = (id: Uint8Array) => ({ type: 16 as const, nftId: id });
  const fund = basic(owner(1), 10_000_000n);

  it('a transfer: same id, same immutable features, a new owner', () => {
    expect(verdicts([moved()], [held(), fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
  it('CHAIN_IMMUTABLE_CHANGED: other immutable metadata, or the issuer dropped', () => {
    const other = moved({
      immutableFeatures: [
        { type: 1, address: owner(5) },
        { type: 2, data: Uint8Array.of(9) },
      ],
    });
    const a = verdicts([other], [held(), fund]);
    expect(a.ours).toEqual(['CHAIN_IMMUTABLE_CHANGED', 'essence.outputs[0].immutableFeatures']);
    expect(a.theirs).not.toBe('None');
    const b = verdicts([moved({ immutableFeatures: [{ type: 2, data: Uint8Array.of(1, 2, 3) }] })], [held(), fund]);
    expect(b.ours).toEqual(['CHAIN_IMMUTABLE_CHANGED', 'essence.outputs[0].immutableFeatures']);
    expect(b.theirs).not.toBe('None');
  });
  it('CHAIN_OUTPUT_DUPLICATED: two outputs continue one NFT (iota-sdk refuses it in its syntactic check)', () => {
    const a = verdicts([moved(), moved()], [held(), fund]);
    expect(a.ours).toEqual(['CHAIN_OUTPUT_DUPLICATED', 'essence.outputs[1].nftId']);
    expect(a.theirs).toBe('None'); // verifyTransactionSemantic does not look: the essence's syntax rules do
    let syntax = '';
    try {
      sdk.Utils.verifyTransactionSyntax(transactionPayloadToJson(a.tx), SDK_PARAMS);
    } catch (e) {
      syntax = JSON.stringify(e); // sdk-wasm 1.1.3 throws {type: 'error', payload: {…}}
    }
    expect(syntax).toContain(`duplicate output chain ${toHex(X)}`);
  });
  it('an NFT created with id zero is continued under the id of the output that created it', () => {
    const fresh = held({ nftId: new Uint8Array(32) });
    const id = chainId(outputId(new Uint8Array(32).fill(0x81), 0));
    expect(verdicts([moved({ nftId: id })], [fresh, fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
    const a = verdicts([moved({ nftId: X })], [fresh, fund]);
    expect(a.ours).toEqual(['CHAIN_INPUT_MISSING', 'essence.outputs[0].nftId']);
    expect(a.theirs).not.toBe('None');
  });
  it("an output owned by the NFT's address is unlocked by an NFT unlock pointing at the NFT's input", () => {
    const owned = basic(nftAddress(X), 2_000_000n);
    expect(verdicts([moved()], [held(), owned], { 1: 0 })).toMatchObject({ ours: 'valid', theirs: 'None' });
    // A signature, or an NFT unlock pointing elsewhere, does not unlock it.
    const signed = verdicts([moved()], [held(), owned]);
    expect(signed.ours).toEqual(['UNLOCK_INVALID', 'unlocks[1]']);
    expect(signed.theirs).not.toBe('None');
    const other = basic(nftAddress(new Uint8Array(32).fill(8)), 2_000_000n);
    const wrong = verdicts([moved()], [held(), other], { 1: 0 });
    expect(wrong.ours).toEqual(['UNLOCK_INVALID', 'unlocks[1]']);
    expect(wrong.theirs).not.toBe('None');
  });
  it("an NFT unlock must point at its own NFT's input, not at another NFT unlocked in the same transaction", () => {
    const Y = new Uint8Array(32).fill(0x0b);
    const owned = basic(nftAddress(X), 2_000_000n);
    const outputs = [moved({ amount: 3_000_000n }), moved({ nftId: Y })];
    const consumed = [held(), held({ nftId: Y }), owned];
    expect(verdicts(outputs, consumed, { 2: 0 })).toMatchObject({ ours: 'valid', theirs: 'None' });
    const wrong = verdicts(outputs, consumed, { 2: 1 });
    expect(wrong.ours).toEqual(['UNLOCK_INVALID', 'unlocks[2]']);
    expect(wrong.theirs).not.toBe('None');
  });
  it('an NFT in the inputs makes its address a valid sender; absent, it is not', () => {
    const sent = basic(owner(3), 1_000_000n, [{ type: 0, address: nftAddress(X) }]);
    expect(verdicts([moved(), sent], [held(), fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
    const a = verdicts([sent], [fund]);
    expect(a.ours).toEqual(['SENDER_NOT_UNLOCKED', 'essence.outputs[0].features[0].address']);
    expect(a.theirs).not.toBe('None');
  });
  it('signTransaction, given the consumed outputs, writes the NFT unlock itself (no key needed for that input)', () => {
    const owned = basic(nftAddress(X), 2_000_000n);
    const consumed = [held(), owned];
    const inputs = consumed.map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0x81), i), output }));
    const essence = buildTransaction({ inputs, outputs: [moved({ amount: 3_000_000n })], params: P });
    const tx = signTransaction(essence, [secret(1), undefined], { consumed });
    expect(tx.unlocks[1]).toEqual({ type: 3, reference: 0 });
    validateTransaction(tx, { consumedOutputs: consumed, params: P, time: TIME });
    // Without the consumed outputs it cannot know: the missing key is a TypeError. The NFT after what it owns: a
    // RangeError.
    expect(() => signTransaction(essence, [secret(1), undefined])).toThrow(TypeError);
    const reversed = [owned, held()];
    const backwards = buildTransaction({
      inputs: reversed.map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0x81), i), output })),
      outputs: [moved({ amount: 3_000_000n })],
      params: P,
    });
    expect(() => signTransaction(backwards, [undefined, secret(1)], { consumed: reversed })).toThrow(RangeError);
  });
  it('timelock, expiration and storage deposit return apply to an NFT input as to a basic one', () => {
    // Timelocked past TIME: refused; expired (TIME ≥ its unix time): the return address (key 3) must unlock it.
    const locked = held({
      unlockConditions: [
        { type: 0, address: owner(1) },
        { type: 2, unixTime: TIME + 1 },
      ],
    });
    const a = verdicts([moved()], [locked, fund]);
    expect(a.ours).toEqual(['TIMELOCK_NOT_EXPIRED', 'essence.inputs[0]']);
    expect(a.theirs).toBe('TimelockNotExpired');
    expect(
      verdicts(
        [moved()],
        [
          held({
            unlockConditions: [
              { type: 0, address: owner(1) },
              { type: 2, unixTime: TIME },
            ],
          }),
          fund,
        ],
      ),
    ).toMatchObject({ ours: 'valid', theirs: 'None' });
    const expiring = held({
      unlockConditions: [
        { type: 0, address: owner(1) },
        { type: 3, returnAddress: owner(3), unixTime: TIME },
      ],
    });
    const b = verdicts([moved()], [expiring, fund]);
    expect(b.ours).toEqual(['SIGNATURE_ADDRESS_MISMATCH', 'unlocks[0].signature.publicKey']);
    expect(b.theirs).not.toBe('None');
    expect(verdicts([moved()], [expiring, basic(owner(3), 10_000_000n)], {}, [3, 3])).toMatchObject({
      ours: 'valid',
      theirs: 'None',
    });
    // A storage deposit return: 500,000 back to key 4 in a basic output, or refused.
    const owing = held({
      unlockConditions: [
        { type: 0, address: owner(1) },
        { type: 1, returnAddress: owner(4), amount: 500_000n },
      ],
    });
    const c = verdicts([moved()], [owing, fund]);
    expect(c.ours).toEqual(['STORAGE_DEPOSIT_RETURN_UNFULFILLED', 'essence.outputs']);
    expect(c.theirs).toBe('StorageDepositReturnUnfulfilled');
    expect(verdicts([moved(), basic(owner(4), 500_000n)], [owing, fund])).toMatchObject({
      ours: 'valid',
      theirs: 'None',
    });
  });
  it('an NFT without a successor is destroyed (TIP-18 allows it); its funds go on', () => {
    expect(verdicts([basic(owner(2), 1_000_000n)], [held(), fund])).toMatchObject({ ours: 'valid', theirs: 'None' });
  });
});

describe('property: random alias and NFT creations, our verdict agrees with iota-sdk', () => {
  it('valid exactly when every issuer is unlocked and every sender too', () => {
    const issuer = fc.option(fc.constantFrom(1, 3), { nil: undefined });
    const chain = fc.oneof(
      fc
        .record({ issuer, sender: fc.option(fc.constantFrom(1, 4), { nil: undefined }) })
        .map(({ issuer, sender }) =>
          nft(issuer, { features: sender === undefined ? [] : [{ type: 0, address: owner(sender) }] }),
        ),
      issuer.map((i) => alias(i)),
    );
    fc.assert(
      fc.property(fc.array(chain, { minLength: 1, maxLength: 4 }), (outputs) => {
        const { ours, theirs } = verdicts(outputs);
        expect(ours === 'valid').toBe(theirs === 'None');
      }),
      { numRuns: 60 },
    );
  });
});
