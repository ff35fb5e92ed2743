// Crash safety of the CLI (issues 6 and 9): `import` killed with SIGKILL right after it reports a chosen slot resumes
// to the same ledger as an uninterrupted import; the live demo killed with SIGKILL leaves a whole, consistent store.
// Kills follow observed output, never a timer: the test means the same on an idle and on a loaded machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../src/index.js';
import { demoGenesis } from '../../src/node/demo.js';
import { applyEvent, parseLine } from '../../src/sim/events.js';
import { Simulation } from '../../src/sim/simulator.js';
import { checkIntegrity } from '../helpers/integrity.js';
import { execFileAsync } from '../helpers/run.js';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'tangle-cli-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the CLI and kills it with SIGKILL as soon as its output (stdout and stderr) matches `when`: on observed
 * progress, never after a guessed number of milliseconds, so a busy machine changes only how long it takes.
 */
function killWhen(
  args: string[],
  when: RegExp,
  /** Called with the output before the child is killed (to kill what else it names). */
  before?: (out: string) => void,
): Promise<{ out: string; signal: NodeJS.Signals | null; code: number | null }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let killed = false;
    const watch = (d: Buffer) => {
      out += d.toString();
      if (killed || !when.test(out)) return;
      killed = true;
      before?.(out);
      child.kill('SIGKILL');
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('exit', (code, signal) => done({ out, signal, code }));
  });
}

it('import: five SIGKILLs, each right after a chosen slot was reported committed; the resumed import ends with the same commitments as an uninterrupted one', async () => {
  const file = join(dir, 'history.ndjson');
  await execFileAsync(process.execPath, [
    cli,
    'simulate',
    '--slots',
    '150',
    '--out',
    file,
    '--seed',
    '11',
    '--genesis-time',
    '1700000000',
  ]);
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const genesis = parseLine(lines[0]!);
  if (genesis.type !== 'genesis') throw new Error('genesis first');
  const genesisIds = (genesis.genesis.outputs ?? []).map((o) => o.outputId);

  // The reference: the same history applied without interruption, in memory.
  const reference = openLedger({
    params: protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 }),
    genesis: genesis.genesis,
    clock: () => 1_700_000_000,
  });
  for (const line of lines.slice(1)) {
    const e = parseLine(line);
    if (e.type !== 'genesis') applyEvent(reference, e);
  }

  const db = join(dir, 'import-db');
  let seed = 3;
  let latest = 0;
  const interrupted: number[] = [];
  for (let run = 0; run < 5; run++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const target = latest + 1 + (seed % 20); // a slot this run has still to commit
    const result = await killWhen(['import', file, '--db', db, '--verbose'], new RegExp(`committed slot ${target}\n`));
    expect(result.code, result.out).toBeNull(); // killed, never failed on its own
    // Every slot the run reported is there, whole, on top of an intact chain.
    const reported = [...result.out.matchAll(/committed slot (\d+)/g)].map((m) => Number(m[1]));
    expect(reported).toContain(target);
    latest = checkIntegrity(db, genesisIds).latest;
    expect(latest).toBeGreaterThanOrEqual(target);
    if (latest < 150) interrupted.push(latest);
  }
  // Not vacuous: runs were stopped partway through the history.
  expect(interrupted.length).toBeGreaterThan(0);
  await execFileAsync(process.execPath, [cli, 'import', file, '--db', db]);
  const { latest: final, ids } = checkIntegrity(db, genesisIds);
  expect(final).toBe(150);
  for (let s = 0; s <= final; s++) expect(ids[s]).toBe(toHex(reference.commitmentOf(s)!.commitmentId));
}, 120_000);

it('the live demo: SIGKILL of its writer and supervisor as soon as it listens leaves every committed slot whole and the chain intact', async () => {
  const db = join(dir, 'demo-db');
  // The demo's writer is a process of its own (serve --workers, the default): it is the one killed mid-write, with
  // the supervisor that would otherwise stop it gracefully. Its pid is on the line that names the processes.
  const writer = /processes: .*writer (\d+)/;
  const { out, signal } = await killWhen(
    ['serve', '--demo', '--port', '0', '--db', db, '--demo-slots', '60'],
    writer,
    (text) => process.kill(Number(writer.exec(text)![1]), 'SIGKILL'),
  );
  expect(out).toMatch(/listening/);
  expect(signal).toBe('SIGKILL');
  // The demo's genesis outputs: the simulation's (seed 1) and the faucet's; their IDs do not depend on the genesis time.
  const genesis = demoGenesis(new Simulation({ params: PROTOCOL_PARAMETERS.testnet, seed: 1 }));
  const { latest } = checkIntegrity(
    db,
    (genesis.outputs ?? []).map((o) => o.outputId),
  );
  expect(latest).toBeGreaterThanOrEqual(60);
}, 60_000);
