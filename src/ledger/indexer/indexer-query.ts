import { decodeOutput } from '../../serialize.js';
import type { Address } from '../../stardust/address.js';
import type { Output } from '../../stardust/output.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { AddressType, FeatureType, OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import type { Awaitable } from '../../util/awaitable.js';
import { compareBytes, equalBytes } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';
import { IndexTimes, type TimedSlots } from './index-times.js';
import {
  addressValue,
  entryPosition,
  type IndexedKind,
  IndexField,
  type IndexFieldCode,
  indexKey,
  indexPrefix,
  tagValue,
} from './output-index.js';

// The indexer's queries (TIP-26, with inx-indexer's meaning: pkg/indexer/*.go), once for every store: a query is the
// union of a few index ranges (one per field value it names, per output kind), merged in the API's order (creating
// slot, then output ID), each candidate checked against every filter of the query. A store only answers "the entries
// of this range from here" and "these outputs" (IndexSource), so the LMDB and PostgreSQL stores page identically.
//
// No query reads the whole ledger for one page: at most MAX_EXAMINED candidates are checked per page; a page cut short
// by that returns what it found with a cursor at the next candidate (a client follows cursors until there is none).

export type IndexRoute = 'outputs' | 'basic' | 'alias' | 'nft' | 'foundry';

export interface IndexQuery {
  route: IndexRoute;
  unlockableByAddress?: Address;
  address?: Address;
  hasNativeTokens?: boolean;
  minNativeTokenCount?: number;
  maxNativeTokenCount?: number;
  hasStorageDepositReturn?: boolean;
  storageDepositReturnAddress?: Address;
  hasTimelock?: boolean;
  timelockedBefore?: number;
  timelockedAfter?: number;
  hasExpiration?: boolean;
  expiresBefore?: number;
  expiresAfter?: number;
  expirationReturnAddress?: Address;
  sender?: Address;
  tag?: Uint8Array;
  issuer?: Address;
  stateController?: Address;
  governor?: Address;
  aliasAddress?: Address;
  /** Unix seconds: outputs created (their slot ended) strictly before / after. */
  createdBefore?: number;
  createdAfter?: number;
  /** The by-ID routes: the current output of this chain (alias, NFT: 32 bytes; foundry: 38), of the route's kind. */
  chainId?: Uint8Array;
  pageSize: number;
  /** Where the page starts (inclusive): a cursor's creation time (its slot's) and output ID. */
  cursor?: { time: number; outputId: Uint8Array };
}

export interface IndexPosition {
  slot: number;
  outputId: Uint8Array;
}

export interface IndexPage {
  /** The latest committed slot the page was read at. */
  ledgerIndex: number;
  items: Uint8Array[];
  /** Where the next page starts, and its slot's time (a cursor names it); undefined on the last page. */
  next?: IndexPosition & { time: number };
}

/** What a store answers for the indexer. */
export interface IndexSource extends TimedSlots {
  latestSlot(): Awaitable<number>;
  /** Up to `limit` entry keys (kind ‖ field ‖ value ‖ slot ‖ id) that start with `prefix`, from `start` on. */
  scan(prefix: Uint8Array, start: Uint8Array, limit: number): Awaitable<Uint8Array[]>;
  /** The bytes of these unspent outputs (undefined: not stored, e.g. spent and pruned since the scan). */
  outputs(positions: readonly IndexPosition[]): Awaitable<(Uint8Array | undefined)[]>;
}

/** At most this many candidates are checked for one page. */
export const MAX_EXAMINED = 10_000;
/** inx-indexer's RestAPILimitsMaxResults default: the largest page. */
export const MAX_PAGE_SIZE = 1000;
const CHUNK = 256;

