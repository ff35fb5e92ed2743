// The synthetic history the history benches apply (bench/history.mjs, bench/history-growth.mjs): a test network's
// milestones issued by its coordinator (issueMilestone), shaped like Shimmer's (about 40 blocks a milestone, 5 of
// them transactions, cones as wide and deep as real ones) or its spam peaks, a double spend in every tenth milestone.
import * as tc from '../dist/index.js';
import { basicTo as basic } from './fixtures.mjs';

const testnet = tc.PROTOCOL_PARAMETERS.testnet;
// The testnet preset's coordinator (its secret is public): the CLI's import and follow take its milestones as they are.
const COORDINATOR = tc.TESTNET_COORDINATOR_SECRET;
const secret = (k) => new Uint8Array(32).fill(k);
const OWNERS = [1, 2, 3, 4].map((k) => ({ k, address: tc.ed25519AddressOf(tc.ed25519PublicKey(secret(k))) }));
export const T0 = 1_700_000_000;
const SEP = new Uint8Array(32).fill(0xe1);

/** Genesis output `i` of the test network: 1 SMR, round the owners (the same every run). */
export function genesisOutput(i) {
  const id = new Uint8Array(32);
  new DataView(id.buffer).setUint32(0, i + 1);
  return { outputId: tc.outputId(id, 0), output: basic(OWNERS[i % 4].address, 1_000_000n) };
}

/** The genesis outputs of the test network: the first `n` of genesisOutput. */
export const genesisOutputs = (n) => Array.from({ length: n }, (_, i) => genesisOutput(i));

/** The genesis snapshot of the test network: its `n` outputs (genesisOutputs) and the snapshot file. */
export async function genesisSnapshot(n) {
  const outputs = genesisOutputs(n);
  return { outputs, file: await tc.genesisSnapshot(testnet, { outputs, timestamp: T0, solidEntryPoints: [SEP] }) };
}

/** The block a milestone payload travels in, as the next milestone's cone holds it (its first block). */
export const milestoneBlock = (milestone) =>
  tc.encodeBlock(tc.buildBlock({ parents: milestone.parents, payload: milestone, params: testnet }));

/** A ledger at the genesis snapshot `file`, imported into a new store at `path`. */
export async function importedLedger(path, file) {
  await tc.importSnapshot({ path, full: file });
  return tc.openLedger({ path, params: tc.importedParams(tc.inspectStore(path).imported) });
}

/** The owner of a genesis output (its key), found by its address. */
const ownerOf = (o) =>
  OWNERS.find((w) => tc.toHex(w.address.pubKeyHash) === tc.toHex(o.output.unlockConditions[0].address.pubKeyHash));

/**
 * The shape of a cone as real ones have it (Shimmer's milestones 17339, 17340 and 2418187: 38 to 88 blocks, 7 to 10
 * deep, 4 parents a block): `n` blocks in 8 layers, each block taking 4 neighbours of the layer below as parents,
 * then layers of a quarter the width until at most 7 blocks are left, the milestone's parents. Returns, per block,
 * the indexes of its parents (-1: the previous milestone's block).
 */
function coneShape(n) {
  const width = Math.ceil(n / 8);
  const layers = [];
  let made = 0;
  for (let l = 0; l < 8 && made < n; l++) {
    const size = Math.min(width, n - made);
    layers.push(Array.from({ length: size }, (_, i) => made + i));
    made += size;
  }
  while (layers.at(-1).length > 7) {
    const size = Math.ceil(layers.at(-1).length / 4);
    layers.push(Array.from({ length: size }, (_, i) => made + i));
    made += size;
  }
  const parents = [];
  for (const [l, layer] of layers.entries()) {
    for (const [p, _] of layer.entries()) {
      if (l === 0) parents.push([-1]);
      else {
        const below = layers[l - 1];
        const step = below.length / layer.length;
        const from = Math.floor(p * step);
        const picks = new Set([0, 1, 2, 3].map((k) => below[(from + k) % below.length]));
        parents.push([...picks]);
      }
    }
  }
  return { parents, tips: layers.at(-1) };
}

/**
 * Issues `m` milestones of about `perMilestone` blocks each (`coneShape`) on `ledger` (at the genesis of `outputs`),
 * `txs` of them transactions (each spending a genesis output; in every tenth milestone the last spends the one before
 * it spent: a conflict). Calls `each({ milestone, blocks, conflicting })` per milestone, in order.
 * `from`: the last milestone a run before issued on this ledger (`done`, its payload), to go on after it; `stop()`,
 * asked before each milestone, ends the run early (a resumable generation stops between two milestones).
 */
export function issueHistory(ledger, outputs, m, perMilestone, txs, each, from = undefined, stop = () => false) {
  // `outputs`: the genesis outputs, or a function giving the i-th (a million milestones' 5,000,000 outputs as objects
  // would not fit a heap).
  const outputAt = typeof outputs === 'function' ? outputs : (i) => outputs[i];
  const { parents: layout, tips } = coneShape(perMilestone);
  const every = Math.floor(layout.length / txs);
  // Each milestone spends one genesis output a transaction, but every tenth, whose last spends again the one before.
  const spends = layout.filter((_, i) => i % every === every - 1).length;
  const done = from?.done ?? 0;
  let next = done * spends - Math.floor(done / 10);
  let previous = { id: SEP, bytes: undefined };
  if (from !== undefined) {
    const bytes = milestoneBlock(from.milestone);
    previous = { id: tc.blockId(bytes), bytes };
  }
  for (let k = done + 1; k <= m && !stop(); k++) {
    const blocks = previous.bytes === undefined ? [] : [previous.bytes];
    const ids = [];
    let spent;
    for (let i = 0; i < layout.length; i++) {
      const parents = layout[i].map((j) => (j === -1 ? previous.id : ids[j]));
      let payload;
      if (i % every === every - 1) {
        const o = k % 10 === 0 && i + every >= layout.length ? spent : outputAt(next++);
        spent = o;
        const owner = ownerOf(o);
        const to = OWNERS[(owner.k + i) % 4];
        const essence = tc.buildTransaction({
          inputs: [o],
          outputs: [basic(to.address, o.output.amount)],
          params: testnet,
        });
        payload = tc.signTransaction(essence, [secret(owner.k)]);
      } else {
        payload = {
          type: 5,
          tag: new TextEncoder().encode(`bench ${k}`),
          data: new TextEncoder().encode(`block ${i}`),
        };
      }
      const bytes = tc.encodeBlock(tc.buildBlock({ parents, payload, params: testnet }));
      blocks.push(bytes);
      ids.push(tc.blockId(bytes));
    }
    const parents = [...tips.map((t) => ids[t]), ...(previous.bytes === undefined ? [] : [previous.id])];
    const issued = tc.issueMilestone(ledger, { parents, blocks, timestamp: T0 + 5 * k, secretKeys: [COORDINATOR] });
    each({ milestone: issued.milestone, blocks, conflicting: issued.conflicting });
    const bytes = milestoneBlock(issued.milestone);
    previous = { id: tc.blockId(bytes), bytes };
  }
}
