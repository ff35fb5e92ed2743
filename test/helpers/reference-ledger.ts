// A second implementation of SPEC B1–B3, written for the tests from the SPEC's text alone: it shares no code with
// src/ (blocks are read by @iota/iota.js, hashes come from @noble/hashes), keeps everything in plain maps, and is as
// naive as it can be. The HTTP and ledger tests compare tangle-core's answers with its answers, so a changed rule in
// src/ledger (a comparison, a burn, a root, a sort) shows up as a disagreement.
import { createRequire } from 'node:module';
import { blake2b } from '@noble/hashes/blake2.js';
import type { ProtocolParameters } from '../../src/index.js';

const require = createRequire(import.meta.url);
const iota = require('@iota/iota.js') as {
  deserializeBlock(stream: unknown): {
    payload?: {
      type: number;
      tag?: string;
      essence?: {
        inputs: { transactionId: string; transactionOutputIndex: number }[];
        outputs: { nativeTokens?: unknown[] }[];
        payload?: { tag?: string };
      };
      unlocks?: { type: number }[];
    };
  };
};
const { ReadStream } = require('@iota/util.js') as { ReadStream: new (bytes: Uint8Array) => unknown };

const H = (...parts: Uint8Array[]) => {
  const h = blake2b.create({ dkLen: 32 });
  for (const p of parts) h.update(p);
  return h.digest();
};
export const hexOf = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bytesOf = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0); // lowercase hex of equal length sorts as bytes
const u16le = (n: number) => Uint8Array.of(n & 0xff, n >> 8);
const u32le = (n: number) => Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24);
const u64le = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, n), true);
  return b;
};

