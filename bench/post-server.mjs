// A child of bench/post-blocks.mjs: one writer, as `serve` runs it, on a fresh LMDB store holding the ledger
// benchmark's genesis (bench/ledger-fixture.mjs). Mode `http`: serves POST /api/core/v2/blocks with the writer's
// intake, committing a slot every `perSlot` accepted blocks; mode `direct`: accepts the same blocks through
// acceptBlock with the same commits, no HTTP, and reports its rate. Told its job on the command line; answers by IPC.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';
import { ledgerFixture } from './ledger-fixture.mjs';

const [mode, blocksArg, perSlotArg] = process.argv.slice(2);
const BLOCKS = Number(blocksArg);
const PER_SLOT = Number(perSlotArg);
await tc.ready();
const fx = ledgerFixture(tc);
const dir = mkdtempSync(join(os.tmpdir(), 'tangle-post-bench-'));
const genesis = Array.from({ length: 2 * BLOCKS }, (_, n) => fx.genesisOutput(n));
const now = fx.params.genesisUnixTime + 10;
const ledger = tc.openLedger({ path: dir, params: fx.params, genesis: { outputs: genesis }, clock: () => now });
ledger.setSynced(true);
let accepted = 0;
const afterAccept = () => {
  if (++accepted % PER_SLOT === 0) ledger.commitSlot(ledger.latestCommitment().slot + 1);
};
const finish = () => {
  ledger.close();
  rmSync(dir, { recursive: true, force: true });
};

if (mode === 'direct' || mode === 'pool') {
  const blocks = Array.from({ length: BLOCKS }, (_, i) => fx.block(i));
  // The pool's threads start and warm up before the clock does, as a node's live as long as the node.
  if (mode === 'pool') await ledger.precheck(blocks.slice(0, 64).map((b) => b.slice()));
  const t0 = performance.now();
  if (mode === 'direct') {
    for (const bytes of blocks) {
      ledger.acceptBlock(bytes, { slot: ledger.latestCommitment().slot + 1 });
      afterAccept();
    }
  } else {
    // bench:ledger's ingest: prechecked on worker threads, accepted in order, a slot committed when full.
    for (let from = 0; from < BLOCKS; from += PER_SLOT) {
      const slot = ledger.latestCommitment().slot + 1;
      const outcomes = await ledger.acceptBlocks(blocks.slice(from, from + PER_SLOT).map((bytes) => ({ bytes, slot })));
      if (outcomes.some((o) => !o.ok)) throw new Error('a block was refused');
      ledger.commitSlot(slot);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  finish();
  process.send({ type: 'rate', rate: BLOCKS / seconds });
  process.exit(0);
} else {
  const intake = tc.ledgerIntake(ledger, { pow: false });
  const counted = {
    async submit(body, type) {
      const id = await intake.submit(body, type);
      afterAccept();
      return id;
    },
  };
  const server = tc.createServer({ ledger, blocks: counted });
  server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
  process.on('message', (m) => {
    if (m !== 'stop') return;
    server.close(() => {
      finish();
      process.send({ type: 'stopped', accepted });
    });
  });
}
