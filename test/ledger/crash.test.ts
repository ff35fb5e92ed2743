// Crash safety (issue 4): a child commits slots on LMDB and is killed with SIGKILL at random moments, ten times.
// Each reopen must find every slot the child reported committed, no partial slot, an intact commitment chain, an
// unspent set equal to a replay of the stored diffs, and each chain (alias, foundry, NFT) at its unspent output.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { commitmentId, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { expectChainState } from '../helpers/chain-state.js';

const here = dirname(fileURLToPath(import.meta.url));
const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
const dir = mkdtempSync(join(tmpdir(), 'tangle-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it has committed at least one more slot, then kills it after a random delay. */
function runAndKill(delayMs: number): Promise<Map<number, string>> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(here, 'fixtures/crash-child.mjs'), dir, String(GENESIS_TIME)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const reported = new Map<number, string>();
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (const line of out.split('\n').slice(0, -1)) {
        const [, slot, id] = line.split(' ');
        reported.set(Number(slot), id!);
      }
      out = out.slice(out.lastIndexOf('\n') + 1);
      if (timer === undefined && reported.size > 0) timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? done(reported) : fail(new Error(`child exited ${code}: ${err}`)),
    );
  });
}

it('survives ten SIGKILLs: every reported slot, no partial slot, chain intact, UTXO set = replay of the diffs', async () => {
  const allReported = new Map<number, string>();
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let run = 0; run < 10; run++) {
    const reported = await runAndKill(Math.floor(random() * 400));
    for (const [s, id] of reported) allReported.set(s, id);

    const ledger = openLedger({ path: dir, params });
    try {
      const latest = ledger.latestCommitment().slot;
      expect(latest).toBeGreaterThanOrEqual(Math.max(...allReported.keys()));
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
    } finally {
      ledger.close();
    }
  }
  expect(allReported.size).toBeGreaterThan(10);
}, 120_000);
