import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decode, encode, u32, type Codec, type Json } from '../codec/index.js';
import { toHex } from '../json/hex.js';
import type { Block } from '../model/block.js';
import { VerifyPool, type SignatureToCheck } from '../crypto/verify-pool.js';
import { blockId as computeBlockId, outputId as makeOutputId, transactionSigningHash } from '../model/ids.js';
import type { Output } from '../model/output.js';
import type { TransactionPayload } from '../model/payload/transaction.js';
import type { ProtocolParameters } from '../model/protocol-parameters.js';
import { blockToJson, decodeBlock } from '../serialize.js';
import { compareBytes, equalBytes } from '../util/bytes.js';
import { checkSemantics } from '../validate/semantic.js';
import { validateDecodedBlock } from '../validate/syntactic.js';
import { blake2b256 } from '../crypto/hash.js';
import { transactionEssence } from '../model/essence.js';
import { commitmentId, COMMITMENT_ID_LENGTH, rootsId, slotCommitment, slotOfCommitmentId, sortedRoot, type SlotCommitment } from './commitment.js';
import { nextReferenceManaCost, slotAt, slotStartTime, workScore } from './congestion.js';
import { LedgerError } from './errors.js';
import {
  accountRecord,
  keys,
  LIVE,
  meta as metaCodec,
  outputRecord,
  slotDiff,
  transactionRecord,
  UNSPENT,
  type AccountRecord,
  type Meta,
  type OutputRecord,
  type TransactionRecord,
  OUTPUT_RECORD_HEADER,
} from './records.js';
import type { KeyValueStore, Write } from './store/kv.js';
import { LmdbStore } from './store/lmdb.js';
import { MemoryStore } from './store/memory.js';

// The ledger index of SPEC B3. Committed state lives in the store and changes only in `commitSlot` (one atomic
// batch per slot) and `prune`; blocks accepted into slots not yet committed live in memory until their slot is
// committed (like a node's unconfirmed tangle, they are not kept across a restart). Reads combine both.

export interface GenesisState {
  outputs?: readonly { outputId: Uint8Array; output: Output }[];
  accounts?: readonly { accountId: Uint8Array; blockIssuanceCredits: bigint }[];
}

export interface OpenLedgerOptions {
  /** Directory of an LMDB environment; without it, an in-memory store with the same behaviour. */
  path?: string;
  params: ProtocolParameters;
  /** Outputs and accounts that exist at genesis; used only when the store is new. */
  genesis?: GenesisState;
  /** Unix time in seconds, for the sync rule (tests inject one). */
  clock?: () => number;
  /** LMDB only: the initial size of its map, in bytes (default 64 GiB); lmdb-js grows it as writes need. */
  mapSize?: number;
  /** LMDB only: open for reading; every write fails with a clear error (chosen by itself on a read-only file system). */
  readOnly?: boolean;
}

export interface AcceptOptions {
  slot: number;
  /** The block-issuing account that pays for the block (burned at commit: work score × RMC). */
  issuerId?: Uint8Array;
}

export interface AcceptResult {
  blockId: Uint8Array;
  transactionId: Uint8Array | undefined;
  workScore: bigint;
}

/** One block's outcome in `acceptBlocks`: accepted, or refused with the error `acceptBlock` would have thrown. */
export type AcceptOutcome = { ok: true; result: AcceptResult } | { ok: false; error: Error };

export interface CommittedSlot {
  slot: number;
  commitmentId: Uint8Array;
  commitment: SlotCommitment;
}

export interface UtxoChanges {
  commitmentId: Uint8Array;
  createdOutputs: Uint8Array[];
  consumedOutputs: Uint8Array[];
}

export interface IncludedBlock {
  blockId: Uint8Array;
  slot: number;
  bytes: Uint8Array;
  json: { [key: string]: Json };
}

export interface Congestion {
  slot: number;
  ready: boolean;
  referenceManaCost: bigint;
  blockIssuanceCredits: bigint;
}

interface PendingBlock {
  blockId: Uint8Array;
  bytes: Uint8Array;
  slot: number;
  issuerId: Uint8Array | undefined;
  workScore: bigint;
  transactionId: Uint8Array | undefined;
  /** Outputs the transaction creates, with their IDs. */
  created: [Uint8Array, Output][];
  /** Output IDs the transaction consumes. */
  consumed: Uint8Array[];
  /**
   * The stored records of consumed outputs as acceptBlock read them, by output ID, so that the commit need not read
   * them again (nothing else can change them: commits run in slot order and these outputs are pending-spent).
   */
  storedInputs: Map<string, { slot: number; record: OutputRecord }>;
}

interface PendingSlot {
  blocks: PendingBlock[];
  creations: { accountId: Uint8Array; blockIssuanceCredits: bigint }[];
  allotments: { accountId: Uint8Array; mana: bigint }[];
  destructions: Uint8Array[];
}

const ZERO_32 = new Uint8Array(32);
const ZERO_36 = new Uint8Array(36);
const key = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const fromKey = (k: string) => Uint8Array.from(Buffer.from(k, 'latin1'));
/** Slots a write may name: 0xffffffff marks "never" in the records (an unspent output, a live account). */
const MAX_WRITE_SLOT = 0xfffffffe;

function checkId(id: unknown, length: number, what: string): asserts id is Uint8Array {
  if (!(id instanceof Uint8Array) || id.length !== length) throw new LedgerError('INVALID_ARGUMENT', `${what} must be ${length} bytes`);
}

