// Crash safety of the CLI (issue 6): `import` killed with SIGKILL at random moments resumes to the same ledger as an
// uninterrupted import; the live demo killed with SIGKILL leaves a whole, consistent store.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { inspectStore, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { applyEvent, parseLine } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { checkIntegrity } from '../helpers/integrity.js';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'tangle-cli-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function killAfter(args: string[], ms: number, waitFor?: RegExp): Promise<string> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const arm = () => setTimeout(() => child.kill('SIGKILL'), ms);
    if (waitFor === undefined) arm();
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (waitFor !== undefined && waitFor.test(out)) {
        waitFor = undefined;
        arm();
      }
    });
    child.on('exit', () => done(out));
  });
}

it('import: five SIGKILLs, then a resumed import ends with the same commitments as an uninterrupted one', async () => {
  const file = join(dir, 'history.ndjson');
  execFileSync(process.execPath, [cli, 'simulate', '--slots', '150', '--out', file, '--seed', '11', '--genesis-time', '1700000000']);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const genesis = parseLine(lines[0]!);
  if (genesis.type !== 'genesis') throw new Error('genesis first');
  const genesisIds = (genesis.genesis.outputs ?? []).map((o) => o.outputId);

  // The reference: the same history applied without interruption, in memory.
  const reference = openLedger({ params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 }), genesis: genesis.genesis, clock: () => 1_700_000_000 });
  for (const line of lines.slice(1)) {
    const e = parseLine(line);
    if (e.type !== 'genesis') applyEvent(reference, e);
  }

  const db = join(dir, 'import-db');
  let seed = 3;
  const interruptedAt: number[] = [];
  for (let run = 0; run < 5; run++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    await killAfter(['import', file, '--db', db], 250 + (seed % 300));
    // Killed before the genesis was written: there is no ledger yet, and the next run starts over.
    if (inspectStore(db) !== undefined) interruptedAt.push(checkIntegrity(db, genesisIds).latest);
  }
  // Not vacuous: some runs were stopped partway through the history.
  expect(interruptedAt.some((slot) => slot > 0 && slot < 150)).toBe(true);
  execFileSync(process.execPath, [cli, 'import', file, '--db', db]);
  const { latest, ids } = checkIntegrity(db, genesisIds);
  expect(latest).toBe(150);
  for (let s = 0; s <= latest; s++) expect(ids[s]).toBe(toHex(reference.commitmentOf(s)!.commitmentId));
}, 120_000);

it('the live demo: SIGKILL leaves every committed slot whole and the chain intact', async () => {
  const db = join(dir, 'demo-db');
  const out = await killAfter(['serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '60'], 50, /listening/);
  expect(out).toMatch(/listening/);
  // The demo's genesis outputs: the simulation's (seed 1); their IDs do not depend on the genesis time.
  const demoGenesis = new Simulation({ params: PROTOCOL_PARAMETERS.testnet, seed: 1 }).genesis();
  const { latest } = checkIntegrity(db, (demoGenesis.outputs ?? []).map((o) => o.outputId));
  expect(latest).toBeGreaterThanOrEqual(60);
}, 60_000);