/** The kinds a route pages through (the combined route: every kind, foundries only for an alias address). */
function kindsOf(q: IndexQuery): IndexedKind[] {
  switch (q.route) {
    case 'basic':
      return [OutputType.Basic];
    case 'alias':
      return [OutputType.Alias];
    case 'nft':
      return [OutputType.Nft];
    case 'foundry':
      return [OutputType.Foundry];
    default: {
      const a = q.unlockableByAddress;
      const foundries = a === undefined || a.type === AddressType.Alias;
      return [
        OutputType.Basic,
        OutputType.Alias,
        OutputType.Nft,
        ...(foundries ? [OutputType.Foundry] : []),
      ] as IndexedKind[];
    }
  }
}

/** The index ranges that hold every output of `kind` the query can match: few and narrow where it names a value. */
function rangesOf(q: IndexQuery, kind: IndexedKind): Uint8Array[] {
  const of = (field: IndexFieldCode, value: Uint8Array) => indexPrefix(kind, field, value);
  if (q.chainId !== undefined) return [of(IndexField.Chain, q.chainId)];
  const u = q.unlockableByAddress;
  if (u !== undefined) {
    const v = addressValue(u);
    if (kind === OutputType.Alias) return [of(IndexField.StateController, v), of(IndexField.Governor, v)];
    if (kind === OutputType.Foundry) return [of(IndexField.AliasAddress, v)];
    return [
      of(IndexField.Address, v),
      of(IndexField.StorageDepositReturnAddress, v),
      of(IndexField.ExpirationReturnAddress, v),
    ];
  }
  const named: [Address | undefined, IndexFieldCode][] = [
    [q.address, IndexField.Address],
    [q.stateController, IndexField.StateController],
    [q.governor, IndexField.Governor],
    [q.aliasAddress, IndexField.AliasAddress],
    [q.issuer, IndexField.Issuer],
    [q.sender, IndexField.Sender],
    [q.storageDepositReturnAddress, IndexField.StorageDepositReturnAddress],
    [q.expirationReturnAddress, IndexField.ExpirationReturnAddress],
  ];
  for (const [a, field] of named) if (a !== undefined) return [of(field, addressValue(a))];
  if (q.tag !== undefined) return [of(IndexField.Tag, tagValue(q.tag))];
  return [indexPrefix(kind, IndexField.All)];
}

/** Fields that choose an index range (rangesOf): a query whose one filter is one of them is answered by its ranges. */
const RANGE_FIELDS = new Set([
  'unlockableByAddress',
  'address',
  'stateController',
  'governor',
  'aliasAddress',
  'issuer',
  'sender',
  'storageDepositReturnAddress',
  'expirationReturnAddress',
  'tag',
]);
/** What a query holds beside its filters (the creation bounds are read from the entries' slots). */
const NOT_FILTERS = new Set(['route', 'pageSize', 'cursor', 'createdBefore', 'createdAfter', 'chainId']);

/**
 * Whether the entries of the query's ranges are its answer without reading an output: its only filter chose the
 * ranges, or it has none (the creation bounds come from the entries). A wallet's query is such a one: it costs no
 * output read and no decoding.
 */
function answeredByRanges(q: IndexQuery): boolean {
  const filters = Object.entries(q).filter(([k, v]) => v !== undefined && !NOT_FILTERS.has(k));
  return filters.length === 0 || (filters.length === 1 && RANGE_FIELDS.has(filters[0]![0]));
}

const sameAddress = (a: Address | undefined, b: Address) =>
  a !== undefined && equalBytes(addressValue(a), addressValue(b));

/** What the filters read of an unlock condition or a feature (each has some of these). */
interface Part {
  type: number;
  address?: Address;
  returnAddress?: Address;
  unixTime?: number;
  tag?: Uint8Array;
}

