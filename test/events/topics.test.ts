// Which subscriptions the event API takes: TIP-28's topics as inx-mqtt names them (components/mqtt/topics.go, written
// out here by hand with real-looking parameters), MQTT's wildcards where they can match one of them, and nothing
// else. Addresses are made by iota.js, not by tangle-core.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MAX_FILTER_LENGTH, refuseFilter } from '../../src/events/topics.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js');

const HRP = 'rms';
const bech32 = (type: number, hrp = HRP) => iota.Bech32Helper.toBech32(type, new Uint8Array(32).fill(7), hrp);
const ed25519 = bech32(0);
const alias = bech32(8);
const nft = bech32(16);
const id32 = `0x${'ab'.repeat(32)}`;
const outputId = `0x${'cd'.repeat(34)}`;
const foundryId = `0x08${'ef'.repeat(37)}`;

const TOPICS = [
  'milestone-info/latest',
  'milestone-info/confirmed',
  'milestones',
  'blocks',
  'blocks/transaction',
  'blocks/transaction/tagged-data',
  'blocks/transaction/tagged-data/0x0e45',
  'blocks/tagged-data',
  'blocks/tagged-data/0x00',
  `blocks/tagged-data/0x${'ff'.repeat(64)}`,
  `block-metadata/${id32}`,
  'block-metadata/referenced',
  `transactions/${id32}/included-block`,
  `outputs/${outputId}`,
  `outputs/alias/${id32}`,
  `outputs/nft/${id32}`,
  `outputs/foundry/${foundryId}`,
  ...['address', 'storage-return', 'expiration', 'state-controller', 'governor', 'immutable-alias'].flatMap((c) => [
    `outputs/unlock/${c}/${ed25519}`,
    `outputs/unlock/${c}/${alias}/spent`,
    `outputs/unlock/${c}/${nft}`,
  ]),
  'receipts',
];

const WILDCARDS = [
  '#',
  'blocks/#',
  'blocks/+',
  'blocks/tagged-data/+',
  '+/latest',
  'block-metadata/+',
  'transactions/+/included-block',
  'outputs/+',
  `outputs/unlock/+/${ed25519}`,
  `outputs/unlock/+/${ed25519}/spent`,
  'outputs/unlock/address/+',
  'outputs/unlock/+/+/spent',
  'outputs/#',
  '+/+/+/+/+',
];

const REFUSED = [
  '',
  'bad/topic',
  'blocks/foo',
  'blocks/',
  '/blocks',
  'milestones/latest',
  'milestone-info',
  `block-metadata/0x${'ab'.repeat(31)}`,
  `block-metadata/0x${'zz'.repeat(32)}`,
  `block-metadata/${id32.slice(2)}`,
  `outputs/0x${'cd'.repeat(33)}`,
  `outputs/alias/${outputId}`,
  `outputs/foundry/${id32}`,
  'blocks/tagged-data/0x',
  'blocks/tagged-data/0x0',
  `blocks/tagged-data/0x${'ff'.repeat(65)}`,
  `transactions/${id32}`,
  `outputs/unlock/sender/${ed25519}`,
  `outputs/unlock/address/${bech32(0, 'smr')}`,
  `outputs/unlock/address/${ed25519.slice(0, -1)}q`,
  `outputs/unlock/address/${ed25519}/unspent`,
  'blocks#',
  'blocks/#/more',
  'blocks+',
  '+/+/+/+/+/+/+',
  '$SYS/#',
  `blocks/tagged-data/0x${'a'.repeat(MAX_FILTER_LENGTH)}`,
];

describe('topic filters', () => {
  it.each(TOPICS)('takes TIP-28 topic %s', (t) => expect(refuseFilter(t, HRP)).toBeUndefined());
  it.each(WILDCARDS)('takes a filter that can match one: %s', (t) => expect(refuseFilter(t, HRP)).toBeUndefined());
  it.each(REFUSED)('refuses %j, saying why', (t) => expect(refuseFilter(t, HRP)).toMatch(/topic/));
  it('takes hex in either case, as hornet parses it', () => {
    expect(refuseFilter(`block-metadata/0x${'AB'.repeat(32)}`, HRP)).toBeUndefined();
  });
});
