import {
  aliasAddressOf,
  buildTransaction,
  type HeldOutput,
  newAlias,
  newFoundry,
  newNft,
  nextAlias,
  nextFoundry,
  nextNft,
  nftAddressOf,
  signTransaction,
  withMinimumDeposit,
} from '../builders/index.js';
import type { Address } from '../stardust/address.js';
import { foundryId, foundryIdOf, outputId as makeOutputId, transactionId } from '../stardust/ids.js';
import type { NativeToken } from '../stardust/native-token.js';
import type { AliasOutput, FoundryOutput, NftOutput, Output } from '../stardust/output.js';
import type { TransactionPayload } from '../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { FeatureType, OutputType, UnlockConditionType } from '../stardust/type-codes.js';

// The chain side of the simulation: one actor that walks through every TIP-18 chain operation, one transaction per
// step, and starts over: it creates an alias and mints an NFT; the alias creates a foundry that mints native tokens;
// tokens go to the NFT's address and come back when the NFT spends what it owns and changes hands; the alias spends
// what its address owns while its foundry melts tokens; the governor changes the alias's metadata; the NFT is burned;
// the foundry melts and burns what is left and is destroyed; the governor destroys the alias. Every transaction
// passes validateTransaction against the ledger the actor's earlier transactions built.

type Coin = HeldOutput;

const utf8 = new TextEncoder();
/** Base tokens an alias holds beyond its deposit, so that its later states (longer metadata) stay covered. */
const ALIAS_RESERVE = 1_000_000n;

/** The steps of one cycle, in order; `ChainActor.next` runs the next one. */
export const CHAIN_STEPS = [
  'create alias',
  'mint NFT',
  'create foundry, mint tokens',
  'send tokens to the NFT',
  'NFT spends what it owns, changes hands',
  'send funds to the alias',
  'alias spends what it owns, foundry melts',
  'governance transition',
  'burn NFT',
  'melt, burn and destroy foundry',
  'destroy alias',
] as const;
export type ChainStep = (typeof CHAIN_STEPS)[number];

export class ChainActor {
  private step = 0;
  private cycle = 0;
  private fund: Coin;
  private alias: Coin | undefined;
  private foundry: Coin | undefined;
  private nft: Coin | undefined;
  private nftOwner = 0;
  /** The controller's output holding the foundry's tokens, and outputs owned by the NFT's and the alias's addresses. */
  private tokens: Coin | undefined;
  private nftOwned: Coin | undefined;
  private aliasOwned: Coin | undefined;

  /**
   * @param secrets the wallets' keys: the actor's controller is wallet `controller` (it owns `fund`), the alias's
   *   governor is wallet `governor`, and the NFT passes to the others.
   */
  constructor(
    private readonly params: ProtocolParameters,
    private readonly secrets: readonly Uint8Array[],
    private readonly addresses: readonly Address[],
    fund: Coin,
    private readonly random: () => number,
    private readonly controller = 0,
    private readonly governor = 1,
  ) {
    this.fund = fund;
    this.nftOwner = controller;
  }

  /** The step the next call of `next` takes. */
  get nextStep(): ChainStep {
    return CHAIN_STEPS[this.step]!;
  }

  /** The next step's signed transaction, with the actor's state moved on as if the ledger applied it. */
  next(): TransactionPayload {
    const name = this.nextStep;
    const payload = this.run(name);
    this.step = (this.step + 1) % CHAIN_STEPS.length;
    if (this.step === 0) this.cycle++;
    return payload;
  }

  private withDeposit<T extends Output>(o: T, extra = 0n): T {
    return withMinimumDeposit(o, this.params, extra);
  }

  private basic(address: Address, nativeTokens: NativeToken[] = [], extra = 0n): Output {
    return this.withDeposit(
      {
        type: OutputType.Basic,
        amount: 0n,
        nativeTokens,
        unlockConditions: [{ type: UnlockConditionType.Address, address }],
        features: [],
      },
      extra,
    );
  }

  private get me(): Address {
    return this.addresses[this.controller]!;
  }

  private get heldAlias() {
    return this.alias as HeldOutput<AliasOutput>;
  }

  private tokenId(): Uint8Array {
    return foundryIdOf(this.foundry!.output as FoundryOutput);
  }

  /** The alias's next state: a state transition (index + 1, new state metadata) unless `governance`. */
  private aliasNext(changes: Partial<AliasOutput> = {}, governance = false): AliasOutput {
    const a = this.heldAlias.output;
    if (governance) return nextAlias(this.heldAlias, changes, 'governance');
    return nextAlias(this.heldAlias, { stateMetadata: utf8.encode(`state ${a.stateIndex + 1}`), ...changes });
  }

  /**
   * Spends `inputs` (chains before what they own) and the fund into `outputs` plus the change, signed by `keys` (one
   * per input; undefined where a chain unlocks it); returns the payload and the new coins by output index.
   */
  private transact(inputs: Coin[], keys: (number | undefined)[], outputs: Output[]) {
    const all = [...inputs, this.fund];
    const total = all.reduce((a, c) => a + c.output.amount, 0n) - outputs.reduce((a, o) => a + o.amount, 0n);
    const change = { ...this.basic(this.me), amount: total };
    const essence = buildTransaction({
      inputs: all,
      outputs: [...outputs, change],
      params: this.params,
      taggedData: { tag: utf8.encode('chains'), data: utf8.encode(`${this.nextStep}, cycle ${this.cycle}`) },
    });
    const payload = signTransaction(
      essence,
      [...keys, this.controller].map((k) => (k === undefined ? undefined : this.secrets[k])),
      { consumed: all.map((c) => c.output) },
    );
    const txId = transactionId(payload);
    const coins = essence.outputs.map((output, i) => ({ outputId: makeOutputId(txId, i), output }));
    this.fund = coins[coins.length - 1]!;
    return { payload, coins };
  }