/** Whether an output matches every filter of the query (the creation bounds are checked on the entries' slots). */
function matches(q: IndexQuery, o: Output): boolean {
  const tokens = o.nativeTokens.length;
  if (q.hasNativeTokens !== undefined && q.hasNativeTokens !== tokens > 0) return false;
  if (q.minNativeTokenCount !== undefined && tokens < q.minNativeTokenCount) return false;
  if (q.maxNativeTokenCount !== undefined && tokens > q.maxNativeTokenCount) return false;
  const uc = (type: number) => (o.unlockConditions as readonly Part[]).find((c) => c.type === type);
  const feature = (type: number, list: readonly Part[] = o.features) => list.find((f) => f.type === type);
  const owner = uc(UnlockConditionType.Address)?.address as Address | undefined;
  const sdr = uc(UnlockConditionType.StorageDepositReturn);
  const timelock = uc(UnlockConditionType.Timelock);
  const expiration = uc(UnlockConditionType.Expiration);
  const immutable = 'immutableFeatures' in o ? o.immutableFeatures : [];
  const u = q.unlockableByAddress;
  if (u !== undefined) {
    const unlockable =
      o.type === OutputType.Alias
        ? sameAddress(uc(UnlockConditionType.StateControllerAddress)?.address, u) ||
          sameAddress(uc(UnlockConditionType.GovernorAddress)?.address, u)
        : o.type === OutputType.Foundry
          ? sameAddress(uc(UnlockConditionType.ImmutableAliasAddress)?.address, u)
          : sameAddress(owner, u) || sameAddress(sdr?.returnAddress, u) || sameAddress(expiration?.returnAddress, u);
    if (!unlockable) return false;
  }
  const checks: [Address | undefined, Address | undefined][] = [
    [q.address, owner],
    [q.storageDepositReturnAddress, sdr?.returnAddress],
    [q.expirationReturnAddress, expiration?.returnAddress],
    [q.sender, feature(FeatureType.Sender)?.address],
    [q.issuer, feature(FeatureType.Issuer, immutable)?.address],
    [q.stateController, uc(UnlockConditionType.StateControllerAddress)?.address],
    [q.governor, uc(UnlockConditionType.GovernorAddress)?.address],
    [q.aliasAddress, uc(UnlockConditionType.ImmutableAliasAddress)?.address],
  ];
  for (const [wanted, has] of checks) if (wanted !== undefined && !sameAddress(has, wanted)) return false;
  const tag = feature(FeatureType.Tag)?.tag;
  if (q.tag !== undefined && !(tag !== undefined && equalBytes(tag, q.tag))) return false;
  if (q.hasStorageDepositReturn !== undefined && q.hasStorageDepositReturn !== (sdr !== undefined)) return false;
  if (q.hasTimelock !== undefined && q.hasTimelock !== (timelock !== undefined)) return false;
  if (q.hasExpiration !== undefined && q.hasExpiration !== (expiration !== undefined)) return false;
  // inx-indexer: NULL < t is not true: an output without the condition matches neither bound.
  const lock = timelock?.unixTime;
  const expires = expiration?.unixTime;
  if (q.timelockedBefore !== undefined && !(lock !== undefined && lock < q.timelockedBefore)) return false;
  if (q.timelockedAfter !== undefined && !(lock !== undefined && lock > q.timelockedAfter)) return false;
  if (q.expiresBefore !== undefined && !(expires !== undefined && expires < q.expiresBefore)) return false;
  if (q.expiresAfter !== undefined && !(expires !== undefined && expires > q.expiresAfter)) return false;
  return true;
}

/** One index range being read in chunks, in key order. */
interface Stream {
  prefix: Uint8Array;
  keys: Uint8Array[];
  at: number;
  /** No key past those read. */
  done: boolean;
}

const suffixOf = (key: Uint8Array) => key.subarray(key.length - 38);

