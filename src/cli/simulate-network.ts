import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../codec/index.js';
import { type Ledger, openLedger } from '../ledger/index.js';
import { demoGenesis, demoSlot, demoSnapshot, demoTips, openDemoLedger } from '../node/index.js';
import { milestonePayloadToJson } from '../serialize.js';
import { Simulation } from '../sim/index.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';

// `simulate --snapshot`: the demo's Stardust network written as a real network's history is kept — its genesis
// snapshot, then its milestones with their cones, one a line, as `import-snapshot` and `import-milestones` read them.
// The milestones are issued on a store of its own (a temporary one), exactly as `serve --demo` issues them.

/** A milestone's cone is its slot's blocks: at most this many (far more than the demo makes). */
const MAX_CONE = 1_000_000;

/** Writes `lines` to `path` with backpressure; a failure leaves no half-written file. */
export async function writeLines(path: string, lines: (write: (line: string) => Promise<void>) => Promise<void>) {
  const out = createWriteStream(path);
  let failed: Error | undefined;
  out.on('error', (e) => (failed = e));
  const write = (line: string) =>
    new Promise<void>((done, fail) => {
      if (failed !== undefined) return fail(failed);
      if (out.write(`${line}\n`)) done();
      else out.once('drain', done);
    });
  try {
    await lines(write);
    await new Promise<void>((done, fail) => out.end((e?: Error | null) => (e ? fail(e) : done())));
    if (failed !== undefined) throw failed;
  } catch (e) {
    out.destroy();
    rmSync(path, { force: true });
    throw new Error(`cannot write ${path}: ${(e as Error).message}`);
  }
}

/** The demo network's genesis snapshot to `files.snapshot`, its first `slots` milestones to `files.milestones`. */
export async function simulateNetwork(
  params: ProtocolParameters,
  seed: number,
  slots: number,
  files: { snapshot: string; milestones: string },
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tangle-core-simulate-'));
  let ledger: Ledger | undefined;
  try {
    const simulation = new Simulation({ params, seed, parents: () => demoTips(ledger!) });
    const genesis = demoGenesis(simulation);
    writeFileSync(files.snapshot, await demoSnapshot(params, genesis));
    ledger = await openDemoLedger(join(dir, 'store'), params, genesis, (at) => openLedger(at));
    const at = ledger;
    await writeLines(files.milestones, async (write) => {
      for (let i = 0; i < slots; i++) {
        const { index, milestone } = demoSlot(at, simulation);
        const blocks = at.blockIdsOfSlot(index, MAX_CONE).map((id) => toHex(at.block(id).bytes));
        await write(JSON.stringify({ milestone: milestonePayloadToJson(milestone), blocks }));
      }
    });
  } catch (e) {
    rmSync(files.snapshot, { force: true });
    throw e;
  } finally {
    ledger?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
