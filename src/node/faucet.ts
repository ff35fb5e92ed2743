import { buildBlock, buildTransaction, signTransaction } from '../builders/index.js';
import { ed25519PublicKey } from '../crypto/index.js';
import {
  DEFAULT_FAUCET_CAPS,
  type FaucetCaps,
  type FaucetIntake,
  FaucetLimiter,
  HttpProblem,
  parseBech32,
  quote,
} from '../http/kit/index.js';
import { type Ledger, LedgerError } from '../ledger/index.js';
import { decodeOutput, encodeBlock } from '../serialize.js';
import type { Address } from '../stardust/address.js';
import { addressToBech32 } from '../stardust/address-bech32.js';
import { ed25519AddressOf } from '../stardust/ed25519-address-of.js';
import { outputId as outputIdOf } from '../stardust/ids.js';
import type { BasicOutput, Output } from '../stardust/output.js';
import { OutputType, UnlockConditionType } from '../stardust/type-codes.js';
import { limit } from './http-options.js';

/** The faucet's flag (serve --faucet: a testnet writer taking posted blocks; its caps are LIMIT_FLAGS'). */
export const FAUCET_FLAGS = { faucet: { type: 'boolean', default: false } } as const;

/** serve's usage lines of --faucet. */
export const FAUCET_USAGE = [
  `  --faucet                on a testnet writer (not --demo, which has it): take posted blocks, run the faucet
                          (its key is the demo's: the store's genesis must hold an output of it, as a demo's
                          does) and commit each slot once it has ended, as a node does`,
].join('');

/** The faucet's caps from serve's flags (--faucet-per-minute, --faucet-per-day: LIMIT_FLAGS). @throws UsageError */
export function faucetCapsOf(values: {
  'faucet-per-minute'?: string | undefined;
  'faucet-per-day'?: string | undefined;
}): FaucetCaps {
  return {
    perMinute: limit(values['faucet-per-minute'], '--faucet-per-minute', DEFAULT_FAUCET_CAPS.perMinute),
    perDay: limit(values['faucet-per-day'], '--faucet-per-day', DEFAULT_FAUCET_CAPS.perDay),
  };
}

// inx-faucet's service for test networks (POST /api/enqueue {address} → 202), in the writer: each request is one
// signed transfer from the faucet's output to the address (the change back to the faucet), accepted into the open
// slot, so the address is funded when that slot commits. The faucet spends its own latest output, pending or not: one
// chain of change outputs, so requests in one slot never conflict.

export interface FaucetOptions {
  /** The faucet's Ed25519 secret key (32 bytes): it owns the faucet's outputs. */
  secret: Uint8Array;
  /** What one request sends (inx-faucet's `faucet.amount`). */
  amount: bigint;
  /** Requests that may wait in one open slot before the faucet answers 429 (inx-faucet's queue size). */
  maxWaiting?: number;
  /**
   * Payouts per minute and per day across all clients (default DEFAULT_FAUCET_CAPS; 0 turns one off); past them,
   * 429.
   */
  caps?: FaucetCaps;
}

/** The faucet's address, from its key. */
export const faucetAddress = (secret: Uint8Array): Address => ed25519AddressOf(ed25519PublicKey(secret));

/** A basic output of `amount` owned by `address` alone. */
const owned = (address: Address, amount: bigint): BasicOutput => ({
  type: OutputType.Basic,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: UnlockConditionType.Address, address }],
  features: [],
});

export class Faucet implements FaucetIntake {
  readonly address: Address;
  /** The faucet's latest output (the change of its latest transfer), once known. */
  private current: { outputId: Uint8Array; output: Output } | undefined;
  /** The addresses funded in the open slot (`slot`), each at most once per slot. */
  private waiting = new Set<string>();
  private slot = -1;
  private readonly limiter: FaucetLimiter;

  constructor(
    private readonly ledger: Ledger,
    private readonly options: FaucetOptions,
  ) {
    this.address = faucetAddress(options.secret);
    this.limiter = new FaucetLimiter(options.caps ?? DEFAULT_FAUCET_CAPS);
  }

  /** The faucet's address in bech32. */
  get bech32(): string {
    return addressToBech32(this.address, this.ledger.params.bech32Hrp);
  }

  async enqueue(text: string): Promise<{ address: string; waitingRequests: number }> {
    const params = this.ledger.params;
    const address = parseBech32(text.trim().toLowerCase(), params.bech32Hrp, 'address');
    const bech32 = addressToBech32(address, params.bech32Hrp);
    const slot = this.ledger.latestCommitment().slot + 1;
    if (slot !== this.slot) [this.slot, this.waiting] = [slot, new Set()];
    if (this.waiting.has(bech32)) throw new HttpProblem(429, `a request for ${quote(bech32)} waits already`);
    if (this.waiting.size >= (this.options.maxWaiting ?? 1000)) throw new HttpProblem(429, 'the faucet queue is full');
    if ((await this.balance(address)) >= this.options.amount)
      throw new HttpProblem(400, `the address ${quote(bech32)} holds enough funds already`);
    const from = this.current ?? (await this.latestOutput());
    const rest = from.output.amount - this.options.amount;
    if (rest < this.options.amount) throw new HttpProblem(503, 'the faucet has run dry');
    const essence = buildTransaction({
      inputs: [from],
      outputs: [owned(address, this.options.amount), owned(this.address, rest)],
      params,
    });
    const payload = signTransaction(essence, [this.options.secret]);
    const block = encodeBlock(buildBlock({ parents: this.ledger.tips(), payload, params }));
    this.limiter.take();
    let transactionId: Uint8Array | undefined;
    try {
      ({ transactionId } = this.ledger.acceptBlock(block, { slot }));
    } catch (e) {
      this.limiter.giveBack();
      throw e;
    }
    this.current = { outputId: outputIdOf(transactionId!, 1), output: essence.outputs[1]! };
    this.waiting.add(bech32);
    return { address: bech32, waitingRequests: this.waiting.size };
  }

  /** What the address can spend alone now (committed basic outputs it owns without other conditions). */
  private async balance(address: Address): Promise<bigint> {
    const page = await this.ledger.indexedOutputs({
      route: 'basic',
      address,
      hasStorageDepositReturn: false,
      hasTimelock: false,
      hasExpiration: false,
      pageSize: 1000,
    });
    let sum = 0n;
    for (const id of page.items) sum += decodeOutput(this.ledger.outputWithMetadata(id).output).amount;
    return sum;
  }

  /** The faucet's largest committed output (after a restart: its pending change is gone with the pending slot). */
  private async latestOutput(): Promise<{ outputId: Uint8Array; output: Output }> {
    const page = await this.ledger.indexedOutputs({ route: 'basic', address: this.address, pageSize: 1000 });
    let best: { outputId: Uint8Array; output: Output } | undefined;
    for (const outputId of page.items) {
      const output = decodeOutput(this.ledger.outputWithMetadata(outputId).output);
      if (best === undefined || output.amount > best.output.amount) best = { outputId, output };
    }
    if (best === undefined) throw new LedgerError('NOT_FOUND', 'the faucet holds no output');
    return best;
  }
}