/** A page of the query, read from `source`. */
export async function queryIndex(source: IndexSource, params: ProtocolParameters, q: IndexQuery): Promise<IndexPage> {
  const ledgerIndex = await source.latestSlot();
  const times = new IndexTimes(source, params, ledgerIndex);
  let start: IndexPosition = { slot: 0, outputId: new Uint8Array(34) };
  if (q.cursor !== undefined) {
    const slot = await times.slotOfCursor(q.cursor.time);
    if (slot === undefined) throw new LedgerError('INVALID_ARGUMENT', 'query parameter cursor has wrong format');
    start = { slot, outputId: q.cursor.outputId };
  }
  if (q.createdAfter !== undefined) {
    const first = await times.firstSlotAfter(q.createdAfter);
    if (start.slot < first) start = { slot: first, outputId: new Uint8Array(34) };
  }
  const streams: Stream[] = kindsOf(q).flatMap((kind) =>
    rangesOf(q, kind).map((prefix) => ({ prefix, keys: [], at: 0, done: false })),
  );
  const from = new Map(streams.map((s) => [s, indexKey(s.prefix, start.slot, start.outputId)]));
  const refill = async (s: Stream) => {
    const keys = await source.scan(s.prefix, from.get(s)!, CHUNK);
    s.keys = keys;
    s.at = 0;
    s.done = keys.length < CHUNK;
    if (keys.length > 0) {
      const last = keys.at(-1)!;
      const after = new Uint8Array(last.length + 1); // the least key greater than the last one read
      after.set(last);
      from.set(s, after);
    }
  };
  const exact = answeredByRanges(q);
  const items: Uint8Array[] = [];
  let examined = 0;
  let previous: Uint8Array | undefined;
  for (;;) {
    // The next candidate: the least head among the streams (each refilled when it has run dry).
    for (const s of streams) if (s.at >= s.keys.length && !s.done) await refill(s);
    const live = streams.filter((s) => s.at < s.keys.length);
    if (live.length === 0) return { ledgerIndex, items };
    // Gather a batch of candidates in order, then fetch and check their outputs together.
    const batch: IndexPosition[] = [];
    while (batch.length < CHUNK && examined + batch.length < MAX_EXAMINED) {
      let best: Stream | undefined;
      for (const s of streams) {
        if (s.at >= s.keys.length) continue;
        if (best === undefined || compareBytes(suffixOf(s.keys[s.at]!), suffixOf(best.keys[best.at]!)) < 0) best = s;
      }
      if (best === undefined) break;
      const key = best.keys[best.at++]!;
      const suffix = suffixOf(key);
      if (previous === undefined || !equalBytes(previous, suffix)) batch.push(entryPosition(key));
      previous = suffix;
      // A stream that ran dry before the others must be refilled before anything past its last key is taken.
      if (best.at >= best.keys.length && !best.done) break;
    }
    const created = exact ? [] : await source.outputs(batch);
    for (let i = 0; i < batch.length; i++) {
      const p = batch[i]!;
      const at = times.of(p.slot);
      const createdAt = typeof at === 'number' ? at : await at;
      if (q.createdBefore !== undefined && createdAt >= q.createdBefore) return { ledgerIndex, items };
      if (q.createdAfter !== undefined && !(createdAt > q.createdAfter)) continue;
      const bytes = created[i];
      if (!exact && (bytes === undefined || !matches(q, decodeOutput(bytes)))) continue;
      if (items.length === q.pageSize) return { ledgerIndex, items, next: { ...p, time: createdAt } };
      items.push(p.outputId.slice());
    }
    examined += batch.length;
    if (examined >= MAX_EXAMINED) {
      for (const s of streams) if (s.at >= s.keys.length && !s.done) await refill(s);
      const next = nextCandidate(streams);
      return next === undefined
        ? { ledgerIndex, items }
        : { ledgerIndex, items, next: { ...next, time: await times.of(next.slot) } };
    }
  }
}

/** The position of the least unread key among the streams (each refilled: after a page cut short). */
function nextCandidate(streams: readonly Stream[]): IndexPosition | undefined {
  let best: Uint8Array | undefined;
  for (const s of streams) {
    const k = s.keys[s.at];
    if (k !== undefined && (best === undefined || compareBytes(suffixOf(k), suffixOf(best)) < 0)) best = k;
  }
  return best === undefined ? undefined : entryPosition(best);
}
