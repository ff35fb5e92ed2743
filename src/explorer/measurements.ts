import { type Child, facts, h, to } from './dom.js';
import { amount, type Info } from './network.js';

// inx-chronicle's measurements (docs/analytics.md) for people: each value in its unit (token amounts, which the API
// writes as strings and names `…amount…`, in the network's unit; sizes, named `…_bytes`, in bytes; the rest counts),
// each name as words, and a milestone's analytics as a short summary whose every number links to its chart. The names
// linked are the API's own (`analytics.…`), so the chart can ask the range route for them.

export type Measured = Record<string, number | string>;
type Token = Info['baseToken'];

export type Unit = 'amount' | 'bytes' | 'count';
export const unitOf = (name: string): Unit =>
  /amount/.test(name) ? 'amount' : /_bytes$/.test(name) ? 'bytes' : 'count';

const grouped = (n: number | string) => BigInt(n).toLocaleString('en-US');

/** A measurement's value in its unit: "1.5 SMR", "805,299 bytes", "26". */
export function valueText(name: string, value: number | string, token: Token): string {
  const unit = unitOf(name);
  if (unit === 'amount') return amount(String(value), token);
  return unit === 'bytes' ? `${grouped(value)} bytes` : grouped(value);
}

/** A value for the chart: an amount in the network's unit (a float is close enough to draw), else as it is. */
export const plotted = (name: string, value: number | string, token: Token): number =>
  unitOf(name) === 'amount' ? Number(value) / 10 ** token.decimals : Number(value);

/** A name as words: `analytics.block_activity.confirmed_count` is "block activity: confirmed count". */
export const labelOf = (name: string): string =>
  name
    .replace(/^analytics\./, '')
    .replace(/\.0$/, '')
    .replaceAll('_', ' ')
    .replaceAll('.', ': ');

/**
 * Each line of a milestone's summary: its label and its parts, each a measurement (short name) and the words after its
 * value (`{one|many}`: as the value is 1 or not).
 */
const SUMMARY: [string, [string, string][]][] = [
  [
    'blocks in its cone',
    [
      ['block_activity.transaction_count', 'transaction{|s}'],
      ['block_activity.tagged_data_count', 'tagged data'],
      ['block_activity.milestone_count', 'milestone{|s}'],
      ['block_activity.treasury_transaction_count', 'treasury transaction{|s}'],
      ['block_activity.no_payload_count', 'without payload'],
    ],
  ],
  [
    'their verdicts',
    [
      ['block_activity.confirmed_count', 'transaction{|s} confirmed'],
      ['block_activity.conflicting_count', 'conflicting'],
      ['block_activity.no_transaction_count', 'without a transaction'],
    ],
  ],
  ['size of its cone', [['milestone_size.total_milestone_bytes', '']]],
  ['active addresses', [['active_addresses.count', '']]],
  [
    'tokens',
    [
      ['base_tokens.booked_amount.0', 'booked'],
      ['base_tokens.transferred_amount.0', 'transferred'],
    ],
  ],
  [
    'NFTs, aliases, foundries',
    [
      ['output_activity.nft.created_count', 'NFT{|s} created'],
      ['output_activity.nft.transferred_count', 'NFT{|s} transferred'],
      ['output_activity.nft.destroyed_count', 'NFT{|s} burned'],
      ['output_activity.alias.created_count', 'alias{|es} created'],
      ['output_activity.alias.state_changed_count', 'alias state{|s} changed'],
      ['output_activity.alias.governor_changed_count', 'alias governor{|s} changed'],
      ['output_activity.alias.destroyed_count', 'alias{|es} destroyed'],
      ['output_activity.foundry.created_count', 'foundr{y|ies} created'],
      ['output_activity.foundry.transferred_count', 'foundr{y|ies} transferred'],
      ['output_activity.foundry.destroyed_count', 'foundr{y|ies} destroyed'],
    ],
  ],
  [
    'unspent outputs after it',
    [
      ['ledger_outputs.basic.count', 'basic'],
      ['ledger_outputs.alias.count', 'alias'],
      ['ledger_outputs.nft.count', 'NFT'],
      ['ledger_outputs.foundry.count', 'foundry'],
      ['ledger_outputs.treasury.count', 'treasury'],
    ],
  ],
  [
    'tokens they hold',
    [
      ['ledger_outputs.basic.amount.0', 'in basic outputs'],
      ['ledger_outputs.alias.amount.0', 'in aliases'],
      ['ledger_outputs.nft.amount.0', 'in NFTs'],
      ['ledger_outputs.foundry.amount.0', 'in foundries'],
      ['ledger_outputs.treasury.amount.0', 'in the treasury'],
    ],
  ],
  [
    'ledger size',
    [
      ['ledger_size.total_key_bytes', 'of keys'],
      ['ledger_size.total_data_bytes', 'of data'],
      ['ledger_size.total_storage_deposit_amount.0', 'storage deposit'],
    ],
  ],
  ['addresses with a balance', [['address_balance.address_with_balance_count', '']]],
  [
    'unclaimed genesis outputs',
    [
      ['unclaimed_tokens.unclaimed_count', 'output{|s}'],
      ['unclaimed_tokens.unclaimed_amount.0', 'held'],
    ],
  ],
];

/** A milestone's analytics in a dozen lines: each measurement not zero (all zero: "none"), linked to its chart. */
export function summary(measured: Measured, token: Token): HTMLElement {
  const line = (parts: [string, string][]): Child => {
    const shown = parts
      .map(([short, words]) => [`analytics.${short}`, words] as const)
      .filter(([name], _, all) => name in measured && (all.length === 1 || BigInt(measured[name]!) !== 0n));
    if (shown.length === 0) return 'none';
    const links = shown.map(([name, words]) => {
      const value = measured[name]!;
      const said = words.replace(/\{(\w*)\|(\w*)\}/g, (_, one, many) => (String(value) === '1' ? one : many));
      return to(`analytics/${name}`, `${valueText(name, value, token)}${said === '' ? '' : ` ${said}`}`);
    });
    return h('span', {}, ...links.flatMap((l, i) => (i === 0 ? [l] : [', ', l])));
  };
  return facts(SUMMARY.map(([label, parts]) => [label, line(parts)]));
}
