// The analytics on small ledgers whose answers are worked out by hand (the constants below): the real milestones of
// measurements.json move few of them (no expiration passes, no alias changes hands), so each rule is pinned here.
import { describe, expect, it } from 'vitest';
import { encodeOutput, type Output, PROTOCOL_PARAMETERS } from '../../../src/index.js';
import { ActiveAddresses } from '../../../src/ledger/analytics/active-addresses.js';
import { AddressBalances } from '../../../src/ledger/analytics/address-balances.js';
import { BaseTokens } from '../../../src/ledger/analytics/base-tokens.js';
import { ledgerTotals, measureMilestone } from '../../../src/ledger/analytics/index.js';
import { OutputActivity } from '../../../src/ledger/analytics/output-activity.js';
import { TransactionSize } from '../../../src/ledger/analytics/transaction-size.js';

const rent = PROTOCOL_PARAMETERS.shimmer.rentStructure; // 100 a vbyte; key bytes × 10, data bytes × 1
const ed = (n: number) => ({ type: 0 as const, pubKeyHash: new Uint8Array(32).fill(n) });
const [A, B, C, D, E] = [1, 2, 3, 4, 5].map(ed) as [ReturnType<typeof ed>, ...ReturnType<typeof ed>[]];
const id = (n: number) => Uint8Array.of(...new Uint8Array(32).fill(n), 0, 0);

/** 1,000,000 to A, 50,000 of it to go back to C, expiring to B at t = 100; never spent since genesis. */
const basic: Output = {
  type: 3,
  amount: 1_000_000n,
  nativeTokens: [],
  unlockConditions: [
    { type: 0, address: A },
    { type: 1, returnAddress: C!, amount: 50_000n },
    { type: 3, returnAddress: B!, unixTime: 100 },
  ],
  features: [],
};
const nft: Output = {
  type: 6,
  amount: 500_000n,
  nativeTokens: [],
  nftId: new Uint8Array(32).fill(9),
  unlockConditions: [
    { type: 0, address: A },
    { type: 2, unixTime: 50 },
  ],
  features: [],
  immutableFeatures: [],
};
const alias = (stateIndex: number, governor: typeof A): Output => ({
  type: 4,
  amount: 200_000n,
  nativeTokens: [],
  aliasId: new Uint8Array(32).fill(7),
  stateIndex,
  stateMetadata: new Uint8Array(0),
  foundryCounter: 0,
  unlockConditions: [
    { type: 4, address: C! },
    { type: 5, address: governor },
  ],
  features: [],
  immutableFeatures: [],
});
const foundry: Output = {
  type: 5,
  amount: 50_000n,
  nativeTokens: [],
  serialNumber: 1,
  tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 100n },
  unlockConditions: [{ type: 6, address: { type: 8, aliasId: new Uint8Array(32).fill(7) } }],
  features: [],
  immutableFeatures: [],
};
const ctx = (timestamp: number) => ({ index: 1, timestamp, rent });

