import { buildTransaction, signTransaction } from '../builders/index.js';
import { blake2b256, ed25519PublicKey } from '../crypto/index.js';
import { type GenesisState, workScore } from '../ledger/index.js';
import { encodeBlock } from '../serialize.js';
import type { Address } from '../stardust/address.js';
import type { Block } from '../stardust/block.js';
import { ed25519AddressOf } from '../stardust/ed25519-address-of.js';
import { blockId, outputId as makeOutputId, transactionId } from '../stardust/ids.js';
import type { Output } from '../stardust/output.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { OutputType, PayloadType, UnlockConditionType } from '../stardust/type-codes.js';
import { equalBytes, sortedUnique } from '../util/bytes.js';
import { minStorageDeposit } from '../validate/index.js';
import { ChainActor, type ChainStep } from './chains.js';

// A deterministic, valid ledger history for demos, imports and tests: wallets sending signed transfers, tagged data,
// chain operations (chains.ts: aliases, foundries minting and melting native tokens, NFTs), block-issuing accounts
// that pay for their blocks, allotments, congestion waves that push the reference mana cost up and let it fall
// again, and an account whose credits go negative. Everything it emits is accepted by a ledger that receives it in
// order.

export type SimEvent =
  | { type: 'block'; slot: number; bytes: Uint8Array; issuerId?: Uint8Array }
  | { type: 'account'; slot: number; accountId: Uint8Array; blockIssuanceCredits: bigint }
  | { type: 'allot'; slot: number; accountId: Uint8Array; mana: bigint }
  | { type: 'commit'; slot: number };

export interface SimulationOptions {
  params: ProtocolParameters;
  seed?: number;
  wallets?: number;
  /**
   * Congestion waves (default on): 5 slots in 24 of 32 KiB tagged-data blocks past the increase threshold. Off, the
   * blocks are everyday ones, about the size of a real network's (a benchmark of the feed at a real network's rate).
   */
  waves?: boolean;
  /**
   * The parents of each block it makes (a network's tips: a Stardust tangle). Default: made-up IDs, for a history of
   * committed slots, which need no tangle.
   */
  parents?: () => Uint8Array[];
}

interface Coin {
  outputId: Uint8Array;
  output: Output;
  key: number;
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const utf8 = new TextEncoder();
/** Slots of a congestion wave within each period: work above the increase threshold. */
const WAVE_PERIOD = 24;
const WAVE_SLOTS = 5;

export class Simulation {
  readonly params: ProtocolParameters;
  readonly secrets: Uint8Array[];
  readonly addresses: Address[];
  /** whale: pays for the waves; worker: pays for everyday blocks; poor: goes negative; late: created later. */
  readonly accounts: { whale: Uint8Array; worker: Uint8Array; poor: Uint8Array; late: Uint8Array };
  private readonly random: () => number;
  private coins: Coin[] = [];
  /** The latest transfer's block and the coin it spent: what a double spend spends again. */
  private lastTransfer: { block: Uint8Array; coin: Coin } | undefined;
  private readonly tips: (() => Uint8Array[]) | undefined;
  /** The ID of the block made last (kept only with a network's tips). */
  private lastBlock: Uint8Array | undefined;
  private nonce = 0n;
  private poorSpent = false;
  private readonly bigBlockWork: bigint;
  private readonly waves: boolean;
  private chains: ChainActor | undefined;
  /** The chain transactions emitted so far, newest last: which step, and the transaction's id. */
  readonly chainTransactions: { slot: number; step: ChainStep; transactionId: Uint8Array }[] = [];

  constructor(options: SimulationOptions) {
    this.params = options.params;
    const seed = options.seed ?? 1;
    this.random = prng(seed);
    this.waves = options.waves ?? true;
    this.tips = options.parents;
    const n = options.wallets ?? 8;
    const seedBytes = utf8.encode(`tangle-core simulation ${seed}`);
    this.secrets = Array.from({ length: n }, (_, i) => blake2b256(Uint8Array.of(...seedBytes, i)));
    this.addresses = this.secrets.map((s) => ed25519AddressOf(ed25519PublicKey(s)));
    const account = (name: string) => blake2b256(utf8.encode(`tangle-core simulation ${seed} account ${name}`));
    this.accounts = {
      whale: account('whale'),
      worker: account('worker'),
      poor: account('poor'),
      late: account('late'),
    };
    // (One parent here: the network's tips are not asked before it runs; more parents only add to each block's work.)
    this.bigBlockWork = workScore(this.bigBlock(0, [new Uint8Array(32)]), this.params);
  }

