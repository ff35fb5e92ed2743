// Generated histories for the holdings' tests (issue 61): helpers/account-history.ts's, with NFTs given an issuer
// (one of the addresses, or a collection NFT) and now and then IRC-27 metadata, and every alias and foundry its own
// chain ID (a ledger holds no chain twice); applied milestone by milestone with the holdings' writer and a richest
// checkpoint beside the archive's and the accounts' (as measure.ts runs them, a checkpoint at every milestone here,
// or every RICHEST_EVERY), into a memory store; and a plain scan of the outputs for who held what.
import { blake2b } from '@noble/hashes/blake2.js';
import type { Output } from '../../src/index.js';
import {
  AccountsWriter,
  ArchiveWriter,
  accountStateAt,
  HoldingsWriter,
  holdingAt,
  keepsRichest,
  richestCheckpoint,
  type UpdateRow,
} from '../../src/ledger/archive/index.js';
import { keys } from '../../src/ledger/common/index.js';
import { MemoryStore, WriteBatch } from '../../src/ledger/store/index.js';
import { foundryIdOf } from '../../src/stardust/ids.js';
import { tokenHistory } from './account-history.js';
import { ADDRESSES, BASE, TIME } from './archive-history.js';
import { addressHex, type HistoryOutput, ownerOf } from './plain-archive.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
/** A collection NFT's address (IRC-27: a collection's NFTs are those its NFT issued). */
export const COLLECTION = { type: 16, nftId: new Uint8Array(32).fill(0xc0) } as const;
const ISSUERS = [ADDRESSES[0], ADDRESSES[1], COLLECTION];
const irc27 = (n: number) =>
  new TextEncoder().encode(
    JSON.stringify({
      standard: 'IRC27',
      version: 'v1.0',
      type: 'image/png',
      uri: 'x',
      name: `n${n}`,
      collectionName: 'C',
    }),
  );

/** tokenHistory, its NFTs issued (some with IRC-27 metadata), its aliases and foundries each their own chain. */
export const holdingsHistory = tokenHistory.map((h) => {
  let n = 0;
  const chained = (o: Output): Output => {
    n++;
    if (o.type === 6) {
      const immutableFeatures: object[] = n % 4 === 3 ? [] : [{ type: 1, address: ISSUERS[n % 3] }];
      if (n % 2 === 0) immutableFeatures.push({ type: 2, data: irc27(n) });
      return { ...o, immutableFeatures } as Output;
    }
    if (o.type === 4) return { ...o, aliasId: new Uint8Array(32).fill(n & 0xff) } as Output;
    if (o.type === 5) return { ...o, serialNumber: n } as Output;
    return o;
  };
  return {
    genesis: h.genesis.map(chained),
    milestones: h.milestones.map((m) => m.map(([picks, made]) => [picks, made.map(chained)] as (typeof m)[0])),
  };
});

let serial = 1 << 22;
const newId = () => {
  const id = new Uint8Array(34);
  new DataView(id.buffer).setUint32(0, ++serial);
  return id;
};

/** Applies a history as measure.ts does (a richest checkpoint at every milestone, or as `keepsRichest`). */
export function runHoldings(h: { genesis: Output[]; milestones: [number[], Output[]][][] }, everyMilestone = true) {
  const store = new MemoryStore();
  const last = (prefix: Uint8Array, start: Uint8Array) => {
    for (const e of store.entriesDown(prefix, start)) return e;
    return undefined;
  };
  const outs: HistoryOutput[] = h.genesis.map((output) => ({ outputId: newId(), output, booked: BASE, bookedTime: 0 }));
  /** Each milestone's ledger updates as rows (ArchiveWriter.rows: what a mirror writes of them). */
  const updates: UpdateRow[][] = [];
  h.milestones.forEach((txs, n) => {
    const index = BASE + 1 + n;
    const ctx = { index, timestamp: TIME(index), rent: { vByteCost: 100, vByteFactorKey: 10, vByteFactorData: 1 } };
    const accounts = new AccountsWriter((address) => accountStateAt(last, address, index - 1)?.state);
    const holdings = new HoldingsWriter((prefix) => holdingAt(last, prefix, index - 1)?.value.slice());
    const archive = new ArchiveWriter((k) => store.get(k));
    if (n === 0) {
      const genesis = outs.map((o) => ({ outputId: o.outputId, output: o.output }));
      accounts.holdAll(genesis);
      holdings.holdAll(genesis);
      archive.holdAll(genesis.map((o) => ({ ...o, booked: BASE, time: TIME(BASE) })));
    }
    for (const [picks, created] of txs) {
      const spentBy = newId().subarray(0, 32);
      const consumed = [];
      for (const pick of picks) {
        const unspent = outs.filter((o) => o.spent === undefined);
        if (unspent.length === 0) break;
        const o = unspent[pick % unspent.length]!;
        Object.assign(o, { spent: index, spentTime: TIME(index), spentBy });
        consumed.push({ outputId: o.outputId, output: o.output });
      }
      const made = created.map((output) => ({ outputId: newId(), output, booked: index, bookedTime: TIME(index) }));
      outs.push(...made);
      const t = { consumed, created: made.map((o) => ({ outputId: o.outputId, output: o.output })) };
      for (const w of [accounts, holdings, archive]) w.transaction(t, ctx);
    }
    updates.push(archive.rows().updates);
    const records = [...archive.records(), ...accounts.records(index), ...holdings.records(index)];
    if (everyMilestone || keepsRichest(index)) records.push(richestCheckpoint(index, standing(store), archive.moved()));
    const batch = new WriteBatch();
    for (const [k, v] of records) v === undefined ? batch.delete(k) : batch.put(k, v);
    store.write(batch);
  });
  return { store, outs, updates, latest: BASE + h.milestones.length };
}

