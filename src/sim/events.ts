import {
  arrayOf,
  type Codec,
  CodecError,
  constant,
  type Fields,
  fixedBytes,
  generatedStruct,
  i64,
  optional,
  text,
  u8,
  u32,
  u64,
  varBytes,
} from '../codec/index.js';
import type { GenesisState, Ledger } from '../ledger/index.js';
import { MAX_BLOCK_LENGTH, OUTPUT_ID_LENGTH } from '../stardust/limits.js';
import { type Output, output } from '../stardust/output.js';
import { generated } from './events.gen.js';
import type { SimEvent } from './simulator.js';

/* @__NO_SIDE_EFFECTS__ */
const struct = <T extends object>(name: string, fields: Fields<T>) => generatedStruct<T>(generated, name, fields);

// The history file of `simulate` and `import`: one JSON object per line. The first line is the genesis (network,
// genesis time, outputs, accounts); then blocks, account events and commits in the order a ledger applies them.
// Each kind of line is declared once, like the wire types, and read and written by the same codec.

export interface GenesisHeader {
  network: string;
  genesisUnixTime: number;
  genesis: GenesisState;
}

const BIG = 0x7fffffff; // lists in a history file are bounded by the file, not by the protocol
const accountId = fixedBytes(32);

interface GenesisLine {
  type: 'genesis';
  network: string;
  genesisUnixTime: number;
  outputs: { outputId: Uint8Array; output: Output }[];
  accounts: { accountId: Uint8Array; blockIssuanceCredits: bigint }[];
}

const genesisLineCodec = struct<GenesisLine>('GenesisLine', {
  type: constant('genesis'),
  network: text({ prefix: u8, max: 64 }),
  genesisUnixTime: u32,
  outputs: arrayOf(
    struct<GenesisLine['outputs'][number]>('GenesisOutput', { outputId: fixedBytes(OUTPUT_ID_LENGTH), output }),
    {
      prefix: u32,
      min: 0,
      max: BIG,
    },
  ),
  accounts: arrayOf(
    struct<GenesisLine['accounts'][number]>('GenesisAccount', { accountId, blockIssuanceCredits: i64 }),
    {
      prefix: u32,
      min: 0,
      max: BIG,
    },
  ),
});

type Line<K extends SimEvent['type']> = Required<Extract<SimEvent, { type: K }>>;
type BlockLine = Omit<Line<'block'>, 'issuerId'> & { issuerId: Uint8Array | undefined };

const blockLine = struct<BlockLine>('BlockLine', {
  type: constant('block'),
  slot: u32,
  bytes: varBytes({ prefix: u32, max: MAX_BLOCK_LENGTH }),
  issuerId: optional(accountId),
});
const accountLine = struct<Line<'account'>>('AccountLine', {
  type: constant('account'),
  slot: u32,
  accountId,
  blockIssuanceCredits: i64,
});
const allotLine = struct<Line<'allot'>>('AllotLine', { type: constant('allot'), slot: u32, accountId, mana: u64 });
const commitLine = struct<Line<'commit'>>('CommitLine', { type: constant('commit'), slot: u32 });

const EVENT_LINES: Readonly<Record<SimEvent['type'], Codec<unknown>>> = {
  block: blockLine,
  account: accountLine,
  allot: allotLine,
  commit: commitLine,
};

export function genesisLine(h: GenesisHeader): string {
  const line: GenesisLine = {
    type: 'genesis',
    network: h.network,
    genesisUnixTime: h.genesisUnixTime,
    outputs: [...(h.genesis.outputs ?? [])],
    accounts: [...(h.genesis.accounts ?? [])],
  };
  return JSON.stringify(genesisLineCodec.toJson(line));
}

export function eventLine(e: SimEvent): string {
  const codec = EVENT_LINES[e.type];
  return JSON.stringify(codec.toJson(e)); // an absent issuerId reads as undefined: the optional field is omitted
}

/** Parses one line. @throws SyntaxError (not JSON), CodecError (a field that does not read, with its path) */
export function parseLine(line: string): ({ type: 'genesis' } & GenesisHeader) | SimEvent {
  const j: unknown = JSON.parse(line);
  const type = typeof j === 'object' && j !== null ? (j as { type?: unknown }).type : undefined;
  if (type === 'genesis') {
    const g = genesisLineCodec.fromJson(j);
    const genesis = { outputs: g.outputs, accounts: g.accounts };
    return { type: 'genesis', network: g.network, genesisUnixTime: g.genesisUnixTime, genesis };
  }
  if (typeof type !== 'string' || !Object.hasOwn(EVENT_LINES, type)) {
    throw new CodecError('UNKNOWN_TYPE', `unknown event type ${JSON.stringify(type)?.slice(0, 40)}`, { path: 'type' });
  }
  const e = EVENT_LINES[type as SimEvent['type']].fromJson(j) as SimEvent;
  if (e.type === 'block' && e.issuerId === undefined) delete e.issuerId; // absent, not undefined (the model's shape)
  return e;
}

/** Applies one event to a ledger (the same calls an embedding node makes). */
export function applyEvent(ledger: Ledger, e: SimEvent): void {
  switch (e.type) {
    case 'block':
      ledger.acceptBlock(e.bytes, e.issuerId === undefined ? { slot: e.slot } : { slot: e.slot, issuerId: e.issuerId });
      break;
    case 'account':
      ledger.createAccount(e.accountId, { blockIssuanceCredits: e.blockIssuanceCredits, slot: e.slot });
      break;
    case 'allot':
      ledger.allot(e.accountId, e.mana, e.slot);
      break;
    case 'commit':
      ledger.commitSlot(e.slot);
      break;
  }
}
