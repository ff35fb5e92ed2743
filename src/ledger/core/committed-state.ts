import { encode, toHex, u32 } from '../../codec/index.js';
import { outputChainId } from '../../stardust/ids.js';
import {
  type AccountRecord,
  accountRecord,
  LIVE,
  type Meta,
  meta as metaCodec,
  type OutputRecord,
  outputRecord,
  type TransactionRecord,
  UNSPENT,
} from '../../stardust/ledger-records.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import {
  checkedOutputRecord,
  checkedRecord,
  checkedValue,
  checkId,
  commitmentId,
  corrupt,
  type GenesisState,
  keys,
  LedgerError,
  type LedgerListener,
  readRecord,
  type SlotCommitment,
  sealedTransaction,
  sealedValue,
  sealOutputRecord,
  sealRecord,
  slotCommitment,
} from '../common/index.js';
import { type KeyValueStore, WriteBatch } from '../store/index.js';
import { type IndexUpdate, TransactionIndex } from './transaction-index.js';
import { layoutRecord } from './upgrade.js';

const ZERO_32 = new Uint8Array(32);
const ZERO_36 = new Uint8Array(36);

/** What a listener of the ledger (the PostgreSQL publisher) may read of the committed state. */
export type CommittedReads = Pick<
  CommittedState,
  'params' | 'meta' | 'store' | 'accounts' | 'commitment' | 'transactions'
>;

/**
 * The committed state: what the store holds, and what the ledger keeps of it in memory (the metadata, the latest
 * commitment, every account, a window of commitments). It changes only through `write`, which updates memory after
 * the store has taken the batch: a failed write leaves both as they were.
 */
export class CommittedState {
  meta: Meta;
  latest: SlotCommitment;
  /** The stored metadata record as last read: a reader compares it to see whether the writer has committed since. */
  private metaBytes: Uint8Array | undefined;
  /** Every account ever created and not pruned from history, by `bytesKey` of its ID. */
  readonly accounts = new Map<string, AccountRecord>();
  private readonly commitments = new Map<number, SlotCommitment>();
  /** The transactions committed slots applied (their recent records kept in memory). */
  readonly transactions: TransactionIndex;
  constructor(
    readonly store: KeyValueStore,
    readonly params: ProtocolParameters,
    genesis: GenesisState,
  ) {
    const stored = store.get(keys.meta);
    if (stored === undefined) {
      if (!isEmpty(store)) throw new LedgerError('STORE_CORRUPT', 'the store has data but no ledger metadata');
      this.meta = this.writeGenesis(genesis);
    } else {
      this.metaBytes = stored.slice();
      this.meta = checkedValue(metaCodec, keys.meta, stored, 'metadata');
      const m = this.meta;
      if (
        m.networkId !== params.networkId ||
        m.genesisSlot !== params.genesisSlot ||
        m.genesisUnixTime !== params.genesisUnixTime
      ) {
        throw new LedgerError(
          'PARAMETERS_MISMATCH',
          `the store belongs to network ${m.networkId} (genesis slot ${m.genesisSlot} at ${m.genesisUnixTime}); ` +
            'opened with ' +
            `${params.networkName} (${params.networkId}, genesis slot ${params.genesisSlot} at ` +
            `${params.genesisUnixTime})`,
        );
      }
    }
    const latest = this.commitment(this.meta.latestSlot);
    if (latest === undefined || !equalBytes(commitmentId(latest), this.meta.latestCommitmentId)) {
      throw new LedgerError(
        'STORE_CORRUPT',
        `the latest commitment (slot ${this.meta.latestSlot}) is missing or does not match the metadata`,
      );
    }
    this.latest = latest;
    this.loadAccounts();
    this.transactions = new TransactionIndex(store, this.meta.latestSlot);
  }

  private loadAccounts(): void {
    this.accounts.clear();
    for (const [k, v] of this.store.entries(Uint8Array.of(keys.tables.account))) {
      this.accounts.set(bytesKey(k.subarray(1)), readRecord(accountRecord, v, 'account'));
    }
  }