  private basic(key: number, amount: bigint): Output {
    return {
      type: OutputType.Basic,
      amount,
      nativeTokens: [],
      unlockConditions: [{ type: UnlockConditionType.Address, address: this.addresses[key]! }],
      features: [],
    };
  }

  /**
   * Genesis: a large output per wallet, one more for the chain actor (wallet 0), and three accounts (the poor one
   * with barely any credits).
   */
  genesis(): GenesisState {
    const outputs = this.addresses.map((_, key) => {
      const outputId = makeOutputId(blake2b256(utf8.encode(`genesis output ${key}`)), 0);
      const output = this.basic(key, 100_000_000_000n);
      this.coins.push({ outputId, output, key });
      return { outputId, output };
    });
    const fund = {
      outputId: makeOutputId(blake2b256(utf8.encode('genesis output chains')), 0),
      output: this.basic(0, 100_000_000_000n),
    };
    outputs.push(fund);
    this.chains = new ChainActor(this.params, this.secrets, this.addresses, fund, this.random);
    return {
      outputs,
      accounts: [
        { accountId: this.accounts.whale, blockIssuanceCredits: 1n << 50n },
        { accountId: this.accounts.worker, blockIssuanceCredits: 10_000_000_000_000n },
        { accountId: this.accounts.poor, blockIssuanceCredits: 1_000_000n },
      ],
    };
  }

  /**
   * With a network's tips: they and the block this made last (its blocks of a slot are made before a ledger takes
   * them, so the tips do not hold them yet), so that each block's past holds every block made before it: white flag
   * orders them as they were made, and a transaction never precedes the one whose output it spends.
   */
  /** A block's bytes; with a network's tips, remembered as the one made last. */
  private made(block: Block): Uint8Array {
    const bytes = encodeBlock(block);
    if (this.tips !== undefined) this.lastBlock = blockId(bytes);
    return bytes;
  }

  /**
   * After a replay (a restarted demo runs through the slots its store holds without applying them): the blocks made
   * so far are not the network's, so the next block attaches to the network's tips alone (one attached to a block
   * the network never saw would not be solid, and its transaction would never be applied).
   */
  attachToTipsOnly(): void {
    this.lastBlock = undefined;
  }

  private parents(): Uint8Array[] {
    if (this.tips === undefined) return [blake2b256(utf8.encode(`parent ${this.nonce}`))];
    const tips = this.tips();
    if (this.lastBlock === undefined) return tips;
    const last = this.lastBlock;
    return sortedUnique([last, ...tips.filter((t) => !equalBytes(t, last)).slice(0, 7)]);
  }

  private bigBlock(i: number, parents = this.parents()): Block {
    const data = new Uint8Array(32_000);
    for (let k = 0; k < data.length; k += 997) data[k] = (i + k) & 0xff;
    return {
      protocolVersion: this.params.protocolVersion,
      parents,
      payload: { type: PayloadType.TaggedData, tag: utf8.encode('wave'), data },
      nonce: this.nonce++,
    };
  }

  private transfer(slot: number): Uint8Array | undefined {
    if (this.coins.length === 0) return undefined;
    const pick = Math.floor(this.random() * this.coins.length);
    const coin = this.coins.splice(pick, 1)[0]!;
    const to = Math.floor(this.random() * this.addresses.length);
    const deposit = minStorageDeposit(this.basic(0, 0n), this.params.rentStructure);
    const amount = coin.output.amount;
    const send =
      amount > 4n * deposit
        ? deposit + BigInt(Math.floor(this.random() * Number((amount - 2n * deposit) / 1000n)))
        : amount;
    const outputs =
      send < amount ? [this.basic(to, send), this.basic(coin.key, amount - send)] : [this.basic(to, amount)];
    const keys = send < amount ? [to, coin.key] : [to];
    const essence = buildTransaction({
      inputs: [coin],
      outputs,
      params: this.params,
      taggedData: { tag: utf8.encode('transfer'), data: utf8.encode(`slot ${slot}`) },
    });
    const payload = signTransaction(essence, [this.secrets[coin.key]!]);
    const txId = transactionId(payload);
    outputs.forEach((output, i) => this.coins.push({ outputId: makeOutputId(txId, i), output, key: keys[i]! }));
    const bytes = this.made({
      protocolVersion: this.params.protocolVersion,
      parents: this.parents(),
      payload,
      nonce: this.nonce++,
    });
    this.lastTransfer = { block: bytes, coin };
    return bytes;
  }