describe('the ledger’s totals', () => {
  const ledger = [
    { outputId: id(1), output: basic, booked: 0 },
    { outputId: id(2), output: nft, booked: 5 },
    { outputId: id(3), output: alias(1, D!), booked: 5 },
    { outputId: id(4), output: foundry, booked: 5 },
  ];
  it('over four outputs, one of each kind', () => {
    const data = ledger.reduce((sum, o) => sum + 40 + encodeOutput(o.output).length, 0);
    // Each output's deposit: 100 × (10 × 34 + 40 + its length); all hold more than it but the foundry, whose 50,000
    // is less than 100 × (340 + 40 + its length): what it holds is its amount.
    const deposit = (o: Output) => 100n * BigInt(340 + 40 + encodeOutput(o).length);
    expect(deposit(foundry)).toBeGreaterThan(50_000n);
    expect(deposit(alias(1, D!))).toBeLessThan(200_000n);
    const held = deposit(basic) + deposit(nft) + deposit(alias(1, D!)) + 50_000n;
    expect(ledgerTotals(ledger, ctx(0))).toEqual({
      'analytics.ledger_outputs.basic.count': 1,
      'analytics.ledger_outputs.basic.amount.0': 1_000_000n,
      'analytics.ledger_outputs.alias.count': 1,
      'analytics.ledger_outputs.alias.amount.0': 200_000n,
      'analytics.ledger_outputs.nft.count': 1,
      'analytics.ledger_outputs.nft.amount.0': 500_000n,
      'analytics.ledger_outputs.foundry.count': 1,
      'analytics.ledger_outputs.foundry.amount.0': 50_000n,
      'analytics.ledger_outputs.treasury.count': 0,
      'analytics.ledger_outputs.treasury.amount.0': 0n,
      'analytics.ledger_size.total_key_bytes': 4 * 34,
      'analytics.ledger_size.total_data_bytes': data,
      'analytics.ledger_size.total_storage_deposit_amount.0': held,
      'analytics.unlock_conditions.storage_deposit_return.count': 1,
      'analytics.unlock_conditions.storage_deposit_return.amount.0': 1_000_000n,
      'analytics.unlock_conditions.timelock.count': 1,
      'analytics.unlock_conditions.timelock.amount.0': 500_000n,
      'analytics.unlock_conditions.expiration.count': 1,
      'analytics.unlock_conditions.expiration.amount.0': 1_000_000n,
      'analytics.unlock_conditions.storage_deposit_return_inner_amount': 50_000n,
      'analytics.unclaimed_tokens.unclaimed_count': 1,
      'analytics.unclaimed_tokens.unclaimed_amount.0': 1_000_000n,
      // Owners as created: A holds the basic and NFT outputs (1,500,000), C the alias (200,000: its state controller),
      // the alias the foundry (50,000). Buckets [10^i, 10^(i+1)): 4, 5 and 6; twenty of them with no token supply.
      'analytics.address_balance.address_with_balance_count': 3,
      ...distribution({ 4: 50_000n, 5: 200_000n, 6: 1_500_000n }, 20),
    });
  });
});

describe('addresses with a balance', () => {
  it('a treasury output is no one’s; a network’s buckets end at its token supply’s power of ten', () => {
    const treasury = { outputId: id(9), output: { type: 2, amount: 5_000_000n } as unknown as Output, booked: 0 };
    const balances = new AddressBalances();
    balances.holds({ outputId: id(1), output: basic });
    balances.holds(treasury);
    const m = balances.take({ ...ctx(0), tokenSupply: 1_813_620_509_061_365n }); // Shimmer's: 16 digits, buckets 0–15
    expect(m['analytics.address_balance.address_with_balance_count']).toBe(1);
    expect(m['analytics.address_balance.token_distribution[6].total_amount.0']).toBe(1_000_000n);
    expect(m['analytics.address_balance.token_distribution[15].address_count']).toBe(0);
    expect('analytics.address_balance.token_distribution[16].address_count' in m).toBe(false);
  });

  it('a cone measured from nothing that spends: the address holds nothing, never less (inx-chronicle skips it)', () => {
    const spend = { outputId: id(1), output: basic, booked: 0 };
    const balances = new AddressBalances();
    balances.transaction({ consumed: [spend], created: [] });
    const m = balances.take(ctx(0));
    expect(m['analytics.address_balance.address_with_balance_count']).toBe(0);
    expect(m['analytics.address_balance.token_distribution[6].address_count']).toBe(0);
  });
});

/** The token distribution's measurements with one address in each bucket given (its balance), none elsewhere. */
function distribution(held: Record<number, bigint>, buckets: number) {
  const m: Record<string, number | bigint> = {};
  for (let i = 0; i < buckets; i++) {
    m[`analytics.address_balance.token_distribution[${i}].address_count`] = held[i] === undefined ? 0 : 1;
    m[`analytics.address_balance.token_distribution[${i}].total_amount.0`] = held[i] ?? 0n;
  }
  return m;
}

