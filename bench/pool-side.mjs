// One side of bench/side-by-side.mjs's pool mode: a process of one build (ROOT's dist and node_modules) holding a
// ledger as bench/ledger.mjs's pool phase does (the same fixture, a genesis of two outputs a block, blocks through
// the ingest pool in slots of PER_SLOT), which ingests the slices of the shared sample its parent asks for and answers
// each with its wall time and CPU. Started by the parent with fork():
//   node --expose-gc bench/pool-side.mjs ROOT SAMPLE_FILE PER_SLOT
// SAMPLE_FILE (written by the parent): a Uint32 count, `count` Uint32 lengths, then the blocks' bytes end to end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ledgerFixture } from './ledger-fixture.mjs';
import { acceptPipelined, CHUNK } from './ledger-pipeline.mjs';

const [root, sampleFile, perSlot] = process.argv.slice(2);
const PER_SLOT = Number(perSlot);
const built = await import(pathToFileURL(join(root, 'dist/index.js')).href);
await built.ready();
// Older builds (4743942) name ed25519AddressOf ed25519Address: the fixture asks for the newer name.
const fx = ledgerFixture({ ...built, ed25519AddressOf: built.ed25519AddressOf ?? built.ed25519Address });

const file = readFileSync(sampleFile);
const count = file.readUInt32LE(0);
const blocks = [];
for (let i = 0, at = 4 + 4 * count; i < count; i++) {
  const length = file.readUInt32LE(4 + 4 * i);
  blocks.push(new Uint8Array(file.buffer, file.byteOffset + at, length));
  at += length;
}

const dir = mkdtempSync(join(os.tmpdir(), 'side-by-side-pool-'));
const genesis = {
  outputs: Array.from({ length: 2 * count }, (_, n) => fx.genesisOutput(n)),
  accounts: [{ accountId: fx.accountId, blockIssuanceCredits: 1n << 60n }],
};
const ledger = built.openLedger({ path: dir, params: fx.params, genesis, clock: () => fx.params.genesisUnixTime });
while (ledger.indexerBuild?.() !== undefined) await new Promise((next) => setTimeout(next, 20));
genesis.outputs.length = 0;

let accepted = 0;
let committed = 0;
/**
 * The slice's progress, [time, blocks of the slice accepted], at its start and every 100 blocks: the parent, which
 * runs both sides at once, counts each side's blocks over the time both were running. Times are ms since the epoch
 * (performance.timeOrigin + now), one clock for every process.
 */
let marks = [];
let sliceStart = 0;
const now = () => performance.timeOrigin + performance.now();
const slotOf = (n) => 1 + Math.floor(n / PER_SLOT);
const ingest = (slice) =>
  acceptPipelined(ledger, slice, (bytes) => {
    ledger.acceptBlock(bytes, { slot: slotOf(accepted) });
    accepted++;
    if ((accepted - sliceStart) % 100 === 0) marks.push([now(), accepted - sliceStart]);
    const last = slotOf(accepted) - 1;
    while (committed < last) ledger.commitSlot(++committed);
  });

/** CPU µs of this process's main thread (the writer), from /proc (10 ms ticks: fine over a slice of a second). */
function writerCpu() {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

// The pool's threads live as long as a node: started and warmed (on copies) before any slice is measured.
await ledger.precheck(blocks.slice(0, 4 * CHUNK).map((bytes) => bytes.slice()));
process.send({ ready: true, count });

process.on('message', async (m) => {
  if (m.close) {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }
  global.gc?.(); // (each side starts its slice with the same heap state, not the other slices' garbage)
  const slice = blocks.slice(m.from, m.to);
  const cpu0 = process.cpuUsage();
  const writer0 = writerCpu();
  const t0 = performance.now();
  sliceStart = accepted;
  marks = [[now(), 0]];
  await ingest(slice);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  process.send({
    rate: slice.length / wall,
    cpuUsPerBlock: (cpu.user + cpu.system) / slice.length,
    writerUsPerBlock: (writerCpu() - writer0) / slice.length,
    marks,
  });
});