/** A slot to read: any uint32. */
function checkSlot(slot: unknown): asserts slot is number {
  if (!Number.isInteger(slot) || (slot as number) < 0 || (slot as number) > 0xffffffff) {
    throw new LedgerError('INVALID_ARGUMENT', `slot must be a uint32 (0 to 4294967295), got ${String(slot).slice(0, 40)}`);
  }
}

/** A slot to write: a uint32 short of the last one, which the records use for "never". */
function checkWriteSlot(slot: unknown): asserts slot is number {
  checkSlot(slot);
  if (slot > MAX_WRITE_SLOT) throw new LedgerError('INVALID_ARGUMENT', `slot ${slot} cannot be written: the last slot a ledger holds is ${MAX_WRITE_SLOT}`);
}

/** The index. Create it with `openLedger`. */
export class Ledger {
  readonly params: ProtocolParameters;
  private readonly store: KeyValueStore;
  private readonly clock: () => number;
  private meta: Meta;
  private latest: SlotCommitment;
  private closed = false;
  private syncOverride: boolean | undefined;
  /** Every account ever created and not pruned from history, by latin1 key of its ID. */
  private readonly accounts = new Map<string, AccountRecord>();
  private readonly commitmentCache = new Map<number, SlotCommitment>();
  // Pending (accepted, not committed) state.
  private readonly pending = new Map<number, PendingSlot>();
  private readonly pendingBlocks = new Map<string, PendingBlock>();
  private readonly pendingTransactions = new Map<string, PendingBlock>();
  private readonly pendingCreated = new Map<string, { output: Output; slot: number; block: PendingBlock }>();
  private readonly pendingSpent = new Map<string, number>();

  /** @internal use openLedger */
  constructor(store: KeyValueStore, params: ProtocolParameters, genesis: GenesisState, clock: () => number) {
    this.store = store;
    this.params = params;
    this.clock = clock;
    const stored = store.get(keys.meta);
    if (stored === undefined) {
      if (!isEmpty(store)) throw new LedgerError('STORE_CORRUPT', 'the store has data but no ledger metadata');
      this.meta = this.writeGenesis(genesis);
    } else {
      this.meta = this.readRecord(metaCodec, stored, 'metadata');
      if (this.meta.networkId !== params.networkId || this.meta.genesisSlot !== params.genesisSlot || this.meta.genesisUnixTime !== params.genesisUnixTime) {
        throw new LedgerError(
          'PARAMETERS_MISMATCH',
          `the store belongs to network ${this.meta.networkId} (genesis slot ${this.meta.genesisSlot} at ${this.meta.genesisUnixTime}); opened with ${params.networkName} (${params.networkId}, genesis slot ${params.genesisSlot} at ${params.genesisUnixTime})`,
        );
      }
    }
    const latest = this.commitment(this.meta.latestSlot);
    if (latest === undefined || !equalBytes(commitmentId(latest), this.meta.latestCommitmentId)) {
      throw new LedgerError('STORE_CORRUPT', `the latest commitment (slot ${this.meta.latestSlot}) is missing or does not match the metadata`);
    }
    this.latest = latest;
    for (const [k, v] of store.entries(Uint8Array.of(keys.tables.account))) {
      this.accounts.set(key(k.subarray(1)), this.readRecord(accountRecord, v, 'account'));
    }
  }

  private readRecord<T>(codec: Codec<T>, bytes: Uint8Array, what: string): T {
    try {
      return decode(codec, bytes);
    } catch (e) {
      throw new LedgerError('STORE_CORRUPT', `a stored ${what} record does not decode: ${(e as Error).message}`, { cause: e });
    }
  }

  private writeGenesis(genesis: GenesisState): Meta {
    const p = this.params;
    const commitment: SlotCommitment = {
      protocolVersion: p.protocolVersion,
      slot: p.genesisSlot,
      previousCommitmentId: ZERO_36,
      rootsId: ZERO_32,
      cumulativeWeight: 0n,
      referenceManaCost: p.congestion.minReferenceManaCost,
    };
    const m: Meta = {
      networkId: p.networkId,
      genesisSlot: p.genesisSlot,
      genesisUnixTime: p.genesisUnixTime,
      latestSlot: p.genesisSlot,
      latestCommitmentId: commitmentId(commitment),
      prunedUntil: p.genesisSlot + 1,
    };
    const batch: Write[] = [
      { key: keys.commitment(p.genesisSlot), value: encode(slotCommitment, commitment) },
      { key: keys.meta, value: encode(metaCodec, m) },
    ];
    for (const { outputId, output } of genesis.outputs ?? []) {
      checkId(outputId, 34, 'genesis output ID');
      const record: OutputRecord = { createdSlot: p.genesisSlot, spentSlot: UNSPENT, output };
      batch.push({ key: keys.output(p.genesisSlot, outputId), value: encode(outputRecord, record) });
    }
    for (const { accountId, blockIssuanceCredits } of genesis.accounts ?? []) {
      checkId(accountId, 32, 'genesis account ID');
      const record: AccountRecord = {
        createdSlot: p.genesisSlot,
        destroyedSlot: LIVE,
        blockIssuanceCredits,
        history: [{ slot: p.genesisSlot, blockIssuanceCredits }],
      };
      batch.push({ key: keys.account(accountId), value: encode(accountRecord, record) });
    }
    this.store.write(batch);
    return m;
  }

  private open(): void {
    if (this.closed) throw new LedgerError('CLOSED', 'the ledger is closed');
  }