  private run(step: ChainStep): TransactionPayload {
    const me = this.me;
    switch (step) {
      case 'create alias': {
        const alias = newAlias({
          stateController: me,
          governor: this.addresses[this.governor]!,
          issuer: me,
          stateMetadata: utf8.encode('state 0'),
        });
        const { payload, coins } = this.transact([], [], [this.withDeposit(alias, ALIAS_RESERVE)]);
        this.alias = coins[0];
        return payload;
      }
      case 'mint NFT': {
        const metadata = utf8.encode(`tangle-core NFT, cycle ${this.cycle}`);
        const { payload, coins } = this.transact(
          [],
          [],
          [this.withDeposit(newNft({ owner: me, issuer: me, metadata }))],
        );
        [this.nft, this.nftOwner] = [coins[0], this.controller];
        return payload;
      }
      case 'create foundry, mint tokens': {
        const minted = 1_000n + BigInt(Math.floor(this.random() * 1_000_000));
        const alias = aliasAddressOf(this.heldAlias);
        const serialNumber = this.heldAlias.output.foundryCounter + 1;
        const metadata = utf8.encode('{"name":"tangle-core token"}');
        const foundry = newFoundry({ alias, serialNumber, maximumSupply: 1n << 64n, mintedTokens: minted, metadata });
        const tokens = this.basic(me, [{ id: foundryId(alias.aliasId, serialNumber), amount: minted }]);
        const { payload, coins } = this.transact(
          [this.alias!],
          [this.controller],
          [this.aliasNext({ foundryCounter: serialNumber }), this.withDeposit(foundry), tokens],
        );
        [this.alias, this.foundry, this.tokens] = [coins[0], coins[1], coins[2]];
        return payload;
      }
      case 'send tokens to the NFT': {
        const held = this.tokens!.output.nativeTokens[0]!.amount;
        const id = this.tokenId();
        const nft = nftAddressOf(this.nft as HeldOutput<NftOutput>);
        const { payload, coins } = this.transact(
          [this.tokens!],
          [this.controller],
          [this.basic(nft, [{ id, amount: held / 4n }]), this.basic(me, [{ id, amount: held - held / 4n }])],
        );
        [this.nftOwned, this.tokens] = [coins[0], coins[1]];
        return payload;
      }
      case 'NFT spends what it owns, changes hands': {
        // The NFT unlocks the output its address owns (an NFT unlock); its tokens join the controller's.
        const others = this.addresses.length - 2; // neither the controller nor the governor
        const to = others > 0 ? 2 + Math.floor(this.random() * others) : this.controller;
        const id = this.tokenId();
        const all = this.tokens!.output.nativeTokens[0]!.amount + this.nftOwned!.output.nativeTokens[0]!.amount;
        const { payload, coins } = this.transact(
          [this.nft!, this.nftOwned!, this.tokens!],
          [this.nftOwner, undefined, this.controller],
          [nextNft(this.nft as HeldOutput<NftOutput>, this.addresses[to]!), this.basic(me, [{ id, amount: all }])],
        );
        [this.nft, this.tokens, this.nftOwned, this.nftOwner] = [coins[0], coins[1], undefined, to];
        return payload;
      }
      case 'send funds to the alias': {
        const { payload, coins } = this.transact([], [], [this.basic(aliasAddressOf(this.heldAlias), [], 1_000_000n)]);
        this.aliasOwned = coins[0];
        return payload;
      }
      case 'alias spends what it owns, foundry melts': {
        const held = this.tokens!.output.nativeTokens[0]!.amount;
        const melt = held / 10n;
        const { payload, coins } = this.transact(
          [this.alias!, this.foundry!, this.aliasOwned!, this.tokens!],
          [this.controller, undefined, undefined, this.controller],
          [
            this.aliasNext(),
            nextFoundry(this.foundry as HeldOutput<FoundryOutput>, { melt }),
            this.basic(me, [{ id: this.tokenId(), amount: held - melt }]),
          ],
        );
        [this.alias, this.foundry, this.tokens, this.aliasOwned] = [coins[0], coins[1], coins[2], undefined];
        return payload;
      }
      case 'governance transition': {
        const note = utf8.encode(`governed in cycle ${this.cycle}`);
        const next = this.aliasNext({ features: [{ type: FeatureType.Metadata, data: note }] }, true);
        const { payload, coins } = this.transact([this.alias!], [this.governor], [next]);
        this.alias = coins[0];
        return payload;
      }
      case 'burn NFT': {
        const { payload } = this.transact([this.nft!], [this.nftOwner], []);
        this.nft = undefined;
        return payload;
      }
      case 'melt, burn and destroy foundry': {
        // The tokens left are all of the foundry's circulating supply: they are burned, and the foundry is destroyed.
        const { payload, coins } = this.transact(
          [this.alias!, this.foundry!, this.tokens!],
          [this.controller, undefined, this.controller],
          [this.aliasNext()],
        );
        [this.alias, this.foundry, this.tokens] = [coins[0], undefined, undefined];
        return payload;
      }
      case 'destroy alias': {
        const { payload } = this.transact([this.alias!], [this.governor], []);
        this.alias = undefined;
        return payload;
      }
    }
  }
}