/** The store's richest-first index (as measure.ts reads it for a checkpoint). */
function* standing(store: MemoryStore) {
  for (const [k] of store.entries(Uint8Array.of(keys.tables.richest))) {
    const balance = ~new DataView(k.buffer, k.byteOffset + 1, 8).getBigUint64(0) & 0xffff_ffff_ffff_ffffn;
    yield { address: k.slice(9), balance };
  }
}

type Loose = Output & {
  nativeTokens?: { id: Uint8Array; amount: bigint }[];
  immutableFeatures?: { type: number; address?: object; data?: Uint8Array }[];
  unlockConditions: { type: number; address?: object }[];
};
const chainOf = (own: Uint8Array, outputId: Uint8Array) =>
  own.some((b) => b !== 0) ? hex(own) : hex(blake2b(outputId, { dkLen: 32 }));

/**
 * Who held what at milestone `at`, by a plain scan of the outputs unspent then: each subject (hex of kind and
 * subject) → member (hex) → what the routes answer of it (a token's amount, an NFT's owner and names, roles).
 */
export function plainHoldings(outs: readonly HistoryOutput[], at: number): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  const put = (kind: number, subject: string, member: string, f: (was?: string) => string) => {
    const s = `${kind}:${subject}`;
    const m = found.get(s) ?? new Map<string, string>();
    m.set(member, f(m.get(member)));
    found.set(s, m);
  };
  for (const o of outs) {
    if (o.booked > at || (o.spent !== undefined && o.spent <= at)) continue;
    const out = o.output as Loose;
    const owner = ownerOf(out);
    if (owner === undefined) continue;
    for (const t of out.nativeTokens ?? []) put(1, hex(t.id), owner, (w) => String(BigInt(w ?? 0) + t.amount));
    if (out.type === 6) {
      const issuer = out.immutableFeatures?.find((f) => f.type === 1)?.address;
      if (issuer === undefined) continue;
      const data = out.immutableFeatures?.find((f) => f.type === 2)?.data;
      const names = data === undefined ? {} : JSON.parse(new TextDecoder().decode(data));
      const value = JSON.stringify({ owner, name: names.name, collectionName: names.collectionName });
      put(2, addressHex(issuer as never), chainOf((out as { nftId: Uint8Array }).nftId, o.outputId), () => value);
    } else if (out.type === 4) {
      const alias = chainOf((out as { aliasId: Uint8Array }).aliasId, o.outputId);
      for (const u of out.unlockConditions) {
        const role = u.type === 4 ? 1 : 2;
        put(3, addressHex(u.address as never), alias, (w) => String(Number(w ?? 0) | role));
      }
    } else if (out.type === 5) put(4, owner, hex(foundryIdOf(out as never)), () => '1');
  }
  return found;
}

const bytesOf = (a: object) => Buffer.from(addressHex(a as never).slice(2), 'hex');
/** The subjects a history can have, by kind (their serialized bytes). */
export const SUBJECTS: [number, Uint8Array][] = [
  [1, new Uint8Array(38).fill(7)],
  [1, new Uint8Array(38).fill(9)],
  ...ISSUERS.map((a) => [2, bytesOf(a)] as [number, Uint8Array]),
  ...ADDRESSES.map((a) => [3, bytesOf(a)] as [number, Uint8Array]),
  [4, bytesOf(ADDRESSES[3])],
];

/**
 * The holder routes a history's holdings at milestone `at` call for, each with what a plain scan says it answers
 * (the parts of the body that name holdings): a token's holders (richest first), an issuer's or a collection's NFTs
 * (by ID), a controller's aliases with their foundries.
 */
export function expectedRoutes(outs: readonly HistoryOutput[], at: number, bech32: (hex: string) => string) {
  const plain = plainHoldings(outs, at);
  const sorted = (m: Map<string, string> | undefined) => [...(m ?? [])].sort(([a], [b]) => (a < b ? -1 : 1));
  const found: { route: string; body: object }[] = [];
  for (const [s, members] of plain) {
    const [kind, subject] = [Number(s.split(':')[0]), s.split(':')[1]!];
    const q = `?ledgerIndex=${at}`;
    if (kind === 1) {
      const holders = sorted(members)
        .map(([a, amount]) => ({ a, amount: BigInt(amount) }))
        .sort((x, y) => (x.amount === y.amount ? (x.a < y.a ? -1 : 1) : x.amount > y.amount ? -1 : 1))
        .map((h) => ({ address: bech32(h.a), amount: String(h.amount) }));
      found.push({ route: `/api/tangle-core/v1/tokens/${subject}/holders${q}`, body: { holders } });
    } else if (kind === 2) {
      const nfts = sorted(members).map(([nftId, v]) => {
        const { owner, name, collectionName } = JSON.parse(v);
        return { nftId, owner: bech32(owner), ...(name && { name }), ...(collectionName && { collectionName }) };
      });
      const route = subject.startsWith('0x10')
        ? `/api/tangle-core/v1/collections/0x${subject.slice(4)}/nfts${q}`
        : `/api/tangle-core/v1/issuers/${bech32(subject)}/nfts${q}`;
      found.push({ route, body: { nfts } });
    } else if (kind === 3) {
      const aliases = sorted(members).map(([aliasId, roles]) => ({
        aliasId,
        stateController: (Number(roles) & 1) !== 0,
        governor: (Number(roles) & 2) !== 0,
        foundries: sorted(plain.get(`4:0x08${aliasId.slice(2)}`)).map(([f]) => f),
      }));
      found.push({ route: `/api/tangle-core/v1/addresses/${bech32(subject)}/aliases${q}`, body: { aliases } });
    }
  }
  return found;
}