  private commitment(slot: number): SlotCommitment | undefined {
    const cached = this.commitmentCache.get(slot);
    if (cached !== undefined) return cached;
    const bytes = this.store.get(keys.commitment(slot));
    if (bytes === undefined) return undefined;
    const c = this.readRecord(slotCommitment, bytes, 'commitment');
    if (this.commitmentCache.size > 4 * this.params.maxCommittableAge + 16) this.commitmentCache.delete(this.commitmentCache.keys().next().value!);
    this.commitmentCache.set(slot, c);
    return c;
  }

  private pendingSlot(slot: number): PendingSlot {
    let p = this.pending.get(slot);
    if (p === undefined) {
      p = { blocks: [], creations: [], allotments: [], destructions: [] };
      this.pending.set(slot, p);
    }
    return p;
  }

  private checkUncommitted(slot: unknown): asserts slot is number {
    checkWriteSlot(slot);
    if (slot <= this.meta.latestSlot) {
      throw new LedgerError('SLOT_ALREADY_COMMITTED', `slot ${slot} is committed already (latest ${this.meta.latestSlot})`);
    }
  }

  /** Whether an account exists now, counting creations and destructions accepted for slots up to `slot`. */
  private accountLiveAt(accountId: Uint8Array, slot: number): boolean {
    const id = key(accountId);
    const record = this.accounts.get(id);
    let live = record !== undefined && record.destroyedSlot === LIVE;
    for (const [s, p] of [...this.pending].sort((a, b) => a[0] - b[0])) {
      if (s > slot) break;
      if (p.creations.some((c) => key(c.accountId) === id)) live = true;
      if (p.destructions.some((d) => key(d) === id)) live = false;
    }
    return live;
  }

