// Generated histories for the accounts' tests (issue 61): helpers/archive-history.ts's, each output given native
// tokens now and then, applied milestone by milestone with the accounts' writer beside the archive's (as measure.ts
// runs them), into a memory store; and a plain scan of the outputs for what an address held (helpers/plain-archive.ts
// for the balance).
import { blake2b } from '@noble/hashes/blake2.js';
import fc from 'fast-check';
import type { Output } from '../../src/index.js';
import { AccountsWriter, ArchiveWriter, accountStateAt } from '../../src/ledger/archive/index.js';
import { MemoryStore, WriteBatch } from '../../src/ledger/store/index.js';
import { BASE, history, TIME } from './archive-history.js';
import { addressHex, type HistoryOutput, ownerOf } from './plain-archive.js';

const TOKENS = [new Uint8Array(38).fill(7), new Uint8Array(38).fill(9)];

/** A history whose outputs (but treasury-free foundries') carry 0 to 2 native tokens. */
export const tokenHistory = history.chain((h) =>
  fc
    .array(fc.array(fc.tuple(fc.constantFrom(0, 1), fc.bigInt(1n, 1000n)), { maxLength: 2 }), {
      minLength: 64,
      maxLength: 64,
    })
    .map((tokens) => {
      let n = 0;
      const withTokens = (o: Output): Output => {
        const t = tokens[n++ % tokens.length]!;
        const byId = new Map(t.map(([i, amount]) => [i, amount]));
        const nativeTokens = [...byId].sort(([a], [b]) => a - b).map(([i, amount]) => ({ id: TOKENS[i]!, amount }));
        // An NFT minted here (a zero ID: its ID is its output ID's hash), or one going on (its ID the serial's).
        const nft = o.type === 6 ? { nftId: new Uint8Array(32).fill(n % 3 === 0 ? 0 : n) } : {};
        return complete({ ...o, nativeTokens, ...nft } as Output);
      };
      return {
        genesis: h.genesis.map(withTokens),
        milestones: h.milestones.map((m) => m.map(([picks, made]) => [picks, made.map(withTokens)] as (typeof m)[0])),
      };
    }),
);

/** The fields a generated output leaves out, as an empty output has them: so that it encodes (a ledger's bytes). */
function complete(o: Output): Output {
  const none = { features: [], immutableFeatures: [] };
  const alias = {
    aliasId: new Uint8Array(32).fill(4),
    stateIndex: 0,
    stateMetadata: new Uint8Array(0),
    foundryCounter: 0,
  };
  const foundry = { serialNumber: 1, tokenScheme: { type: 0, mintedTokens: 0n, meltedTokens: 0n, maximumSupply: 1n } };
  if (o.type === 4) return Object.assign({}, none, alias, o);
  if (o.type === 5) return Object.assign({}, none, foundry, o);
  return o.type === 3 ? Object.assign({ features: [] }, o) : Object.assign({}, none, o);
}

let serial = 1 << 20;
const newId = () => {
  const id = new Uint8Array(34);
  new DataView(id.buffer).setUint32(0, ++serial);
  return id;
};

/** Applies a history with the accounts' writer, as measure.ts does; the plain view of every output beside it. */
export function runAccounts(h: { genesis: Output[]; milestones: [number[], Output[]][][] }) {
  const store = new MemoryStore();
  const last = (prefix: Uint8Array, start: Uint8Array) => {
    for (const e of store.entriesDown(prefix, start)) return e;
    return undefined;
  };
  const outs: HistoryOutput[] = h.genesis.map((output) => ({
    outputId: newId(),
    output,
    booked: BASE,
    bookedTime: TIME(BASE),
  }));
  h.milestones.forEach((txs, n) => {
    const index = BASE + 1 + n;
    const ctx = { index, timestamp: TIME(index), rent: { vByteCost: 100, vByteFactorKey: 10, vByteFactorData: 1 } };
    const writer = new AccountsWriter((address) => accountStateAt(last, address, index - 1)?.state);
    // The archive beside (its ledger updates by address: what a statement's transaction rows are read from).
    const archive = new ArchiveWriter((k) => store.get(k));
    if (n === 0) {
      writer.holdAll(outs.map((o) => ({ outputId: o.outputId, output: o.output })));
      archive.holdAll(outs.map((o) => ({ outputId: o.outputId, output: o.output, booked: BASE, time: TIME(BASE) })));
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
      writer.transaction(t, ctx);
      archive.transaction(t, ctx);
    }
    const batch = new WriteBatch();
    for (const [k, v] of [...archive.records(), ...writer.records(index)])
      v === undefined ? batch.delete(k) : batch.put(k, v);
    store.write(batch);
  });
  return { store, outs, latest: BASE + h.milestones.length };
}

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** What `address` owns at milestone `at`, by a plain scan: its native tokens (ID → amount) and NFTs (sorted IDs). */
export function holdingsOf(outs: readonly HistoryOutput[], at: number, address: string) {
  const tokens = new Map<string, bigint>();
  const nfts: string[] = [];
  for (const o of outs) {
    if (o.booked > at || (o.spent !== undefined && o.spent <= at) || ownerOf(o.output) !== address) continue;
    const out = o.output as Output & { nativeTokens?: { id: Uint8Array; amount: bigint }[]; nftId?: Uint8Array };
    for (const t of out.nativeTokens ?? []) tokens.set(hex(t.id), (tokens.get(hex(t.id)) ?? 0n) + t.amount);
    if (out.type === 6) {
      const own = out.nftId!;
      nfts.push(own.some((b) => b !== 0) ? hex(own) : hex(blake2b(o.outputId, { dkLen: 32 })));
    }
  }
  return { tokens: [...tokens].sort(([a], [b]) => (a < b ? -1 : 1)), nfts: nfts.sort() };
}

export { addressHex };
