// A second implementation of inx-chronicle's explorer answers, for the tests (issue 46): a plain scan of a whole
// output history, written from inx-chronicle's MongoDB queries (src/db/mongodb/collections/outputs/mod.rs:
// get_address_balance, get_richest_addresses, get_token_distribution; ledger_update.rs) and not from tangle-core's
// archive. Slow on purpose: every answer reads every output.
import { blake2b } from '@noble/hashes/blake2.js';
import type { Output } from '../../src/index.js';

/** An output of the history: booked at a milestone (index and time), maybe spent at a later one. */
export interface HistoryOutput {
  outputId: Uint8Array;
  output: Output;
  booked: number;
  bookedTime: number;
  spent?: number;
  spentTime?: number;
  /** The transaction that spent it. */
  spentBy?: Uint8Array;
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
type Json = Record<string, any>;

/** An address as its serialized bytes in hex (type byte, then the 32 bytes). */
export function addressHex(a: Json): string {
  const body = a.type === 0 ? a.pubKeyHash : a.type === 8 ? a.aliasId : a.nftId;
  return hex(Uint8Array.of(a.type, ...body));
}

const conditions = (o: Output): Json[] => (o as Json).unlockConditions ?? [];
const condition = (o: Output, type: number) => conditions(o).find((u) => u.type === type);

/** details.address: the address unlock condition's (basic, NFT), the state controller's, the foundry's alias. */
export function ownerOf(o: Output): string | undefined {
  const u = condition(o, o.type === 4 ? 4 : o.type === 5 ? 6 : 0);
  return u === undefined ? undefined : addressHex(u.address);
}

/** LedgerSpent.owning_address: at the spend's time an expired output is its return address's. */
function spentOwnerOf(o: HistoryOutput): string | undefined {
  const e = condition(o.output, 3);
  return e !== undefined && o.spentTime! >= e.unixTime ? addressHex(e.returnAddress) : ownerOf(o.output);
}

const unspentAt = (outs: readonly HistoryOutput[], at: number) =>
  outs.filter((o) => o.booked <= at && (o.spent === undefined || o.spent > at));

/** Each owner's tokens at ledger index `at` (the $group of get_richest_addresses). */
export function balancesAt(outs: readonly HistoryOutput[], at: number): Map<string, bigint> {
  const m = new Map<string, bigint>();
  for (const o of unspentAt(outs, at)) {
    const a = ownerOf(o.output);
    if (a !== undefined) m.set(a, (m.get(a) ?? 0n) + o.output.amount);
  }
  return m;
}

/** get_address_balance at ledger index `at`, milestone time `t`; undefined where its $match finds nothing. */
export function balanceOf(outs: readonly HistoryOutput[], at: number, t: number, address: string) {
  let found = false;
  let [total, available] = [0n, 0n];
  for (const o of unspentAt(outs, at)) {
    const e = condition(o.output, 3);
    const owned = ownerOf(o.output) === address;
    if (!owned && !(e !== undefined && addressHex(e.returnAddress) === address)) continue;
    found = true;
    const value = o.output.amount - BigInt(condition(o.output, 1)?.amount ?? 0n);
    const tl = condition(o.output, 2);
    if (owned) {
      const unexpired = e === undefined || e.unixTime > t;
      if (unexpired) total += value;
      if (unexpired && (tl === undefined || tl.unixTime <= t)) available += value;
    } else if (e!.unixTime <= t) {
      total += value;
      available += value;
    }
  }
  return found ? { total, available } : undefined;
}

/** get_richest_addresses: by balance, richest first (ties: by address, as tangle-core orders them). */
export function richestAt(outs: readonly HistoryOutput[], at: number, top: number) {
  return [...balancesAt(outs, at)]
    .map(([address, balance]) => ({ address, balance }))
    .sort((a, b) => (a.balance === b.balance ? (a.address < b.address ? -1 : 1) : a.balance > b.balance ? -1 : 1))
    .slice(0, top);
}

/** get_token_distribution: per power of ten that has addresses, their count and tokens. */
export function distributionAt(outs: readonly HistoryOutput[], at: number) {
  const buckets = new Map<number, { count: number; total: bigint }>();
  for (const balance of balancesAt(outs, at).values()) {
    const i = String(balance).length - 1;
    const b = buckets.get(i) ?? { count: 0, total: 0n };
    buckets.set(i, { count: b.count + 1, total: b.total + balance });
  }
  return [...buckets].sort(([a], [b]) => a - b).map(([index, b]) => ({ index, ...b }));
}

export interface Update {
  address: string;
  index: number;
  timestamp: number;
  outputId: string;
  spent: boolean;
}

/** Every ledger update (ledger_update.rs: a booking under its owner, a spend under its owner at the spend's time). */
export function updatesOf(outs: readonly HistoryOutput[]): Update[] {
  const all: Update[] = [];
  for (const o of outs) {
    const owner = ownerOf(o.output);
    if (owner === undefined) continue;
    const outputId = hex(o.outputId);
    all.push({ address: owner, index: o.booked, timestamp: o.bookedTime, outputId, spent: false });
    if (o.spent !== undefined)
      all.push({ address: spentOwnerOf(o)!, index: o.spent, timestamp: o.spentTime!, outputId, spent: true });
  }
  return all;
}

/** The order of inx-chronicle's `oldest` index: address, milestone, output ID, spent. */
export function oldestFirst(a: Update, b: Update): number {
  if (a.address !== b.address) return a.address < b.address ? -1 : 1;
  if (a.index !== b.index) return a.index - b.index;
  if (a.outputId !== b.outputId) return a.outputId < b.outputId ? -1 : 1;
  return Number(a.spent) - Number(b.spent);
}

/**
 * Glow in SMR (6 decimals), by floating point: exact to the 6th decimal for every amount below 2^53 glow (Shimmer's
 * whole supply is below it), which the data's are.
 */
function smr(glow: bigint): string {
  if (glow > 2n ** 53n || glow < -(2n ** 53n)) throw new Error(`${glow} glow is past what a double holds exactly`);
  return (Number(glow) / 1e6).toFixed(6);
}

/**
 * An address's history by transaction (the explorer's CSV): per milestone and transaction, the tokens into and out of
 * the address, the other owners of the transaction's inputs and outputs, native tokens and NFTs moved; as CSV lines.
 */
export function transactionRows(outs: readonly HistoryOutput[], address: string, bech32: (a: string) => string) {
  const mine = updatesOf(outs).filter((u) => u.address === address);
  const byId = new Map(outs.map((o) => [hex(o.outputId), o]));
  const rows = new Map<
    string,
    {
      index: number;
      timestamp: number;
      tx: string;
      in: bigint;
      out: bigint;
      tokens: Map<string, bigint>;
      nfts: string[];
    }
  >();
  for (const u of mine) {
    const o = byId.get(u.outputId)!;
    const tx = u.spent ? hex(o.spentBy!) : u.outputId.slice(0, 66);
    const key = `${u.index} ${tx}`;
    const row = rows.get(key) ?? {
      index: u.index,
      timestamp: u.timestamp,
      tx,
      in: 0n,
      out: 0n,
      tokens: new Map<string, bigint>(),
      nfts: [] as string[],
    };
    rows.set(key, row);
    if (u.spent) row.out += o.output.amount;
    else row.in += o.output.amount;
    for (const t of (o.output as Json).nativeTokens ?? []) {
      const id = hex(t.id);
      row.tokens.set(id, (row.tokens.get(id) ?? 0n) + (u.spent ? -t.amount : t.amount));
    }
    if (o.output.type === 6) {
      const own = (o.output as Json).nftId as Uint8Array;
      const id = own.some((b) => b !== 0) ? hex(own) : hex(blake2b(o.outputId, { dkLen: 32 }));
      row.nfts.push(`${u.spent ? '-' : '+'}${id}`);
    }
  }
  return [...rows.values()].map((r) => {
    // The transaction's inputs (the outputs it spent) and outputs (those whose ID starts with its own).
    const touched = outs.filter(
      (o) => (o.spentBy !== undefined && hex(o.spentBy) === r.tx) || hex(o.outputId).startsWith(r.tx),
    );
    const others = [...new Set(touched.map((o) => ownerOf(o.output)!).filter((a) => a !== address))].map(bech32).sort();
    const tokens = [...r.tokens].filter(([, n]) => n !== 0n).map(([id, n]) => `${id}:${n > 0n ? '+' : ''}${n}`);
    const date = new Date(r.timestamp * 1000).toISOString();
    return [
      r.index,
      r.timestamp,
      date,
      r.tx,
      r.in,
      smr(r.in),
      r.out,
      smr(r.out),
      r.in - r.out,
      smr(r.in - r.out),
      others.join(';'),
      tokens.join(';'),
      r.nfts.join(';'),
    ];
  });
}