  /**
   * A reader's step before each query: when the writer has committed (or pruned) since the last look, take the new
   * metadata, latest commitment and accounts into memory. All of it is read in this synchronous turn, so it comes
   * from one store snapshot, as does everything the query then reads: the answer is of one committed state, whole.
   */
  follow(): void {
    this.store.refresh?.();
    let stored = this.store.get(keys.meta);
    if (stored === undefined || (this.metaBytes !== undefined && equalBytes(stored, this.metaBytes))) return;
    // A commit since: the tables it may have created are opened (which may move the snapshot on: read again).
    if (this.store.openNewTables?.()) stored = this.store.get(keys.meta)!;
    const meta = checkedValue(metaCodec, keys.meta, stored, 'metadata');
    const bytes = this.store.get(keys.commitment(meta.latestSlot));
    if (bytes === undefined)
      throw new LedgerError('STORE_CORRUPT', `the latest commitment (slot ${meta.latestSlot}) is missing`);
    const latest = readRecord(slotCommitment, bytes, 'commitment');
    this.commitments.set(meta.latestSlot, latest);
    [this.meta, this.latest, this.metaBytes] = [meta, latest, stored.slice()];
    this.loadAccounts();
    this.transactions.follow(meta.latestSlot);
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
    const batch = new WriteBatch();
    batch.put(keys.commitment(p.genesisSlot), encode(slotCommitment, commitment));
    batch.put(keys.meta, sealedValue(metaCodec, keys.meta, m));
    batch.put(keys.outputChecksums, Uint8Array.of(1));
    // Written in this layout: no upgrade step may take the records below for older ones (and seal them twice).
    batch.put(keys.layout, layoutRecord());
    // Each genesis "transaction" (the first 32 bytes its outputs share) gets a record as an applied one has, of no
    // block (32 zero bytes, as an imported network's genesis outputs have): what it counts is how a genesis output
    // whose key is damaged is told from one never made (checkMissingOutput).
    const made = new Map<string, { txId: Uint8Array; record: TransactionRecord }>();
    for (const { outputId, output } of genesis.outputs ?? []) {
      checkId(outputId, 34, 'genesis output ID');
      const tx = bytesKey(outputId, 32);
      const counted = made.get(tx) ?? {
        txId: outputId.subarray(0, 32),
        record: { blockId: ZERO_32, slot: p.genesisSlot, storedOutputs: 0 },
      };
      counted.record.storedOutputs++;
      made.set(tx, counted);
      const record: OutputRecord = { createdSlot: p.genesisSlot, spentSlot: UNSPENT, checksum: 0, output };
      const key = keys.output(p.genesisSlot, outputId);
      const bytes = encode(outputRecord, record);
      sealOutputRecord(key, bytes);
      batch.put(key, bytes);
      const chain = outputChainId(output, outputId);
      const chainKey = chain && keys.chain(chain);
      if (chainKey !== undefined) batch.put(chainKey, sealRecord(chainKey, outputId));
    }
    for (const { txId, record } of made.values()) {
      const key = keys.transaction(txId);
      batch.put(key, sealedTransaction(key, record));
    }
    for (const { accountId, blockIssuanceCredits } of genesis.accounts ?? []) {
      checkId(accountId, 32, 'genesis account ID');
      const record: AccountRecord = {
        createdSlot: p.genesisSlot,
        destroyedSlot: LIVE,
        blockIssuanceCredits,
        history: [{ slot: p.genesisSlot, blockIssuanceCredits }],
      };
      batch.put(keys.account(accountId), encode(accountRecord, record));
    }
    this.store.write(batch);
    return m;
  }

  /** The commitment of a stored slot, from a window kept in memory (commits and congestion queries reread them). */
  commitment(slot: number): SlotCommitment | undefined {
    const cached = this.commitments.get(slot);
    if (cached !== undefined) return cached;
    const bytes = this.store.get(keys.commitment(slot));
    if (bytes === undefined) return undefined;
    const c = readRecord(slotCommitment, bytes, 'commitment');
    this.checkCommitment(slot, c);
    if (this.commitments.size > 4 * this.params.maxCommittableAge + 16)
      this.commitments.delete(this.commitments.keys().next().value!);
    this.commitments.set(slot, c);
    return c;
  }

  /**
   * A stored commitment is what the chain says it is: its ID the one the next slot's commitment names as previous (the
   * latest's: the one the metadata names). A changed byte anywhere in it, its slot included, changes its ID.
   * @throws LedgerError STORE_CORRUPT
   */
  private checkCommitment(slot: number, c: SlotCommitment): void {
    const what = `the stored commitment of slot ${slot} (key ${toHex(keys.commitment(slot)).slice(2)})`;
    let expected: Uint8Array | undefined;
    if (slot === this.meta.latestSlot) expected = this.meta.latestCommitmentId;
    else if (slot < this.meta.latestSlot) {
      // The next commitment as kept in memory (checked when it was read), else as stored.
      let next = this.commitments.get(slot + 1);
      if (next === undefined) {
        const bytes = this.store.get(keys.commitment(slot + 1));
        if (bytes === undefined) throw corrupt(what, `the commitment of slot ${slot + 1} is missing`);
        next = readRecord(slotCommitment, bytes, 'commitment');
      }
      expected = next.previousCommitmentId;
    }
    if (expected !== undefined && !equalBytes(commitmentId(c), expected))
      throw corrupt(what, 'its ID is not the one the chain names');
  }

  /** A committed output: its creating slot (from its transaction's record, else genesis) and stored bytes. */
  locateOutput(outputId: Uint8Array): { slot: number; bytes: Uint8Array } | undefined {
    return this.outputAt(this.creatingSlot(outputId), outputId);
  }

