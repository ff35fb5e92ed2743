import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { encode, u32 } from '../../codec/index.js';
import { merkleRoot } from '../../crypto/index.js';
import { type ByteSource, readSnapshot, type SnapshotRecord } from '../../snapshot/index.js';
import {
  type ImportedNetwork,
  importedMilestone,
  importedNetwork,
  meta as metaCodec,
  solidEntryPoints,
} from '../../stardust/ledger-records.js';
import { PROTOCOL_PARAMETERS, type ProtocolParameters } from '../../stardust/protocol-parameters.js';
import {
  type DeltaSnapshotHeader,
  type FullSnapshotHeader,
  type MilestoneDiff,
  type SnapshotOutput,
  type SnapshotTreasuryOutput,
  SnapshotType,
  snapshotTreasuryOutput,
} from '../../stardust/snapshot.js';
import { bytesKey, equalBytes } from '../../util/bytes.js';
import {
  checkedValue,
  commitmentId,
  encodeDiff,
  keys,
  LedgerError,
  nextReferenceManaCost,
  readRecord,
  rootsId,
  type SlotCommitment,
  sealedValue,
  slotCommitment,
  sortedRoot,
} from '../common/index.js';
import { importedParams, openEmbedded, treasuryAfter } from '../core/index.js';
import { startIndexBuild } from '../indexer/index.js';
import { LmdbStore, WriteBatch } from '../store/index.js';
import { invalid, SnapshotState } from './snapshot-state.js';

// Building a ledger from a network's TIP-35 snapshots (issue 29). A milestone is a slot (index = slot), as for the
// ledgers tangle-core builds itself. The full snapshot's outputs are stored at their booked milestones; its milestone
// diffs (from its ledger milestone back to its target) are undone, newest first; its target milestone becomes the
// ledger's genesis slot. Each delta's diffs are then applied as committed slots, in order, each with its UTXO changes
// (what `/milestones/{index}/utxo-changes` answers) and a commitment chained to the one before. The store is built
// in a directory beside the target and renamed into place at the end: a refused or damaged snapshot leaves nothing.

export interface SnapshotImportOptions {
  /** The LMDB directory to create; it must not hold a ledger. */
  path: string;
  full: ByteSource;
  /** Delta snapshots on top of the full one, in order. */
  deltas?: readonly ByteSource[];
  /** The slot length of the ledger's clock after the snapshot (default: the preset's, 10 s). */
  slotDurationSeconds?: number;
  /** Told of progress every 10,000 records and at each phase. */
  onProgress?: (p: { phase: 'outputs' | 'diffs' | 'deltas'; records: number }) => void;
}

export interface SnapshotImportResult {
  network: ImportedNetwork;
  params: ProtocolParameters;
  /** The ledger's latest slot: the last delta's target, else the full snapshot's. */
  latestSlot: number;
  unspentOutputs: number;
  treasury: SnapshotTreasuryOutput;
}

/**
 * Builds a ledger at `path` from a full snapshot and its deltas. Checks, besides each file's own strictness: the
 * diffs are the milestones between the ledger and target milestones (and the deltas' the ones after), each delta
 * builds on the full snapshot's target, every output a diff removes or spends is in the ledger, and outputs plus
 * treasury equal the token supply before and after.
 * @throws CodecError (a damaged file), LedgerError SNAPSHOT_INVALID (a snapshot that does not hold together),
 *   INVALID_ARGUMENT (a path that holds something)
 */