/** TIP-4 Merkle root (leaf prefix 0, node prefix 1, split at the largest power of two below n; empty: H()). */
function merkle(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return H();
  if (leaves.length === 1) return H(Uint8Array.of(0), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return H(Uint8Array.of(1), merkle(leaves.slice(0, k)), merkle(leaves.slice(k)));
}
const sortedMerkle = (hexes: string[]) => merkle([...hexes].sort(byBytes).map(bytesOf));

interface ParsedBlock {
  id: string;
  bytes: Uint8Array;
  transactionId?: string;
  /** Its tagged data's tag as iota.js reads it ('0x' when empty): of a tagged-data payload, or of a transaction's. */
  tag?: string;
  created: string[];
  consumed: string[];
  work: bigint;
  issuer?: string;
}

/** What the SPEC says of one block: ids from its bytes (TIP-24, TIP-20), its UTXO effect, its B2 work score. */
export function parseBlock(bytes: Uint8Array, params: ProtocolParameters, issuer?: Uint8Array): ParsedBlock {
  const block = iota.deserializeBlock(new ReadStream(bytes));
  const parents = bytes[1]!;
  const payloadStart = 2 + 32 * parents + 4;
  const payloadLength = bytes.length - payloadStart - 8;
  const w = params.workScore;
  let work = BigInt(w.block + w.dataByte * payloadLength);
  const parsed: ParsedBlock = {
    id: hexOf(H(bytes)),
    bytes,
    created: [],
    consumed: [],
    work: 0n,
    ...(issuer ? { issuer: hexOf(issuer) } : {}),
  };
  const p = block.payload;
  const tag = p?.type === 5 ? p.tag : p?.essence?.payload?.tag;
  if (tag !== undefined) parsed.tag = tag === '' ? '0x' : tag;
  if (p?.type === 6 && p.essence !== undefined) {
    const txId = H(bytes.subarray(payloadStart, payloadStart + payloadLength));
    parsed.transactionId = hexOf(txId);
    p.essence.outputs.forEach((o, i) => {
      parsed.created.push(hexOf(new Uint8Array([...txId, ...u16le(i)])));
      work += BigInt(w.output + w.nativeToken * (o.nativeTokens?.length ?? 0));
    });
    for (const input of p.essence.inputs) {
      parsed.consumed.push(
        hexOf(new Uint8Array([...bytesOf(input.transactionId), ...u16le(input.transactionOutputIndex)])),
      );
      work += BigInt(w.input);
    }
    for (const u of p.unlocks ?? []) if (u.type === 0) work += BigInt(w.signatureEd25519);
  }
  parsed.work = work;
  return parsed;
}

interface Commitment {
  slot: number;
  id: string;
  rmc: bigint;
  weight: bigint;
  created: string[];
  consumed: string[];
  credits: Map<string, bigint>; // live accounts after the commit
}

export type ReferenceEvent =
  | { type: 'block'; slot: number; bytes: Uint8Array; issuerId?: Uint8Array }
  | { type: 'account'; slot: number; accountId: Uint8Array; blockIssuanceCredits: bigint }
  | { type: 'allot'; slot: number; accountId: Uint8Array; mana: bigint }
  | { type: 'destroy'; slot: number; accountId: Uint8Array }
  | { type: 'commit'; slot: number };

/** A 34-byte output id (hex) in the Nova form of `slot`, written out by hand: the slot as 4 little-endian bytes. */
export function novaOutputId(id: string, slot: number): string {
  const le32 = [0, 8, 16, 24].map((s) => ((slot >>> s) & 0xff).toString(16).padStart(2, '0')).join('');
  return `${id.slice(0, 66)}${le32}${id.slice(66)}`;
}

export class ReferenceLedger {
  readonly commitments: Commitment[] = [];
  readonly blocks = new Map<string, ParsedBlock>(); // by transaction id: the first block that applied it
  /** Every committed block by its id, with its slot. */
  readonly committedBlocks = new Map<string, { block: ParsedBlock; slot: number }>();
  private pending = new Map<number, ReferenceEvent[]>();
  private credits = new Map<string, bigint>();
  private createdAt = new Map<string, number>();

  constructor(
    private readonly params: ProtocolParameters,
    genesisAccounts: readonly { accountId: Uint8Array; blockIssuanceCredits: bigint }[] = [],
  ) {
    for (const a of genesisAccounts) {
      this.credits.set(hexOf(a.accountId), a.blockIssuanceCredits);
      this.createdAt.set(hexOf(a.accountId), params.genesisSlot);
    }
    // B1: the genesis commitment.
    const rmc = params.congestion.minReferenceManaCost;
    this.commitments.push({
      slot: params.genesisSlot,
      id: this.idOf(params.genesisSlot, new Uint8Array(36), new Uint8Array(32), 0n, rmc),
      rmc,
      weight: 0n,
      created: [],
      consumed: [],
      credits: new Map(this.credits),
    });
  }

  get latest(): Commitment {
    return this.commitments.at(-1)!;
  }

  commitment(slot: number): Commitment | undefined {
    return this.commitments.find((c) => c.slot === slot);
  }

  /**
   * The v3 body of a slot's UTXO changes (SPEC B1, B4): the commitment id and each output id in the Nova form,
   * transactionId ‖ u32 LE slot that created the output (the commitment that lists it as created; genesis outputs:
   * the genesis slot) ‖ u16 LE index.
   */
  novaChanges(slot: number): { commitmentId: string; createdOutputs: string[]; consumedOutputs: string[] } {
    const c = this.commitment(slot)!;
    const createdIn = (id: string) =>
      this.commitments.find((k) => k.created.includes(id))?.slot ?? this.params.genesisSlot;
    return {
      commitmentId: c.id,
      createdOutputs: c.created.map((id) => novaOutputId(id, slot)),
      consumedOutputs: c.consumed.map((id) => novaOutputId(id, createdIn(id))),
    };
  }

  private idOf(slot: number, previous: Uint8Array, roots: Uint8Array, weight: bigint, rmc: bigint): string {
    const serialized = new Uint8Array([
      this.params.protocolVersion,
      ...u32le(slot),
      ...previous,
      ...roots,
      ...u64le(weight),
      ...u64le(rmc),
    ]);
    return hexOf(new Uint8Array([...H(serialized), ...u32le(slot)]));
  }

  apply(e: ReferenceEvent): void {
    if (e.type !== 'commit') {
      const list = this.pending.get(e.slot) ?? [];
      list.push(e);
      this.pending.set(e.slot, list);
      return;
    }
    const p = this.params;
    const slot = e.slot;
    const events = this.pending.get(slot) ?? [];
    this.pending.delete(slot);
    const blocks = events.filter((x) => x.type === 'block').map((x) => parseBlock(x.bytes, p, x.issuerId));
    // RMC from the slot's total work (strict comparisons).
    const work = blocks.reduce((s, b) => s + b.work, 0n);
    const previous = this.latest.rmc;
    const c = p.congestion;
    let rmc = previous;
    if (work < c.decreaseThreshold && previous > c.minReferenceManaCost)
      rmc = previous - c.decrease < c.minReferenceManaCost ? c.minReferenceManaCost : previous - c.decrease;
    else if (work > c.increaseThreshold) rmc = previous + c.increase;
    // Accounts: creations, then allotments to accounts that existed before this slot, then burns, then destructions.
    const liveBefore = new Set(this.credits.keys());
    for (const x of events)
      if (x.type === 'account') {
        this.credits.set(hexOf(x.accountId), x.blockIssuanceCredits);
        this.createdAt.set(hexOf(x.accountId), slot);
      }
    for (const x of events)
      if (x.type === 'allot' && liveBefore.has(hexOf(x.accountId)))
        this.credits.set(hexOf(x.accountId), this.credits.get(hexOf(x.accountId))! + x.mana);
    const burnSlot = Math.max(slot - p.maxCommittableAge, p.genesisSlot);
    const burnRmc = burnSlot === slot ? rmc : this.commitment(burnSlot)!.rmc;
    for (const b of blocks)
      if (b.issuer !== undefined && this.credits.has(b.issuer))
        this.credits.set(b.issuer, this.credits.get(b.issuer)! - b.work * burnRmc);
    for (const x of events) if (x.type === 'destroy') this.credits.delete(hexOf(x.accountId));
    // UTXO changes: every output created and every input consumed, each list sorted by bytes.
    const created = blocks.flatMap((b) => b.created).sort(byBytes);
    const consumed = blocks.flatMap((b) => b.consumed).sort(byBytes);
    for (const b of blocks)
      if (b.transactionId !== undefined && !this.blocks.has(b.transactionId)) this.blocks.set(b.transactionId, b);
    for (const b of blocks) this.committedBlocks.set(b.id, { block: b, slot });
    // The commitment.
    const accountLeaves = [...this.credits].map(([id, bic]) => {
      const leaf = new Uint8Array(40);
      leaf.set(bytesOf(id));
      new DataView(leaf.buffer).setBigInt64(32, bic, true);
      return hexOf(leaf);
    });
    const roots = H(
      sortedMerkle(blocks.map((b) => b.id)),
      sortedMerkle(blocks.flatMap((b) => (b.transactionId ? [b.transactionId] : []))),
      sortedMerkle(accountLeaves),
    );
    const weight = this.latest.weight + BigInt(blocks.length);
    const id = this.idOf(slot, bytesOf(this.latest.id), roots, weight, rmc);
    this.commitments.push({ slot, id, rmc, weight, created, consumed, credits: new Map(this.credits) });
  }

  /**
   * SPEC B3 congestion, as of a committed slot: its RMC and the credits then; `ready` when the credits now, less the
   * cost at the latest RMC of the account's blocks in uncommitted slots, pay for `work` at the latest RMC.
   */
  congestion(
    accountId: Uint8Array,
    work: bigint,
    slot = this.latest.slot,
  ): { slot: number; ready: boolean; referenceManaCost: string; blockIssuanceCredits: string } | undefined {
    const id = hexOf(accountId);
    const at = this.commitment(slot)!;
    const then = at.credits.get(id);
    if (then === undefined) return undefined;
    const now = this.latest.credits.get(id);
    let pendingCost = 0n;
    for (const list of this.pending.values())
      for (const x of list)
        if (x.type === 'block' && x.issuerId !== undefined && hexOf(x.issuerId) === id)
          pendingCost += parseBlock(x.bytes, this.params).work * this.latest.rmc;
    const ready = now !== undefined && now - pendingCost >= work * this.latest.rmc;
    return { slot, ready, referenceManaCost: String(at.rmc), blockIssuanceCredits: String(then) };
  }
}

/**
 * Work score of a minimal signed transaction block (one parent; one input, one 46-byte basic output, one signature
 * unlock; no essence payload), checked by hand: the payload is 4 (type) + 130 (essence: type 1 + network id 8 +
 * input count 2 + input 35 (type, transaction id, index) + inputs commitment 32 + output count 2 + output 46 + payload
 * length 4) + unlock count 2 + unlock 98 = 234 bytes, so 110000 + 500 × 234 + 7500 + 90000 + 15000 = 339500 with the
 * B2 weights.
 */
export const MINIMAL_TRANSACTION_WORK = 339_500n;
