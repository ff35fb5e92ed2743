import { bech32ToAddress } from '../stardust/address-bech32.js';

// The topics of the node event API (TIP-28, as inx-mqtt names them: components/mqtt/topics.go). Each is a list of
// levels: a literal, or a parameter (an id in hex, a tag, an unlock condition's name, a bech32 address). A client
// subscribes to one of these, or to a filter with MQTT's wildcards (`+` one level, `#` the rest) that can match one
// of them; anything else is refused, so that no subscription waits for a message that never comes.
// To add a topic: its levels here, its messages published from slot-events.ts, its line in docs/events.md.

/** A topic's parameter: what one level holds. */
type Param = 'blockId' | 'transactionId' | 'outputId' | 'chainId' | 'foundryId' | 'tag' | 'condition' | 'address';
type Level = string | { param: Param };

const p = (param: Param): Level => ({ param });

/** TIP-28's topics. */
export const TOPICS: readonly (readonly Level[])[] = [
  ['milestone-info', 'latest'],
  ['milestone-info', 'confirmed'],
  ['milestones'],
  ['blocks'],
  ['blocks', 'transaction'],
  ['blocks', 'transaction', 'tagged-data'],
  ['blocks', 'transaction', 'tagged-data', p('tag')],
  ['blocks', 'tagged-data'],
  ['blocks', 'tagged-data', p('tag')],
  ['block-metadata', 'referenced'],
  ['block-metadata', p('blockId')],
  ['transactions', p('transactionId'), 'included-block'],
  ['outputs', p('outputId')],
  ['outputs', 'alias', p('chainId')],
  ['outputs', 'nft', p('chainId')],
  ['outputs', 'foundry', p('foundryId')],
  ['outputs', 'unlock', p('condition'), p('address')],
  ['outputs', 'unlock', p('condition'), p('address'), 'spent'],
  ['receipts'],
];

/** The unlock conditions of `outputs/unlock/{condition}/…`, by the names inx-mqtt gives them. */
export const CONDITIONS = [
  'address',
  'storage-return',
  'expiration',
  'state-controller',
  'governor',
  'immutable-alias',
] as const;
export type ConditionName = (typeof CONDITIONS)[number];

/** Hex of exactly `bytes` bytes, `0x`-prefixed, lower or upper case (hornet parses either). */
const hexOf = (bytes: number) => new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
const PARAM_SYNTAX: Record<Exclude<Param, 'address' | 'condition'>, RegExp> = {
  blockId: hexOf(32),
  transactionId: hexOf(32),
  outputId: hexOf(34),
  chainId: hexOf(32),
  foundryId: hexOf(38),
  // A tag is 1 to 64 bytes (an empty tag has no topic of its own).
  tag: /^0x(?:[0-9a-fA-F]{2}){1,64}$/,
};

/** Longest filter taken: the longest topic (an unlock topic with a bech32 address) with room to spare. */
export const MAX_FILTER_LENGTH = 256;

function levelMatches(level: Level, text: string, hrp: string): boolean {
  if (typeof level === 'string') return level === text;
  if (level.param === 'condition') return (CONDITIONS as readonly string[]).includes(text);
  if (level.param === 'address') {
    try {
      bech32ToAddress(text, hrp);
      return true;
    } catch {
      return false;
    }
  }
  return PARAM_SYNTAX[level.param].test(text);
}

/** Whether filter levels `f` (wildcards allowed) can match topic `t`. */
function filterMatches(t: readonly Level[], f: readonly string[], hrp: string): boolean {
  for (let i = 0; i < f.length; i++) {
    const level = f[i]!;
    if (level === '#') return i === f.length - 1;
    if (i >= t.length) return false;
    if (level !== '+' && !levelMatches(t[i]!, level, hrp)) return false;
  }
  return f.length === t.length;
}

/**
 * Why a subscription to `filter` is refused, or undefined when it names (or, with wildcards, can match) a TIP-28
 * topic of the network whose addresses start with `hrp`. MQTT's own rules come first: a wildcard fills its level
 * alone, `#` only last.
 */
export function refuseFilter(filter: string, hrp: string): string | undefined {
  if (filter.length === 0 || filter.length > MAX_FILTER_LENGTH)
    return `a topic filter is 1 to ${MAX_FILTER_LENGTH} long`;
  const levels = filter.split('/');
  for (let i = 0; i < levels.length; i++) {
    const l = levels[i]!;
    if ((l.includes('+') && l !== '+') || (l.includes('#') && (l !== '#' || i !== levels.length - 1)))
      return `not a valid MQTT topic filter: ${filter}`;
  }
  // `$SYS/…` and other `$` topics are the broker's own, not the node's.
  if (filter.startsWith('$')) return `not a topic of the node event API: ${filter}`;
  if (!TOPICS.some((t) => filterMatches(t, levels, hrp))) return `not a topic of the node event API: ${filter}`;
  return undefined;
}