  /**
   * Accepts a block into a slot not yet committed: strict decode, syntactic validation with proof of work, and for a
   * transaction semantic validation against the UTXO set (at the slot's start time). A refused block changes
   * nothing. @throws CodecError, ValidationError, LedgerError
   */
  acceptBlock(bytes: Uint8Array, options: AcceptOptions): AcceptResult {
    this.open();
    if (!(bytes instanceof Uint8Array)) throw new LedgerError('INVALID_ARGUMENT', 'block bytes must be a Uint8Array');
    const { slot, issuerId } = options ?? ({} as AcceptOptions);
    this.checkUncommitted(slot);
    if (issuerId !== undefined) checkId(issuerId, 32, 'issuer ID');

    // Own copy: the models decoded from it stay valid whatever the caller does with its buffer.
    const own = bytes.slice();
    const block = decodeBlock(own);
    validateDecodedBlock(block, own, this.params); // syntactic rules (the transaction's too) and proof of work
    const id = computeBlockId(own);
    const idKey = key(id);
    if (this.pendingBlocks.has(idKey) || this.store.get(keys.blockIndex(id)) !== undefined) {
      throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(id)} is known already`);
    }
    if (issuerId !== undefined) {
      if (!this.accountLiveAt(issuerId, slot)) throw new LedgerError('ISSUER_NOT_FOUND', `issuer account ${toHex(issuerId)} does not exist`);
      const record = this.accounts.get(key(issuerId));
      if (record !== undefined && record.blockIssuanceCredits < 0n) {
        throw new LedgerError('ISSUER_LOCKED', `issuer account ${toHex(issuerId)} has negative block issuance credits`);
      }
    }

    const entry: PendingBlock = { blockId: id, bytes: own, slot, issuerId: issuerId?.slice(), workScore: workScore(block, this.params), transactionId: undefined, created: [], consumed: [], storedInputs: new Map() };
    if (block.payload?.type === 6) {
      // The payload's own bytes, as received: its ID and signing hash need no re-encoding.
      const start = 2 + 32 * block.parents.length + 4;
      const length = new DataView(own.buffer, own.byteOffset + start - 4, 4).getUint32(0, true);
      this.checkTransaction(block.payload, entry, own.subarray(start, start + length));
    }

    // Everything checked: record it.
    const p = this.pendingSlot(slot);
    p.blocks.push(entry);
    this.pendingBlocks.set(idKey, entry);
    if (entry.transactionId !== undefined) this.pendingTransactions.set(key(entry.transactionId), entry);
    for (const o of entry.consumed) this.pendingSpent.set(key(o), slot);
    for (const [oid, output] of entry.created) this.pendingCreated.set(key(oid), { output, slot, block: entry });
    return { blockId: id, transactionId: entry.transactionId, workScore: entry.workScore };
  }

  private pool: VerifyPool | undefined;

  /**
   * Verifies the signatures of these blocks on worker threads (all cores but one), so that `acceptBlock` later finds
   * them done. It changes no state and no verdict: only signatures OpenSSL accepts are remembered (each once), and
   * `acceptBlock` still checks everything else. Call it for the next batch while accepting and committing this one.
   */
  async verifySignatures(blocks: readonly Uint8Array[]): Promise<void> {
    this.open();
    const signatures = signaturesOf(blocks);
    if (signatures.length === 0) return;
    this.pool ??= new VerifyPool();
    await this.pool.verify(signatures);
  }

  /**
   * Accepts blocks in order, exactly as `acceptBlock` one by one, with their signatures verified on worker threads
   * in a pipeline: while this thread accepts one chunk, the workers check the next. Refusals are per block.
   */
  async acceptBlocks(items: readonly ({ bytes: Uint8Array } & AcceptOptions)[]): Promise<AcceptOutcome[]> {
    this.open();
    const CHUNK = 128;
    const outcomes: AcceptOutcome[] = [];
    const verifyChunk = (from: number) => (from < items.length ? this.verifySignatures(items.slice(from, from + CHUNK).map((i) => i.bytes)) : undefined);
    let verified = verifyChunk(0);
    for (let from = 0; from < items.length; from += CHUNK) {
      await verified;
      verified = verifyChunk(from + CHUNK);
      for (const item of items.slice(from, from + CHUNK)) {
        try {
          outcomes.push({ ok: true, result: this.acceptBlock(item.bytes, item) });
        } catch (e) {
          outcomes.push({ ok: false, error: e as Error });
        }
      }
    }
    return outcomes;
  }

  private checkTransaction(tx: TransactionPayload, entry: PendingBlock, payloadBytes: Uint8Array): void {
    const txId = blake2b256(payloadBytes);
    const applied = this.pendingTransactions.get(key(txId))?.blockId ?? this.storedTransaction(txId)?.blockId;
    if (applied !== undefined) {
      // A committed transaction block is found through its transaction (it has no block index entry).
      if (equalBytes(applied, entry.blockId)) throw new LedgerError('BLOCK_ALREADY_ACCEPTED', `block ${toHex(entry.blockId)} is known already`);
      throw new LedgerError('TRANSACTION_ALREADY_APPLIED', `transaction ${toHex(txId)} was applied by an earlier block`);
    }
    // The consumed outputs as models (for the rules) and as bytes for the inputs commitment: stored ones as they
    // are in the store, pending ones re-encoded.
    const committed: (Output | Uint8Array)[] = [];
    const consumedOutputs = tx.essence.inputs.map((input, i) => {
      // validateDecodedBlock refused indices above 127 already, so outputId's argument checks hold.
      const oid = makeOutputId(input.transactionId, input.transactionOutputIndex);
      const ok = key(oid);
      const pendingOutput = this.pendingCreated.get(ok);
      let output: Output;
      if (pendingOutput !== undefined && pendingOutput.slot <= entry.slot) {
        output = pendingOutput.output;
        committed.push(output);
      } else {
        const located = this.locateOutput(oid);
        if (located === undefined) throw new LedgerError('INPUT_NOT_FOUND', `input ${i}: output ${toHex(oid)} does not exist (by slot ${entry.slot})`);
        const record = this.readRecord(outputRecord, located.bytes, 'output');
        if (record.spentSlot !== UNSPENT) throw new LedgerError('INPUT_ALREADY_SPENT', `input ${i}: output ${toHex(oid)} was spent in slot ${record.spentSlot}`);
        output = record.output;
        committed.push(located.bytes.subarray(OUTPUT_RECORD_HEADER));
        entry.storedInputs.set(ok, { slot: located.slot, record });
      }
      if (this.pendingSpent.has(ok)) throw new LedgerError('INPUT_ALREADY_SPENT', `input ${i}: output ${toHex(oid)} is spent by an accepted block`);
      entry.consumed.push(oid);
      return output;
    });
    const essenceBytes = payloadBytes.subarray(4, 4 + transactionEssence.sizeOf(tx.essence));
    checkSemantics(tx, { consumedOutputs, params: this.params, time: slotStartTime(entry.slot, this.params) }, blake2b256(essenceBytes), committed);
    entry.transactionId = txId;
    entry.created = tx.essence.outputs.map((o, i) => [makeOutputId(txId, i), o]);
  }

  /** A committed output: its creating slot (from its transaction's record, else genesis) and stored bytes. */
  private locateOutput(outputId: Uint8Array): { slot: number; bytes: Uint8Array } | undefined {
    const slot = this.storedTransaction(outputId.subarray(0, 32))?.slot ?? this.params.genesisSlot;
    const bytes = this.store.get(keys.output(slot, outputId));
    return bytes === undefined ? undefined : { slot, bytes };
  }

  private storedTransaction(txId: Uint8Array): TransactionRecord | undefined {
    const bytes = this.store.get(keys.transaction(txId));
    return bytes === undefined ? undefined : this.readRecord(transactionRecord, bytes, 'transaction');
  }

  /** A block-issuing account that exists from the commit of `slot` on. @throws LedgerError */
  createAccount(accountId: Uint8Array, options: { blockIssuanceCredits: bigint; slot: number }): void {
    this.open();
    checkId(accountId, 32, 'account ID');
    const { blockIssuanceCredits, slot } = options;
    this.checkUncommitted(slot);
    if (typeof blockIssuanceCredits !== 'bigint') throw new LedgerError('INVALID_ARGUMENT', 'blockIssuanceCredits must be a bigint');
    if (this.accounts.has(key(accountId)) || [...this.pending.values()].some((p) => p.creations.some((c) => equalBytes(c.accountId, accountId)))) {
      throw new LedgerError('ACCOUNT_EXISTS', `account ${toHex(accountId)} exists already`);
    }
    this.pendingSlot(slot).creations.push({ accountId: accountId.slice(), blockIssuanceCredits });
  }

  /** Allots mana to an account at the commit of `slot`; burned if the account did not exist before that slot (iota-core). */
  allot(accountId: Uint8Array, mana: bigint, slot: number): void {
    this.open();
    checkId(accountId, 32, 'account ID');
    this.checkUncommitted(slot);
    if (typeof mana !== 'bigint' || mana < 0n) throw new LedgerError('INVALID_ARGUMENT', 'mana must be a non-negative bigint');
    this.pendingSlot(slot).allotments.push({ accountId: accountId.slice(), mana });
  }

  /** Destroys an account at the commit of `slot`. @throws LedgerError ACCOUNT_NOT_FOUND */
  destroyAccount(accountId: Uint8Array, slot: number): void {
    this.open();
    checkId(accountId, 32, 'account ID');
    this.checkUncommitted(slot);
    if (!this.accountLiveAt(accountId, slot)) throw new LedgerError('ACCOUNT_NOT_FOUND', `account ${toHex(accountId)} does not exist`);
    this.pendingSlot(slot).destructions.push(accountId.slice());
  }

  /**
   * Commits the next slot, in one atomic write (SPEC B3): its reference mana cost from the slot's work, account
   * creations, allotments, burns and destructions, the UTXO changes, and the commitment. @throws LedgerError
   */
  commitSlot(slot: number): CommittedSlot {
    this.open();
    checkWriteSlot(slot);
    if (slot !== this.meta.latestSlot + 1) throw new LedgerError('SLOT_NOT_NEXT', `the next slot to commit is ${this.meta.latestSlot + 1}, not ${slot}`);
    const p = this.params;
    const pend = this.pending.get(slot) ?? { blocks: [], creations: [], allotments: [], destructions: [] };
    const batch: Write[] = [];

    // 1. Reference mana cost from the slot's total work.
    let work = 0n;
    for (const b of pend.blocks) work += b.workScore;
    const rmc = nextReferenceManaCost(this.latest.referenceManaCost, work, p);

    // 2. Accounts: creations, allotments (to accounts that existed before this slot), burns, destructions.
    const changed = new Map<string, AccountRecord>();
    const current = (id: string) => changed.get(id) ?? this.accounts.get(id);
    const liveBefore = (id: string) => this.accounts.get(id)?.destroyedSlot === LIVE;
    const update = (id: string, f: (r: AccountRecord) => AccountRecord) => {
      const r = current(id);
      if (r !== undefined) changed.set(id, f(r));
    };
    for (const c of pend.creations) {
      changed.set(key(c.accountId), { createdSlot: slot, destroyedSlot: LIVE, blockIssuanceCredits: c.blockIssuanceCredits, history: [] });
    }
    for (const a of pend.allotments) {
      const id = key(a.accountId);
      if (liveBefore(id)) update(id, (r) => ({ ...r, blockIssuanceCredits: r.blockIssuanceCredits + a.mana }));
    }
    const burnSlot = Math.max(slot - p.maxCommittableAge, p.genesisSlot);
    const burnRmc = burnSlot === slot ? rmc : this.commitment(burnSlot)?.referenceManaCost ?? p.congestion.minReferenceManaCost;
    for (const b of pend.blocks) {
      if (b.issuerId === undefined) continue;
      const id = key(b.issuerId);
      if (current(id)?.destroyedSlot === LIVE) update(id, (r) => ({ ...r, blockIssuanceCredits: r.blockIssuanceCredits - b.workScore * burnRmc }));
    }
    for (const d of pend.destructions) update(key(d), (r) => ({ ...r, destroyedSlot: slot }));
    const horizon = slot - p.maxCommittableAge;
    for (const [id, r] of changed) {
      const history = [...r.history.filter((e) => e.slot !== slot), { slot, blockIssuanceCredits: r.blockIssuanceCredits }];
      // Keep what a query within the last maxCommittableAge slots can ask for: entries inside the window plus the
      // newest one before it.
      const firstInside = history.findIndex((e) => e.slot >= horizon);
      const kept = firstInside <= 0 ? history : history.slice(firstInside - 1);
      changed.set(id, { ...r, history: kept });
    }

    // 3. The UTXO changes.
    const created: Uint8Array[] = [];
    const consumed: Uint8Array[] = [];
    const blockIds: Uint8Array[] = [];
    const txIds: Uint8Array[] = [];
    const written = new Map<string, { slot: number; record: OutputRecord }>();
    for (const b of pend.blocks) {
      blockIds.push(b.blockId);
      batch.push({ key: keys.block(slot, b.blockId), value: b.bytes, append: true });
      if (b.transactionId === undefined) {
        batch.push({ key: keys.blockIndex(b.blockId), value: encode(u32, slot) });
        continue;
      }
      txIds.push(b.transactionId);
      batch.push({ key: keys.transaction(b.transactionId), value: encode(transactionRecord, { blockId: b.blockId, slot, storedOutputs: b.created.length }) });
      for (const oid of b.consumed) {
        consumed.push(oid);
        const earlier = written.get(key(oid));
        if (earlier !== undefined) {
          earlier.record = { ...earlier.record, spentSlot: slot }; // created by an earlier block of this slot
        } else {
          // Read at acceptance; an output of a slot that was still pending then is in the store now.
          let read = b.storedInputs.get(key(oid));
          if (read === undefined) {
            const located = this.locateOutput(oid)!;
            read = { slot: located.slot, record: this.readRecord(outputRecord, located.bytes, 'output') };
          }
          written.set(key(oid), { slot: read.slot, record: { ...read.record, spentSlot: slot } });
        }
      }
      for (const [oid, output] of b.created) {
        created.push(oid);
        written.set(key(oid), { slot, record: { createdSlot: slot, spentSlot: UNSPENT, output } });
      }
    }
    for (const [oid, { slot: createdSlot, record }] of written) {
      // Outputs created in this slot are new keys past all stored ones; spent older outputs are updates.
      batch.push({ key: keys.output(createdSlot, fromKey(oid)), value: encode(outputRecord, record), append: createdSlot === slot });
    }
    created.sort(compareBytes);
    consumed.sort(compareBytes);
    batch.push({ key: keys.diff(slot), value: encode(slotDiff, { created, consumed }), append: true });

    // 4. The commitment.
    const accountsAfter = new Map(this.accounts);
    for (const [id, r] of changed) accountsAfter.set(id, r);
    const accountLeaves: Uint8Array[] = [];
    for (const [id, r] of accountsAfter) {
      if (r.destroyedSlot !== LIVE) continue;
      const leaf = new Uint8Array(40);
      leaf.set(fromKey(id));
      new DataView(leaf.buffer).setBigInt64(32, r.blockIssuanceCredits, true);
      accountLeaves.push(leaf);
    }
    const commitment: SlotCommitment = {
      protocolVersion: p.protocolVersion,
      slot,
      previousCommitmentId: this.meta.latestCommitmentId,
      rootsId: rootsId(sortedRoot(blockIds), sortedRoot(txIds), sortedRoot(accountLeaves)),
      cumulativeWeight: this.latest.cumulativeWeight + BigInt(pend.blocks.length),
      referenceManaCost: rmc,
    };
    const id = commitmentId(commitment);
    const nextMeta: Meta = { ...this.meta, latestSlot: slot, latestCommitmentId: id };
    batch.push({ key: keys.commitment(slot), value: encode(slotCommitment, commitment), append: true });
    for (const [aid, r] of changed) batch.push({ key: keys.account(fromKey(aid)), value: encode(accountRecord, r) });
    batch.push({ key: keys.meta, value: encode(metaCodec, nextMeta) });

    this.store.write(batch); // all of the slot, or (on a throw) none of it: memory is updated only after this

    this.meta = nextMeta;
    this.latest = commitment;
    this.commitmentCache.set(slot, commitment);
    for (const [aid, r] of changed) this.accounts.set(aid, r);
    this.pending.delete(slot);
    for (const b of pend.blocks) {
      this.pendingBlocks.delete(key(b.blockId));
      if (b.transactionId !== undefined) this.pendingTransactions.delete(key(b.transactionId));
      for (const oid of b.consumed) this.pendingSpent.delete(key(oid));
      for (const [oid] of b.created) this.pendingCreated.delete(key(oid));
    }
    return { slot, commitmentId: id, commitment };
  }

  /**
   * Drops the diffs, blocks, transaction index entries and spent outputs of committed slots below `untilSlot`
   * (unspent outputs stay: they are the ledger). Their queries answer not found afterwards. One atomic write.
   */
  prune(untilSlot: number): void {
    this.open();
    checkSlot(untilSlot);
    const until = Math.min(untilSlot, this.meta.latestSlot + 1);
    if (until <= this.meta.prunedUntil) return;
    const batch: Write[] = [];
    // Transaction records touched by this prune (undefined: deleted), written once at the end.
    const txs = new Map<string, TransactionRecord | undefined>();
    const txRecord = (txId: Uint8Array) => {
      const k = key(txId);
      return txs.has(k) ? txs.get(k) : this.storedTransaction(txId);
    };
    // A transaction record goes once its own slot is pruned and none of its outputs is stored any more.
    const settle = (txId: Uint8Array, r: TransactionRecord | undefined) =>
      txs.set(key(txId), r === undefined || (r.slot < until && r.storedOutputs === 0) ? undefined : r);
    for (let s = this.meta.prunedUntil; s < until; s++) {
      const bytes = this.store.get(keys.diff(s));
      if (bytes === undefined) continue;
      const diff = this.readRecord(slotDiff, bytes, 'diff');
      for (const o of diff.consumed) {
        const creator = o.subarray(0, 32);
        const r = txRecord(creator);
        batch.push({ key: keys.output(r?.slot ?? this.params.genesisSlot, o), value: undefined });
        if (r !== undefined) settle(creator, { ...r, storedOutputs: r.storedOutputs - 1 });
      }
      // The slot's blocks, and through their bytes its transactions.
      for (const [k, blockBytes] of this.store.entries(keys.blocksOfSlot(s))) {
        const id = k.subarray(5);
        batch.push({ key: k, value: undefined });
        batch.push({ key: keys.blockIndex(id), value: undefined });
        const txId = transactionIdOfBlock(blockBytes);
        if (txId !== undefined) settle(txId, txRecord(txId));
      }
      batch.push({ key: keys.diff(s), value: undefined });
    }
    for (const [t, r] of txs) batch.push({ key: keys.transaction(fromKey(t)), value: r === undefined ? undefined : encode(transactionRecord, r) });
    const nextMeta = { ...this.meta, prunedUntil: until };
    batch.push({ key: keys.meta, value: encode(metaCodec, nextMeta) });
    this.store.write(batch);
    this.meta = nextMeta;
  }

  /** Slots below this are pruned (their diffs, blocks and spent outputs are gone). */
  get prunedUntil(): number {
    return this.meta.prunedUntil;
  }

  /** Overrides the sync rule (an import of historic data, an embedding node that knows better); undefined clears it. */
  setSynced(synced: boolean | undefined): void {
    if (synced !== undefined && typeof synced !== 'boolean') throw new LedgerError('INVALID_ARGUMENT', 'setSynced takes a boolean or undefined');
    this.syncOverride = synced;
  }

  /** SPEC B3: synced when the latest committed slot ≥ current slot − maxCommittableAge, unless overridden. */
  isSynced(): boolean {
    if (this.syncOverride !== undefined) return this.syncOverride;
    return this.meta.latestSlot >= slotAt(this.clock(), this.params) - this.params.maxCommittableAge;
  }

  latestCommitment(): CommittedSlot {
    this.open();
    return { slot: this.meta.latestSlot, commitmentId: this.meta.latestCommitmentId, commitment: this.latest };
  }

  /** The commitment of a committed slot, if it is stored. */
  commitmentOf(slot: number): CommittedSlot | undefined {
    this.open();
    checkSlot(slot);
    if (slot > this.meta.latestSlot) return undefined;
    const c = this.commitment(slot);
    return c === undefined ? undefined : { slot, commitmentId: commitmentId(c), commitment: c };
  }

  /** An output by ID, with the slots that created and spent it (committed state only). */
  output(outputId: Uint8Array): OutputRecord | undefined {
    this.open();
    checkId(outputId, 34, 'output ID');
    const located = this.locateOutput(outputId);
    return located === undefined ? undefined : this.readRecord(outputRecord, located.bytes, 'output');
  }

  /** Every unspent output of the committed state, by creating slot, then output ID. */
  *unspentOutputs(): Iterable<[Uint8Array, OutputRecord]> {
    this.open();
    for (const [k, v] of this.store.entries(Uint8Array.of(keys.tables.output))) {
      const record = this.readRecord(outputRecord, v, 'output');
      if (record.spentSlot === UNSPENT) yield [k.subarray(5), record]; // key: table, u32 slot, output ID
    }
  }

  /** 4.1: the block that applied a transaction (accepted or committed). @throws LedgerError NOT_FOUND */
  includedBlock(txId: Uint8Array): IncludedBlock {
    this.open();
    checkId(txId, 32, 'transaction ID');
    const pendingBlock = this.pendingTransactions.get(key(txId));
    let found: { blockId: Uint8Array; slot: number; bytes: Uint8Array | undefined };
    if (pendingBlock !== undefined) {
      found = { blockId: pendingBlock.blockId, slot: pendingBlock.slot, bytes: pendingBlock.bytes };
    } else {
      const record = this.storedTransaction(txId);
      if (record === undefined) throw new LedgerError('NOT_FOUND', `output for transaction not found: ${toHex(txId)}`);
      found = { ...record, bytes: this.store.get(keys.block(record.slot, record.blockId)) };
    }
    if (found.bytes === undefined) throw new LedgerError('NOT_FOUND', `block not found: ${toHex(found.blockId)}`);
    const block: Block = decodeBlock(found.bytes);
    return { blockId: found.blockId, slot: found.slot, bytes: found.bytes, json: blockToJson(block) };
  }

  /** 4.2: the UTXO changes of a committed slot. @throws LedgerError BEFORE_GENESIS, NOT_FOUND */
  utxoChanges(slot: number): UtxoChanges {
    this.open();
    checkSlot(slot);
    if (slot < this.params.genesisSlot) throw new LedgerError('BEFORE_GENESIS', `slot ${slot} is before genesis slot ${this.params.genesisSlot}`);
    if (slot > this.meta.latestSlot) throw new LedgerError('NOT_FOUND', `commitment is from a future slot (${slot} > ${this.meta.latestSlot})`);
    const c = this.commitment(slot);
    if (c === undefined) throw new LedgerError('NOT_FOUND', `commitment not found, slot: ${slot}`);
    const bytes = this.store.get(keys.diff(slot));
    if (bytes === undefined) throw new LedgerError('NOT_FOUND', `slot diffs not found, slot: ${slot}`);
    const diff = this.readRecord(slotDiff, bytes, 'diff');
    return { commitmentId: commitmentId(c), createdOutputs: diff.created, consumedOutputs: diff.consumed };
  }

  /**
   * 4.3: an account's congestion as of a commitment (default the latest). `ready`: the account can pay, at the latest
   * RMC, for a block of `workScore` (default a minimal signed transaction block) on top of its blocks in uncommitted
   * slots, without going negative. @throws LedgerError NOT_SYNCED, NOT_FOUND, BEFORE_GENESIS, COMMITMENT_MISMATCH, OUTSIDE_HISTORY
   */
  congestion(accountId: Uint8Array, options: { workScore?: number; commitmentId?: Uint8Array } = {}): Congestion {
    this.open();
    if (!this.isSynced()) throw new LedgerError('NOT_SYNCED', 'node is not synced');
    checkId(accountId, 32, 'account ID');
    const latestSlot = this.meta.latestSlot;
    let slot = latestSlot;
    let c = this.latest;
    const wanted = options.commitmentId;
    if (wanted !== undefined && !equalBytes(wanted, ZERO_36)) {
      checkId(wanted, COMMITMENT_ID_LENGTH, 'commitment ID');
      slot = slotOfCommitmentId(wanted);
      if (slot > latestSlot) throw new LedgerError('NOT_FOUND', `commitment is from a future slot (${slot} > ${latestSlot})`);
      if (slot < this.params.genesisSlot) throw new LedgerError('BEFORE_GENESIS', `slot ${slot} is before genesis slot ${this.params.genesisSlot}`);
      const stored = this.commitment(slot);
      if (stored === undefined) throw new LedgerError('NOT_FOUND', `commitment not found, slot: ${slot}`);
      if (!equalBytes(commitmentId(stored), wanted)) {
        throw new LedgerError('COMMITMENT_MISMATCH', `commitment in the store for slot ${slot} does not match the given commitmentID (${toHex(commitmentId(stored))} != ${toHex(wanted)})`);
      }
      c = stored;
    }
    if (slot + this.params.maxCommittableAge < latestSlot) {
      throw new LedgerError('OUTSIDE_HISTORY', `can't calculate account, target slot index older than allowed (${slot}<${latestSlot}-${this.params.maxCommittableAge})`);
    }
    const record = this.accounts.get(key(accountId));
    const entry = record?.history.filter((e) => e.slot <= slot).at(-1);
    if (record === undefined || record.createdSlot > slot || record.destroyedSlot <= slot || entry === undefined) {
      throw new LedgerError('NOT_FOUND', `account ${toHex(accountId)} not found`);
    }
    const work = options.workScore ?? this.minimalTransactionWorkScore();
    if (!Number.isInteger(work) || work < 0 || work > 0xffffffff) throw new LedgerError('INVALID_ARGUMENT', 'workScore must be a uint32');
    const rmcNow = this.latest.referenceManaCost;
    let pendingCost = 0n;
    for (const p of this.pending.values()) for (const b of p.blocks) if (b.issuerId !== undefined && equalBytes(b.issuerId, accountId)) pendingCost += b.workScore * rmcNow;
    const ready = record.destroyedSlot === LIVE && record.blockIssuanceCredits - pendingCost >= BigInt(work) * rmcNow;
    return { slot, ready, referenceManaCost: c.referenceManaCost, blockIssuanceCredits: entry.blockIssuanceCredits };
  }

  private minimalWork: number | undefined;
  /** Work score of a block with one parent and a transaction of one input, one output and one signature. */
  minimalTransactionWorkScore(): number {
    if (this.minimalWork === undefined) {
      const address = { type: 0 as const, pubKeyHash: ZERO_32 };
      const block: Block = {
        protocolVersion: this.params.protocolVersion,
        parents: [ZERO_32],
        payload: {
          type: 6,
          essence: {
            type: 1,
            networkId: this.params.networkId,
            inputs: [{ type: 0, transactionId: ZERO_32, transactionOutputIndex: 0 }],
            inputsCommitment: ZERO_32,
            outputs: [{ type: 3, amount: 1n, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [] }],
          },
          unlocks: [{ type: 0, signature: { type: 0, publicKey: ZERO_32, signature: new Uint8Array(64) } }],
        },
        nonce: 0n,
      };
      this.minimalWork = Number(workScore(block, this.params));
    }
    return this.minimalWork;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.pool?.close();
    this.store.close();
  }
}