describe('a transaction’s activity', () => {
  const spend = { consumed: [{ outputId: id(1), output: basic, booked: 0 }], created: [] as never[] };
  const to = (address: typeof A, amount: bigint, n: number) => ({
    outputId: id(n),
    output: { type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [] } as Output,
  });
  const tx = { ...spend, created: [to(A, 600_000n, 11), to(B!, 400_000n, 12)] };

  it('before the expiration the spent output is A’s: A sent 400,000 net to B', () => {
    const [tokens, active] = [new BaseTokens(), new ActiveAddresses()];
    tokens.transaction(tx, ctx(99));
    active.transaction(tx, ctx(99));
    expect(tokens.take()).toEqual({
      'analytics.base_tokens.booked_amount.0': 1_000_000n,
      'analytics.base_tokens.transferred_amount.0': 400_000n,
    });
    expect(active.take()).toEqual({ 'analytics.active_addresses.count': 2 });
  });

  it('from the expiration on it is B’s (the return address): B sent 600,000 net to A', () => {
    const tokens = new BaseTokens();
    tokens.transaction(tx, ctx(100));
    expect(tokens.take()['analytics.base_tokens.transferred_amount.0']).toBe(600_000n);
  });

  it('an alias carried on with its state and governor changed; an NFT transferred, a foundry destroyed', () => {
    const a = new OutputActivity();
    a.transaction({
      consumed: [
        { outputId: id(3), output: alias(1, D!) },
        { outputId: id(2), output: nft },
        { outputId: id(4), output: foundry },
      ],
      created: [
        { outputId: id(21), output: alias(2, E!) },
        { outputId: id(22), output: nft },
      ],
    });
    expect(a.take()).toMatchObject({
      'analytics.output_activity.alias.state_changed_count': 1,
      'analytics.output_activity.alias.governor_changed_count': 1,
      'analytics.output_activity.alias.created_count': 0,
      'analytics.output_activity.nft.transferred_count': 1,
      'analytics.output_activity.foundry.destroyed_count': 1,
    });
    const same = new OutputActivity();
    same.transaction({
      consumed: [{ outputId: id(3), output: alias(1, D!) }],
      created: [{ outputId: id(21), output: alias(1, D!) }],
    });
    expect(same.take()).toMatchObject({
      'analytics.output_activity.alias.state_changed_count': 0,
      'analytics.output_activity.alias.governor_changed_count': 0,
    });
  });

  it('transaction sizes fall in inx-chronicle’s buckets: 7 single, 8 and 15 small, 16 medium, 32 and 63 large, 64 huge', () => {
    const t = new TransactionSize();
    for (const n of [7, 8, 15, 16, 31, 32, 63, 64]) {
      const outputs = Array.from({ length: n }, (_, i) => ({ outputId: id(i), output: basic }));
      t.transaction({ consumed: outputs, created: outputs.slice(0, 1) });
    }
    expect(t.take()).toMatchObject({
      'analytics.transaction_size.input_buckets.single(7)': 1,
      'analytics.transaction_size.input_buckets.small': 2,
      'analytics.transaction_size.input_buckets.medium': 2,
      'analytics.transaction_size.input_buckets.large': 2,
      'analytics.transaction_size.input_buckets.huge': 1,
      'analytics.transaction_size.output_buckets.single(1)': 8,
    });
  });
});

it('a milestone whose cone is empty measures nothing but goes on with the totals it was given', () => {
  const m = measureMilestone({
    ctx: ctx(0),
    blocks: [],
    consumed: () => {
      throw new Error('no transaction');
    },
    previous: { 'analytics.ledger_outputs.basic.count': 5, 'analytics.unclaimed_tokens.unclaimed_amount.0': 7n },
  });
  expect(m['analytics.ledger_outputs.basic.count']).toBe(5);
  expect(m['analytics.unclaimed_tokens.unclaimed_amount.0']).toBe(7n);
  expect(m['analytics.block_activity.no_payload_count']).toBe(0);
});
