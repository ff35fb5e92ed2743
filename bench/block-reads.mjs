// A/B of the block reads of built checkouts (issue 57): `includedBlock` (the included-block route's query, with its
// JSON) over every transaction of the same simulated ledger in LMDB, each build in a process of its own (two builds'
// copies of lmdb in one process misread each other's stores), measured in turn: every round asks each process for
// 200 ms of reads, the order rotated, so that a machine shared with other work slows them alike; medians of the
// per-round ratios against the first build count.
//   node bench/block-reads.mjs ROOT_A ROOT_B [ROOT_C…] [--rounds 25] [--slots 60]     (each ROOT a built checkout)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const ROUNDS = arg('--rounds', 25);
const SLOTS = arg('--slots', 60);
const GENESIS = 1_700_000_000;

if (process.env.BLOCK_READS_ROOT !== undefined) {
  // A build's process: its ledger, written then reopened read-only, as a server's worker reads it.
  const root = process.env.BLOCK_READS_ROOT;
  const tc = await import(pathToFileURL(join(root, 'dist/index.js')).href);
  const { Simulation, applyEvent } = await import(pathToFileURL(join(root, 'dist/sim.js')).href);
  await tc.ready?.();
  const params = tc.protocolParameters(tc.PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
  const sim = new Simulation({ params, seed: 1 });
  const path = process.env.BLOCK_READS_DB;
  const writer = tc.openLedger({ path, params, genesis: sim.genesis(), clock: () => GENESIS + SLOTS * 10 + 100 });
  for (let slot = 1; slot <= SLOTS; slot++) for (const e of sim.slot(slot)) applyEvent(writer, e);
  writer.close();
  const ledger = tc.openLedger({ path, params, readOnly: true });
  const txIds = [];
  for (let slot = 1; slot <= SLOTS; slot++)
    for (const o of ledger.utxoChanges(slot).createdOutputs) if (o[32] === 0 && o[33] === 0) txIds.push(o.slice(0, 32));
  let i = 0;
  const read = () => ledger.includedBlock(txIds[i++ % txIds.length]);
  const rate = (ms) => {
    let n = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) for (let k = 0; k < 8; k++, n++) read();
    return (n / ms) * 1000;
  };
  rate(500); // warm-up
  process.on('message', (ms) => process.send(rate(ms)));
  process.send({ ready: txIds.length, first: tc.toHex(txIds[0]) });
} else {
  const roots = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')).map((r) => resolve(r));
  if (roots.length < 2) throw new Error('usage: node bench/block-reads.mjs ROOT_A ROOT_B… [--rounds N] [--slots N]');
  const dir = mkdtempSync(join(os.tmpdir(), 'tangle-block-reads-'));
  const children = roots.map((root, k) =>
    fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BLOCK_READS_ROOT: root, BLOCK_READS_DB: join(dir, `store-${k}`) },
    }),
  );
  try {
    const next = (child) => new Promise((done) => child.once('message', done));
    const ready = await Promise.all(children.map(next));
    if (ready.some((r) => r.ready !== ready[0].ready || r.first !== ready[0].first))
      throw new Error(`the builds simulated different ledgers: ${JSON.stringify(ready)}`);
    const rates = roots.map(() => []);
    for (let r = 0; r < ROUNDS; r++)
      for (let k = 0; k < roots.length; k++) {
        const b = (k + r) % roots.length;
        children[b].send(200);
        rates[b].push(await next(children[b]));
      }
    const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
    console.log(
      `includedBlock over ${ready[0].ready} transactions of ${SLOTS} slots (LMDB, read-only), ${ROUNDS} rounds`,
    );
    console.log('\n| build | reads/s (median) | ÷ the first, per round (median) |\n|---|---:|---:|');
    roots.forEach((root, b) => {
      const ratio = median(rates[b].map((x, r) => x / rates[0][r]));
      console.log(`| ${root} | ${Math.round(median(rates[b])).toLocaleString('en')} | ${ratio.toFixed(2)} |`);
    });
  } finally {
    for (const c of children) c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
