// Crash safety (issues 4 and 26): a child commits slots on LMDB and kills itself with SIGKILL at chosen points of a
// commit: before its store write, inside it (every put applied, the LMDB transaction not committed), after it. Each
// reopen must find every slot the child reported committed, no partial slot, an intact commitment chain, an unspent set
// equal to a replay of the stored diffs, each chain (alias, foundry, NFT) at its unspent output, and every transaction.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { commitmentId, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';
import { RECENT_SLOTS } from '../../../src/stardust/ledger-records.js';
import { expectChainState } from '../../helpers/chain-state.js';

const here = dirname(fileURLToPath(import.meta.url));
const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
const dir = mkdtempSync(join(tmpdir(), 'tangle-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  /** Slot → commitment ID, as the child reported them. */
  reported: Map<number, string>;
  killed: boolean;
  out: string;
}

/**
 * Runs the child with a kill point (`SLOT:WRITE:PHASE`, see fixtures/crash-child.mjs): it kills itself there, inside
 * the commit, or says the point was not reached. Where it dies is chosen by the test, not by a timer, so each run means
 * the same on an idle and on a loaded machine.
 */
function runTo(point: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [resolve(here, '../fixtures/crash-child.mjs'), dir, String(GENESIS_TIME), point],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      const reported = new Map<number, string>();
      for (const m of out.matchAll(/^committed (\d+) (0x[0-9a-f]+)$/gm)) reported.set(Number(m[1]), m[2]!);
      if (signal === 'SIGKILL' || code === 0) done({ reported, killed: signal === 'SIGKILL', out });
      else fail(new Error(`child exited ${code}: ${err}`));
    });
  });
}

/** Reopens the store and checks it whole; returns its latest committed slot. */
function checkStore(allReported: Map<number, string>): number {
  const ledger = openLedger({ path: dir, params });
  try {
    const latest = ledger.latestCommitment().slot;
    expect(latest).toBeGreaterThanOrEqual(Math.max(0, ...allReported.keys()));
    // every reported slot is there, with the id the child saw
    for (const [s, id] of allReported) expect(toHex(ledger.commitmentOf(s)!.commitmentId)).toBe(id);
    // chain intact from genesis, and each committed slot complete (diff present); nothing beyond the latest
    let previous = commitmentId(ledger.commitmentOf(0)!.commitment);
    for (let s = 1; s <= latest; s++) {
      const c = ledger.commitmentOf(s)!;
      expect(c.commitment.previousCommitmentId).toEqual(previous);
      previous = c.commitmentId;
      expect(ledger.utxoChanges(s).commitmentId).toEqual(c.commitmentId);
    }
    expect(ledger.commitmentOf(latest + 1)).toBeUndefined();
    // the unspent set equals genesis + created − consumed over all stored diffs
    const replay = new Set<string>();
    for (let k = 1; k <= 4; k++) replay.add(toHex(Uint8Array.of(...new Uint8Array(32).fill(0xa0 + k), 0, 0)));
    for (let s = 1; s <= latest; s++) {
      const d = ledger.utxoChanges(s);
      for (const o of d.createdOutputs) replay.add(toHex(o));
      for (const o of d.consumedOutputs) replay.delete(toHex(o));
    }
    const unspent = new Set([...ledger.unspentOutputs()].map(([id]) => toHex(id)));
    expect(unspent).toEqual(replay);
    // the chains (the child's alias, its foundry, its NFT) are found by id at their unspent outputs
    if (latest >= 2) expectChainState(ledger, latest, 3);
    // every transaction of every committed slot is found again (recent records and the merged index alike)
    for (let s = 1; s <= latest; s++)
      for (const o of ledger.utxoChanges(s).createdOutputs)
        expect(ledger.includedBlock(o.subarray(0, 32)).slot, `slot ${s}`).toBe(s);
    return latest;
  } finally {
    ledger.close();
  }
}

it('a SIGKILL before, inside and after the store write of a commit (a plain slot, and the slot that merges the transaction index) leaves every slot whole or absent; a commit is one store write', async () => {
  const allReported = new Map<number, string>();
  let latest = 0;
  // Slot 32 is the one whose commit merges the recent transaction records into the index (RECENT_SLOTS).
  expect(RECENT_SLOTS).toBe(32);
  for (const slot of [2, RECENT_SLOTS, RECENT_SLOTS + 1]) {
    for (const [write, phase] of [
      [1, 'before'],
      [1, 'inside'],
      [1, 'after'],
      [2, 'before'],
    ] as const) {
      // A point at a slot this store has committed already: go on from the next one.
      const target = Math.max(slot, latest + 1);
      const run = await runTo(`${target}:${write}:${phase}`);
      for (const [s, id] of run.reported) allReported.set(s, id);
      const now = checkStore(allReported);
      const where = `slot ${target}, write ${write}, ${phase}`;
      if (write === 1) {
        expect(run.killed, where).toBe(true);
        // Killed before its write was committed, the slot is absent; after, it is there whole (checked above).
        expect(now, where).toBe(phase === 'after' ? target : target - 1);
      } else {
        // A commit with a second store write would have been killed between the two: it has one.
        expect(run.killed, where).toBe(false);
        expect(run.out, where).toContain(`not reached: the commit of slot ${target} made 1 store write(s)`);
        expect(now, where).toBe(target);
      }
      latest = now;
    }
  }
  // Each group of points commits its slot, and the point at a second write the next one: 2, 3 | 32, 33 | 34, 35.
  expect(latest).toBe(RECENT_SLOTS + 3);
  expect(allReported.size).toBeGreaterThan(RECENT_SLOTS - 3); // the slots killed after their write are unreported
}, 300_000);