export async function importSnapshot(o: SnapshotImportOptions): Promise<SnapshotImportResult> {
  if (existsSync(o.path) && readdirSync(o.path).length > 0)
    throw new LedgerError('INVALID_ARGUMENT', `${o.path} is not empty: import a snapshot into a new directory`);
  const partial = `${o.path}.partial-${process.pid}`;
  removeAbandoned(o.path);
  rmSync(partial, { recursive: true, force: true });
  try {
    const result = await build(o, partial);
    rmSync(o.path, { recursive: true, force: true }); // the empty directory, if there was one
    renameSync(partial, o.path);
    return result;
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Removes what imports into `path` left when they were killed (SIGKILL, a power cut: no handler ran): the folders
 * `PATH.partial-PID` whose process is gone. One whose process still runs is another import's, and is left alone.
 */
function removeAbandoned(path: string): void {
  const folder = dirname(resolve(path));
  const prefix = `${basename(resolve(path))}.partial-`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return; // no parent folder yet: nothing was left there
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : Number.NaN;
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      rmSync(join(folder, name), { recursive: true, force: true });
  }
}

/** Whether a process of this id runs (signal 0 checks without sending; EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function build(o: SnapshotImportOptions, path: string): Promise<SnapshotImportResult> {
  const records = readSnapshot(o.full);
  const first = (await records.next()).value as SnapshotRecord | undefined;
  if (first?.kind !== 'header' || first.header.type !== SnapshotType.Full)
    throw invalid('the first file is a delta snapshot: import a full snapshot, then its deltas');
  const header = first.header;
  if (header.ledgerMilestoneIndex < header.targetMilestoneIndex)
    throw invalid(`ledger milestone ${header.ledgerMilestoneIndex} is before target ${header.targetMilestoneIndex}`);
  const network: ImportedNetwork = {
    params: header.protocolParameters.params,
    slotDurationSeconds: o.slotDurationSeconds ?? PROTOCOL_PARAMETERS.testnet.slotDurationSeconds,
    genesisMilestoneIndex: header.genesisMilestoneIndex,
    targetMilestoneIndex: header.targetMilestoneIndex,
    targetMilestoneTimestamp: header.targetMilestoneTimestamp,
    targetMilestoneId: header.targetMilestoneId,
    parametersMilestoneIndex: header.protocolParameters.targetMilestoneIndex,
    parametersProtocolVersion: header.protocolParameters.protocolVersion,
  };
  const params = importedParams(network);
  // The ledger's own genesis (metadata, genesis commitment, indexer marker), then the snapshot beside it.
  openEmbedded({ path, params, genesis: {} }).close();
  const store = new LmdbStore(path, { bulk: true });
  const state = new SnapshotState(store);
  try {
    let treasury = header.treasuryOutput;
    let expected = header.ledgerMilestoneIndex; // the next diff: the ledger milestone's, then each one before
    let n = 0;
    const progress = (phase: 'outputs' | 'diffs' | 'deltas') => {
      if (++n % 10_000 === 0) o.onProgress?.({ phase, records: n });
    };
    const seps: Uint8Array[] = [];
    // The outputs go through an external sort, into the store in key order (snapshot-state.ts), before the diffs.
    state.startBulk(path);
    for await (const r of records) {
      if (r.kind !== 'output') await state.endBulk();
      if (r.kind === 'output') {
        if (state.busy) await state.ready();
        state.add(r.output);
        progress('outputs');
      } else if (r.kind === 'milestoneDiff') {
        if (expected === header.ledgerMilestoneIndex) checkSupply(state, treasury, network, 'ledger');
        const index = r.diff.milestone.index;
        // hornet's reader skips diffs at or before the target (a file may carry them); the others must chain.
        if (index <= header.targetMilestoneIndex) continue;
        if (index !== expected) throw invalid(`the full snapshot's diffs skip from milestone ${expected} to ${index}`);
        expected--;
        state.flush();
        undo(state, r.diff);
        if (r.diff.treasuryInput !== undefined) treasury = r.diff.treasuryInput;
        progress('diffs');
      } else if (r.kind === 'solidEntryPoint') seps.push(r.blockId);
    }
    await state.endBulk();
    if (expected !== header.targetMilestoneIndex)
      throw invalid(`the full snapshot lacks the diffs of milestones ${header.targetMilestoneIndex + 1}..${expected}`);
    checkSupply(state, treasury, network, 'target');
    state.time(header.targetMilestoneIndex, header.targetMilestoneTimestamp);
    let latest: { slot: number; commitment: SlotCommitment } = {
      slot: params.genesisSlot,
      commitment: genesisOf(store),
    };
    for (const [i, delta] of (o.deltas ?? []).entries()) {
      const applied = await applyDelta(state, delta, i, header, latest, params);
      latest = applied.latest;
      if (applied.treasury !== undefined) treasury = applied.treasury;
      const sepsKey = keys.solidEntryPoints(latest.slot);
      state.put(sepsKey, sealedValue(solidEntryPoints, sepsKey, applied.seps));
      o.onProgress?.({ phase: 'deltas', records: ++n });
    }
    if (o.deltas !== undefined && o.deltas.length > 0) checkSupply(state, treasury, network, 'the last delta');
    // The snapshot's own records, each sealed under its key (common/record-checks.ts), as the milestone times are.
    state.put(keys.importedNetwork, sealedValue(importedNetwork, keys.importedNetwork, network));
    state.put(keys.treasury, sealedValue(snapshotTreasuryOutput, keys.treasury, treasury));
    const sepsKey = keys.solidEntryPoints(header.targetMilestoneIndex);
    state.put(sepsKey, sealedValue(solidEntryPoints, sepsKey, seps));
    state.put(keys.recentFrom, sealedValue(u32, keys.recentFrom, latest.slot + 1)); // every transaction is indexed
    state.flush();
    // No output index yet: the first writer builds it in the background, the indexer's routes answering 503 until
    // then (issue 58: the entries were 4.5 of the 6.9 records an output cost the import).
    const build = new WriteBatch();
    startIndexBuild(build, state.records, false);
    store.write(build);
    await store.sync();
    return { network, params, latestSlot: latest.slot, unspentOutputs: state.outputs, treasury };
  } finally {
    await state.close();
    store.close();
  }
}

function checkSupply(state: SnapshotState, treasury: SnapshotTreasuryOutput, n: ImportedNetwork, at: string): void {
  const total = state.supply + treasury.amount;
  if (total !== n.params.tokenSupply)
    throw invalid(
      `at the ${at} milestone the outputs (${state.supply}) and the treasury (${treasury.amount}) make ${total}, ` +
        `not the token supply ${n.params.tokenSupply}`,
    );
}

/** A diff undone: what it consumed is unspent again, what it created was not there (an output in both: neither). */
function undo(state: SnapshotState, diff: MilestoneDiff): void {
  const created = new Set(diff.created.map((c) => bytesKey(c.outputId)));
  const consumed = new Set(diff.consumed.map((c) => bytesKey(c.outputId)));
  for (const c of diff.created) if (!consumed.has(bytesKey(c.outputId))) state.remove(c);
  for (const c of diff.consumed) {
    if (created.has(bytesKey(c.outputId))) continue;
    if (state.has(c)) throw invalid(`milestone ${diff.milestone.index} consumes ${hex(c)}, which the ledger holds`);
    state.add(c);
  }
  state.flush();
}

const hex = (o: SnapshotOutput) => Buffer.from(o.outputId).toString('hex');

function genesisOf(store: LmdbStore): SlotCommitment {
  const m = checkedValue(metaCodec, keys.meta, store.get(keys.meta)!, 'metadata');
  return readRecord(slotCommitment, store.get(keys.commitment(m.latestSlot))!, 'commitment');
}

/** A delta's diffs, applied onwards as committed slots. */
async function applyDelta(
  state: SnapshotState,
  source: ByteSource,
  which: number,
  full: FullSnapshotHeader,
  latest: { slot: number; commitment: SlotCommitment },
  params: ProtocolParameters,
) {
  const records = readSnapshot(source);
  const first = (await records.next()).value as SnapshotRecord | undefined;
  if (first?.kind !== 'header' || first.header.type !== SnapshotType.Delta)
    throw invalid(`delta ${which + 1} is a full snapshot: give one full snapshot, then deltas`);
  const header = first.header as DeltaSnapshotHeader;
  if (!equalBytes(header.fullSnapshotTargetMilestoneId, full.targetMilestoneId))
    throw invalid(`delta ${which + 1} builds on another full snapshot (its target milestone ID differs)`);
  let treasury: SnapshotTreasuryOutput | undefined;
  const seps: Uint8Array[] = [];
  for await (const r of records) {
    if (r.kind === 'solidEntryPoint') seps.push(r.blockId);
    if (r.kind !== 'milestoneDiff') continue;
    const slot = r.diff.milestone.index;
    // A later delta repeats the diffs of the earlier ones (TIP-35 appends in place): those are applied already.
    if (slot <= latest.slot) continue;
    if (slot !== latest.slot + 1)
      throw invalid(`delta ${which + 1} goes on at milestone ${slot}; the ledger is at ${latest.slot}`);
    latest = commitDiff(state, r.diff, latest, params);
    treasury = treasuryAfter(r.diff.milestone) ?? treasury;
  }
  if (latest.slot !== header.targetMilestoneIndex)
    throw invalid(
      `delta ${which + 1} ends at milestone ${latest.slot}, its header says ${header.targetMilestoneIndex}`,
    );
  return { latest, treasury, seps };
}

/** A milestone's diff as a committed slot: outputs created and spent, its UTXO changes, a commitment after the last. */
function commitDiff(
  state: SnapshotState,
  diff: MilestoneDiff,
  latest: { slot: number; commitment: SlotCommitment },
  params: ProtocolParameters,
): { slot: number; commitment: SlotCommitment } {
  const slot = diff.milestone.index;
  state.flush();
  for (const c of diff.created) {
    if (c.milestoneIndexBooked !== slot)
      throw invalid(`milestone ${slot} creates ${hex(c)}, booked at milestone ${c.milestoneIndexBooked}`);
    state.add(c);
  }
  state.flush(); // an output created and consumed in the milestone is stored before it is spent
  for (const c of diff.consumed) state.spend(c, slot, c.targetTransactionId);
  const byId = (a: SnapshotOutput, b: SnapshotOutput) => Buffer.compare(a.outputId, b.outputId);
  const consumed = [...diff.consumed].sort(byId);
  const txIds = new Map(diff.created.map((c) => [bytesKey(c.outputId.subarray(0, 32)), c.outputId.subarray(0, 32)]));
  const commitment: SlotCommitment = {
    protocolVersion: params.protocolVersion,
    slot,
    previousCommitmentId: commitmentId(latest.commitment),
    rootsId: rootsId(merkleRoot([]), merkleRoot([...txIds.keys()].sort().map((k) => txIds.get(k)!)), sortedRoot([])),
    cumulativeWeight: latest.commitment.cumulativeWeight,
    referenceManaCost: nextReferenceManaCost(latest.commitment.referenceManaCost, 0n, params),
  };
  const m = checkedValue(metaCodec, keys.meta, state.get(keys.meta)!, 'metadata');
  state.put(keys.commitment(slot), encode(slotCommitment, commitment));
  state.put(
    keys.diff(slot),
    encodeDiff({
      created: [...diff.created].sort(byId).map((c) => c.outputId),
      consumed: consumed.map((c) => c.outputId),
      consumedSlots: consumed.map((c) => c.milestoneIndexBooked),
    }),
  );
  const next = { ...m, latestSlot: slot, latestCommitmentId: commitmentId(commitment) };
  state.put(keys.meta, sealedValue(metaCodec, keys.meta, next));
  state.time(slot, diff.milestone.timestamp);
  const key = keys.importedMilestone(slot);
  state.put(key, sealedValue(importedMilestone, key, { milestone: diff.milestone, treasuryInput: diff.treasuryInput }));
  state.flush();
  return { slot, commitment };
}