/** The (key, signing hash, signature) of every Signature Unlock in these blocks; undecodable blocks are skipped. */
function signaturesOf(blocks: readonly Uint8Array[]): SignatureToCheck[] {
  const out: SignatureToCheck[] = [];
  for (const bytes of blocks) {
    try {
      const b = decodeBlock(bytes);
      if (b.payload?.type !== 6) continue;
      const message = transactionSigningHash(b.payload.essence);
      for (const u of b.payload.unlocks) if (u.type === 0) out.push({ publicKey: u.signature.publicKey, message, signature: u.signature.signature });
    } catch {
      // acceptBlock reports it
    }
  }
  return out;
}

/** The transaction ID of a stored block's payload, hashed from its bytes (undefined for other payloads). */
function transactionIdOfBlock(bytes: Uint8Array): Uint8Array | undefined {
  const parents = bytes[1]!;
  const start = 2 + 32 * parents + 4;
  const length = new DataView(bytes.buffer, bytes.byteOffset + start - 4, 4).getUint32(0, true);
  if (length === 0 || new DataView(bytes.buffer, bytes.byteOffset + start, 4).getUint32(0, true) !== 6) return undefined;
  return blake2b256(bytes.subarray(start, start + length));
}

function isEmpty(store: KeyValueStore): boolean {
  for (const _ of store.entries(new Uint8Array(0))) return false;
  return true;
}

