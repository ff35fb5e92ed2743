// One writer, many readers (issue 14): a writer process commits slots as fast as it can (the crash test's child:
// transfers and chain transactions) while readers in this process and `serve --read-only` processes are queried in a
// loop. Every slot the writer has reported committed is answered at once (no stale 404), with the id the writer saw,
// and what a reader calls its latest slot is always whole (its diff and commitment there and agreeing). A writer killed
// with SIGKILL leaves the readers answering; a new writer takes over and they follow it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it, onTestFailed } from 'vitest';
import { openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../../../dist/cli.js');
const GENESIS_TIME = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS_TIME });
const dir = mkdtempSync(join(tmpdir(), 'tangle-readers-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The writer: commits until killed; `reported` fills with each slot it says it committed, and that slot's id. */
function startWriter() {
  const child = spawn(process.execPath, [resolve(here, '../fixtures/crash-child.mjs'), dir, String(GENESIS_TIME)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const reported = new Map<number, string>();
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const lines = out.split('\n');
    out = lines.pop()!;
    for (const line of lines) {
      const [, slot, id] = line.split(' ');
      reported.set(Number(slot), id!);
    }
  });
  return { child, reported };
}

/**
 * Resolves once `ready()` holds, looking again every 10 ms (no guessed delays: a look at an observed state; on every
 * turn of the event loop, the looks spun a core while the processes they waited for needed it).
 */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

/** `serve --read-only` over the store; resolves with its origin once it listens. */
async function startReader(): Promise<string> {
  const child = spawn(process.execPath, [cli, 'serve', '--db', dir, '--read-only', '--port', '0', '--synced'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => /listening on (http:\S+)/.test(out));
  return /listening on (http:\S+)/.exec(out)![1]!;
}

it('readers follow the writer: every reported slot answered at once, the latest slot always whole', async () => {
  // Where the test stood, should it fail (a timeout included): it once waited out its 120 s in CI (stop 70).
  let phase = 'the first writer starting';
  onTestFailed(() => console.error(`readers.test: ${phase}`));
  const writer = startWriter();
  const { reported } = writer;
  await until(() => reported.size > 0);
  phase = 'readers starting';
  const readers = [
    openLedger({ path: dir, params, readOnly: true }),
    openLedger({ path: dir, params, readOnly: true }),
  ];
  const servers = await Promise.all([startReader(), startReader()]);
  const checked = new Set<number>();
  let served = 0;
  try {
    phase = 'checking reported slots';
    while (checked.size < 60) {
      await new Promise((r) => setImmediate(r)); // the writer's lines come in between rounds
      // A writer that stopped reports no more: fail now with where it stood, not at the timeout (its error is on
      // stderr: once, in CI, INPUT_NOT_FOUND at slot 32 — issue left open in the stop's note).
      if (writer.child.exitCode !== null)
        throw new Error(`the writer exited ${writer.child.exitCode} at ${checked.size}`);
      for (const [slot, id] of [...reported].filter(([s]) => !checked.has(s))) {
        // Reported: the writer's commit returned, so every reader answers it now.
        for (const r of readers) expect(toHex(r.utxoChanges(slot).commitmentId), `slot ${slot}`).toBe(id);
        const origin = servers[slot % servers.length]!;
        const res = await fetch(`${origin}/api/core/v3/commitments/by-slot/${slot}/utxo-changes`);
        expect(res.status, `slot ${slot} over HTTP`).toBe(200);
        expect(((await res.json()) as { commitmentId: string }).commitmentId).toBe(id);
        served++;
        checked.add(slot);
      }
      for (const r of readers) {
        // Whatever a reader calls its latest slot is whole: the diff is there, under the same commitment id.
        const latest = r.latestCommitment();
        expect(toHex(r.utxoChanges(latest.slot).commitmentId)).toBe(toHex(latest.commitmentId));
        expect(toHex(r.commitmentOf(latest.slot)!.commitmentId)).toBe(toHex(latest.commitmentId));
      }
    }
    // The writer is killed: the readers go on answering what it committed; a new writer takes over and they follow it.
    const last = Math.max(...reported.keys());
    await new Promise((done) => writer.child.once('exit', done).kill('SIGKILL'));
    const lastNow = Math.max(...writer.reported.keys()); // lines read before it died
    for (const origin of servers) {
      const res = await fetch(`${origin}/api/core/v3/commitments/by-slot/${last}/utxo-changes`);
      expect(res.status).toBe(200);
    }
    phase = `a second writer taking over after slot ${lastNow}`;
    const again = startWriter();
    again.child.once('exit', (code) => (phase += `; it exited ${code}`));
    await until(() => [...again.reported.keys()].some((s) => s > lastNow));
    phase = 'the readers following the second writer';
    const next = Math.max(...again.reported.keys());
    for (const origin of servers) {
      const res = await fetch(`${origin}/api/core/v3/commitments/by-slot/${next}/utxo-changes`);
      expect(res.status, 'a reader follows the new writer').toBe(200);
      expect(((await res.json()) as { commitmentId: string }).commitmentId).toBe(again.reported.get(next));
    }
  } finally {
    for (const r of readers) r.close();
  }
  expect(served).toBe(checked.size);
}, 120_000);

it('a reader opened before the writer made a table (the chains, say) finds it once it exists', () => {
  const path = join(dir, 'early');
  const writer = openLedger({ path, params, clock: () => GENESIS_TIME });
  const reader = openLedger({ path, params, readOnly: true });
  try {
    expect(reader.chainOutput(new Uint8Array(32).fill(1))).toBeUndefined(); // no chain table yet: nothing, no crash
    expect(reader.latestCommitment().slot).toBe(0);
    writer.commitSlot(1);
    expect(reader.latestCommitment().slot).toBe(1);
    expect(toHex(reader.utxoChanges(1).commitmentId)).toBe(toHex(writer.latestCommitment().commitmentId));
    expect(() => reader.commitSlot(2)).toThrow(/read-only/);
  } finally {
    reader.close();
    writer.close();
  }
});
