// npm run bench:chains — accept + commit of chain blocks beside typical blocks, in one run:
//   node bench/chains.mjs [--blocks 4000] [--per-slot 200] [--rounds 3]
// Typical: the ledger benchmark's transfer (2 inputs, 3 outputs with senders, tagged data, 2 signatures). Chain: the
// simulation's chain actors, 40 of them interleaved, each cycling through every chain step (alias created, state and
// governance transitions, destroyed; foundry created, minting, melting, destroyed; NFT minted, passed on, burned;
// alias and NFT unlocks): 1 to 4 inputs, 1 or 2 signatures. Each kind goes into its own fresh LMDB store, accepted
// serially (acceptBlock) and with signatures checked ahead on worker threads (acceptBlocks); rounds alternate the
// two kinds and the best round of each counts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as tc from '../dist/index.js';
import { ledgerFixture } from './ledger-fixture.mjs';
import { writeSection } from './results-file.mjs';
import { ChainActor } from './sim-entry.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const BLOCKS = arg('--blocks', 4000);
const PER_SLOT = arg('--per-slot', 200);
const ROUNDS = arg('--rounds', 3);
const ACTORS = 40;

await tc.ready();
const fx = ledgerFixture(tc);
const params = fx.params;

// Typical blocks and their genesis.
const typical = Array.from({ length: BLOCKS }, (_, i) => fx.block(i));
const typicalGenesis = Array.from({ length: 2 * BLOCKS }, (_, n) => fx.genesisOutput(n));

// Chain blocks: ACTORS actors, round-robin, each with its own fund and keys.
const chainGenesis = [];
const actors = Array.from({ length: ACTORS }, (_, k) => {
  const secrets = Array.from({ length: 4 }, (_, j) => Uint8Array.of(k, j, ...new Uint8Array(30).fill(0x5e)));
  const addresses = secrets.map((s) => tc.ed25519AddressOf(tc.ed25519PublicKey(s)));
  const id = new Uint8Array(32).fill(0xcf);
  id[0] = k;
  const fund = {
    outputId: tc.outputId(id, 0),
    output: {
      type: 3,
      amount: 10_000_000_000n,
      nativeTokens: [],
      unlockConditions: [{ type: 0, address: addresses[0] }],
      features: [],
    },
  };
  chainGenesis.push(fund);
  let seed = k + 1;
  return new ChainActor(params, secrets, addresses, fund, () => (seed = (seed * 16807) % 2147483647) / 2147483647);
});
const steps = new Map();
let signatures = 0;
const chain = Array.from({ length: BLOCKS }, (_, i) => {
  const actor = actors[i % ACTORS];
  steps.set(actor.nextStep, (steps.get(actor.nextStep) ?? 0) + 1);
  const payload = actor.next();
  signatures += payload.unlocks.filter((u) => u.type === 0).length;
  const parent = new Uint8Array(32).fill(0xbb);
  new DataView(parent.buffer).setUint32(0, i);
  return tc.encodeBlock({ protocolVersion: 2, parents: [parent], payload, nonce: 0n });
});

/** Blocks per second of accept + commit into a fresh LMDB store. */
async function rate(blocks, genesisOutputs, parallel) {
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-chains-bench-'));
  const ledger = tc.openLedger({
    path: dir,
    params,
    genesis: { outputs: genesisOutputs },
    clock: () => params.genesisUnixTime,
  });
  try {
    const t0 = performance.now();
    for (let from = 0, slot = 1; from < blocks.length; from += PER_SLOT, slot++) {
      const items = blocks.slice(from, from + PER_SLOT).map((bytes) => ({ bytes, slot }));
      if (parallel) {
        for (const o of await ledger.acceptBlocks(items)) if (!o.ok) throw o.error;
      } else for (const item of items) ledger.acceptBlock(item.bytes, item);
      ledger.commitSlot(slot);
    }
    return blocks.length / ((performance.now() - t0) / 1000);
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const best = { typical: [0, 0], chain: [0, 0] };
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, parallel] of [false, true].entries()) {
    best.typical[i] = Math.max(best.typical[i], await rate(typical, typicalGenesis, parallel));
    best.chain[i] = Math.max(best.chain[i], await rate(chain, chainGenesis, parallel));
  }
  console.log(`round ${r + 1}: typical ${best.typical.map(Math.round)}/s, chain ${best.chain.map(Math.round)}/s`);
}
const per = (x) => (x / BLOCKS).toFixed(2);
const row = (name, [serial, parallel], sigs) =>
  `| ${name} | ${sigs} | ${Math.round(serial).toLocaleString('en')} | ${Math.round(parallel).toLocaleString('en')} |`;
const markdown = [
  '## Chain blocks: accept + commit beside the typical block',
  '',
  `\`npm run bench:chains\` (${BLOCKS.toLocaleString('en')} blocks of each kind, ${PER_SLOT} per slot, fresh LMDB store, best of ${ROUNDS} alternating rounds; ${os.cpus().length} cores, Node ${process.version}).`,
  `The chain mix is ${ACTORS} chain actors interleaved, every step of their cycle (${[...steps.values()].join('/')} blocks of the ${steps.size} steps).`,
  '',
  '| blocks | signatures per block | serial (blocks/s) | signatures ahead on workers (blocks/s) |',
  '|---|---:|---:|---:|',
  row('typical transfer', best.typical, '2.00'),
  row('chain mix', best.chain, per(signatures)),
  '',
  `Chain ÷ typical: ${(best.chain[0] / best.typical[0]).toFixed(2)}× serial, ${(best.chain[1] / best.typical[1]).toFixed(2)}× with workers. ` +
    `Per signature (blocks/s × signatures per block), serial: typical ${Math.round(best.typical[0] * 2).toLocaleString('en')}/s, ` +
    `chain ${Math.round(best.chain[0] * (signatures / BLOCKS)).toLocaleString('en')}/s.`,
].join('\n');
writeSection('chains', markdown);
console.log(markdown);