export interface StoreInfo {
  networkId: bigint;
  genesisSlot: number;
  genesisUnixTime: number;
  latestSlot: number;
}

/**
 * What an existing LMDB store at `path` belongs to (to reopen it with the right parameters), or undefined for a path
 * with no ledger yet. @throws LedgerError STORE_CORRUPT
 */
export function inspectStore(path: string): StoreInfo | undefined {
  // Read-only: it creates nothing, takes no writer lock and works beside a running writer.
  if (!existsSync(join(path, 'data.mdb'))) {
    if (existsSync(path) && !statSync(path).isDirectory()) throw new LedgerError('INVALID_ARGUMENT', `${path} is a file: a store is a directory`);
    return undefined;
  }
  const store = new LmdbStore(path, { readOnly: true });
  try {
    const bytes = store.get(keys.meta);
    if (bytes === undefined) {
      if (!isEmpty(store)) throw new LedgerError('STORE_CORRUPT', 'the store has data but no ledger metadata');
      return undefined;
    }
    let m: Meta;
    try {
      m = decode(metaCodec, bytes);
    } catch (e) {
      throw new LedgerError('STORE_CORRUPT', `the ledger metadata does not decode: ${(e as Error).message}`, { cause: e });
    }
    return { networkId: m.networkId, genesisSlot: m.genesisSlot, genesisUnixTime: m.genesisUnixTime, latestSlot: m.latestSlot };
  } finally {
    store.close();
  }
}

/**
 * Opens a ledger: an LMDB environment at `path` (created if new), or an in-memory store with the same behaviour.
 * @throws LedgerError STORE_CORRUPT, PARAMETERS_MISMATCH
 */
export function openLedger(options: OpenLedgerOptions): Ledger {
  if (typeof options !== 'object' || options === null || typeof options.params?.networkId !== 'bigint') {
    throw new LedgerError('INVALID_ARGUMENT', 'openLedger needs { params } (e.g. PROTOCOL_PARAMETERS.testnet)');
  }
  const lmdbOptions = { ...(options.mapSize !== undefined ? { mapSize: options.mapSize } : {}), ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}) };
  const store = options.path === undefined ? new MemoryStore() : new LmdbStore(options.path, lmdbOptions);
  try {
    return new Ledger(store, options.params, options.genesis ?? {}, options.clock ?? (() => Math.floor(Date.now() / 1000)));
  } catch (e) {
    store.close();
    if (store instanceof LmdbStore) store.discardIfNew();
    throw e;
  }
}