  /**
   * Two transactions a node marks conflicting (a Stardust network's coordinator references them; acceptBlock would
   * refuse them): a double spend of the coin the latest transfer spent, whose block references that transfer's (so
   * white flag orders it after), and a spend of an output no transaction has created. Signed right, balanced: only
   * the ledger finds them wrong. The simulation's own coins are untouched.
   */
  conflicts(slot: number): Uint8Array[] {
    const blocks: Uint8Array[] = [];
    const spend = (coin: Coin, parents: Uint8Array[], text: string) => {
      const essence = buildTransaction({
        inputs: [coin],
        outputs: [this.basic((coin.key + 1) % this.addresses.length, coin.output.amount)],
        params: this.params,
        taggedData: { tag: utf8.encode('conflict'), data: utf8.encode(`${text} in slot ${slot}`) },
      });
      const payload = signTransaction(essence, [this.secrets[coin.key]!]);
      const nonce = this.nonce++;
      blocks.push(this.made({ protocolVersion: this.params.protocolVersion, parents, payload, nonce }));
    };
    if (this.lastTransfer !== undefined) {
      const transfer = blockId(this.lastTransfer.block);
      const tips = this.parents().filter((p) => !equalBytes(p, transfer));
      spend(this.lastTransfer.coin, sortedUnique([transfer, ...tips.slice(0, 7)]), 'a double spend');
    }
    const missing = makeOutputId(blake2b256(utf8.encode(`tangle-core simulation: not created ${slot}`)), 0);
    spend({ outputId: missing, output: this.basic(0, 1_000_000_000n), key: 0 }, this.parents(), 'an input not created');
    return blocks;
  }

  private tagged(slot: number, text: string): Uint8Array {
    return this.made({
      protocolVersion: this.params.protocolVersion,
      parents: this.parents(),
      payload: {
        type: PayloadType.TaggedData,
        tag: utf8.encode('tangle-core'),
        data: utf8.encode(`${text} in slot ${slot}`),
      },
      nonce: this.nonce++,
    });
  }

  /** Everything that happens in `slot`, ending with its commit. */
  slot(slot: number): SimEvent[] {
    const events: SimEvent[] = [];
    const { whale, worker, poor, late } = this.accounts;
    const phase = slot % WAVE_PERIOD;
    if (this.waves && phase >= 1 && phase <= WAVE_SLOTS) {
      // A congestion wave: more work than the increase threshold, paid by the whale.
      const blocks = Number(this.params.congestion.increaseThreshold / this.bigBlockWork) + 1;
      for (let i = 0; i < blocks; i++)
        events.push({ type: 'block', slot, bytes: this.made(this.bigBlock(i)), issuerId: whale });
    }
    const transfers = 2 + Math.floor(this.random() * 4);
    for (let i = 0; i < transfers; i++) {
      const bytes = this.transfer(slot);
      if (bytes !== undefined) events.push({ type: 'block', slot, bytes, ...(i === 0 ? { issuerId: worker } : {}) });
    }
    events.push({ type: 'block', slot, bytes: this.tagged(slot, 'hello from the simulation') });
    if (this.chains !== undefined) {
      // One chain operation per slot, in the actor's cycle (aliases, foundries and native tokens, NFTs).
      const step = this.chains.nextStep;
      const payload = this.chains.next();
      this.chainTransactions.push({ slot, step, transactionId: transactionId(payload) });
      const bytes = this.made({
        protocolVersion: this.params.protocolVersion,
        parents: this.parents(),
        payload,
        nonce: this.nonce++,
      });
      events.push({ type: 'block', slot, bytes });
    }
    if (slot % 7 === 0) events.push({ type: 'allot', slot, accountId: worker, mana: 1_000_000n * BigInt(slot) });
    if (slot === 3) events.push({ type: 'account', slot, accountId: late, blockIssuanceCredits: 50_000_000n });
    if (slot === 4 && !this.poorSpent) {
      // The poor account issues one block it cannot afford: its credits go negative and it is locked from then on.
      events.push({ type: 'block', slot, bytes: this.made(this.bigBlock(999)), issuerId: poor });
      this.poorSpent = true;
    }
    if (slot > 4 && slot % 11 === 0) events.push({ type: 'allot', slot, accountId: poor, mana: 2_000_000n });
    events.push({ type: 'commit', slot });
    return events;
  }
}