  /**
   * The slot that created the outputs of an output's transaction, if they are committed: its transaction's record
   * says, and an output without one is a genesis output (or none at all). `transactionKey`: the `bytesKey` of its
   * first 32 bytes, if the caller has it.
   */
  creatingSlot(outputId: Uint8Array, transactionKey = bytesKey(outputId, 32)): number {
    return this.transactions.slotOf(outputId, transactionKey) ?? this.params.genesisSlot;
  }

  /** A committed output created in `slot` (`creatingSlot`): the slot and its stored bytes. */
  outputAt(slot: number, outputId: Uint8Array): { slot: number; bytes: Uint8Array } | undefined {
    const key = keys.output(slot, outputId);
    const bytes = this.store.get(key);
    return bytes === undefined ? undefined : { slot, bytes: checkedOutputRecord(key, bytes) };
  }

  /**
   * Says why an output was not found: STORE_CORRUPT when its transaction's record says more of its outputs are stored
   * than the store holds under that transaction (a record lost, or moved away by a damaged key: each record found is
   * checked against its own key too); else it is simply not there. Only on the way to a 404: never on a hit.
   * (A genesis output's record is counted by its genesis transaction's, of no block; in a store made before those,
   * a genesis record lost is not told from one never made.)
   * @throws LedgerError STORE_CORRUPT
   */
  checkMissingOutput(outputId: Uint8Array): void {
    const txId = outputId.subarray(0, 32);
    const record = this.transactions.get(txId);
    if (record === undefined || record.storedOutputs === 0) return;
    let found = 0;
    for (const [k, v] of this.store.entries(keys.output(record.slot, txId))) {
      checkedOutputRecord(k, v);
      found++;
    }
    if (found < record.storedOutputs)
      throw corrupt(
        `the output ${toHex(outputId)}`,
        `its transaction has ${record.storedOutputs} outputs stored in slot ${record.slot}, the store holds ${found}`,
      );
  }

  /** A committed output's record and creating slot. */
  output(outputId: Uint8Array): { slot: number; record: OutputRecord } | undefined {
    const located = this.locateOutput(outputId);
    return located === undefined
      ? undefined
      : { slot: located.slot, record: readRecord(outputRecord, located.bytes, 'output') };
  }

  /** The slot of a committed block (undefined: none, or one the index does not hold: transaction-index.ts). */
  blockSlot(blockId: Uint8Array): number | undefined {
    return this.transactions.blockSlot(blockId);
  }

  /** Whether a committed block without a transaction has this ID (blocks with one are found through it). */
  indexesBlock(blockId: Uint8Array): boolean {
    const key = keys.blockIndex(blockId);
    const bytes = this.store.get(key);
    if (bytes === undefined) return false;
    checkedValue(u32, key, bytes, 'block index entry'); // sealed (store layout 7): a flipped value is damage
    return true;
  }

  /** The id of a chain's current (unspent, committed) output. */
  chainOutput(chainId: Uint8Array): Uint8Array | undefined {
    const key = keys.chain(chainId);
    const bytes = this.store.get(key);
    return bytes && checkedRecord(key, bytes, 'chain entry');
  }

  /** Writes a batch that moves the state to `meta` (one atomic write), then takes the new state into memory. */
  write(
    batch: WriteBatch,
    meta: Meta,
    update: {
      commitment?: SlotCommitment;
      accounts?: ReadonlyMap<string, AccountRecord>;
      /** What the write changed in the transaction index. */
      transactions?: IndexUpdate;
    } = {},
  ): void {
    this.store.write(batch);
    this.meta = meta;
    if (update.commitment !== undefined) {
      this.latest = update.commitment;
      this.commitments.set(meta.latestSlot, update.commitment);
    }
    for (const [id, r] of update.accounts ?? []) this.accounts.set(id, r);
    if (update.transactions !== undefined) this.transactions.apply(update.transactions, meta.latestSlot);
  }

  /**
   * Records the store current with its network as of `at`, unix seconds: its writer follows a node and stood at the
   * node's confirmed milestone, or is the network (the demo, a slot clock) and committed the slots due. Readers in
   * other processes judge their health by the record's age (http/core/info.ts): a follower that stopped, lost its
   * source or cannot write (a full disk) takes them out. One small write; then `listeners` are told (the PostgreSQL
   * publisher records it in the database). @throws LedgerError STORE_FAILURE
   */
  markCurrent(at: number, listeners: Iterable<LedgerListener>): void {
    const batch = new WriteBatch(16, 1);
    batch.put(keys.currentAt, sealedValue(u32, keys.currentAt, Math.floor(at)));
    this.store.write(batch);
    for (const l of listeners) l.current?.(at);
  }

  /** Seconds from the record of markCurrent to `now`; undefined where no writer made one (a store an import built). */
  silence(now: number): number | undefined {
    const bytes = this.store.get(keys.currentAt);
    return bytes === undefined
      ? undefined
      : Math.max(0, now - checkedValue(u32, keys.currentAt, bytes, 'time the store was last current'));
  }
}

export function isEmpty(store: KeyValueStore): boolean {
  for (const _ of store.entries(new Uint8Array(0))) return false;
  return true;
}
