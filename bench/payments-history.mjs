// The payments history bench/explorer.mjs and bench/writer-load.mjs measure: a genesis of four payers, then milestones
// issued by the coordinator (issueMilestone: every commit keeps its analytics and archive), each paying PER_MILESTONE
// outputs to random addresses of a fixed set (one to the busy address), amounts over five powers of ten. A fixed seed:
// the same history every run. Also the read-only server both benches read it through.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import * as tc from '../dist/index.js';
import { basicTo as basic, seeded } from './fixtures.mjs';

const T0 = 1_700_000_000;
const SEP = new Uint8Array(32).fill(0xe1);
const PAYERS = 4;

/** The history's parts: `build()` writes the first `milestones`, `issue(state)` one more. */
export function paymentsHistory({ dir, addresses, perMilestone }) {
  const params = tc.PROTOCOL_PARAMETERS.testnet;
  const random = seeded(46);
  const secret = (k) => new Uint8Array(32).fill(k);
  const payers = Array.from({ length: PAYERS }, (_, i) => ({
    k: i + 1,
    address: tc.ed25519AddressOf(tc.ed25519PublicKey(secret(i + 1))),
  }));
  const recipients = Array.from({ length: addresses }, () => ({
    type: 0,
    pubKeyHash: Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256)),
  }));
  /** The busy address: an output of every milestone. */
  const busy = recipients[0];
  /** Amounts over five powers of ten from the minimum deposit up: a token distribution with buckets to fill. */
  const amount = () => 50_000n * BigInt(Math.floor(10 ** (random() * 5)));

  async function build(milestones) {
    const outputs = payers.map((p, i) => {
      const id = new Uint8Array(32);
      new DataView(id.buffer).setUint32(0, i + 1);
      return { outputId: tc.outputId(id, 0), output: basic(p.address, 400_000_000_000_000n) };
    });
    const file = await tc.genesisSnapshot(params, { outputs, timestamp: T0, solidEntryPoints: [SEP] });
    const path = join(dir, 'store');
    await tc.importSnapshot({ path, full: file });
    const ledger = tc.openLedger({ path, params: tc.importedParams(tc.inspectStore(path).imported) });
    const change = [...outputs];
    const state = { ledger, path, change, previous: { id: SEP, bytes: undefined }, index: 0 };
    const t0 = performance.now();
    for (let k = 1; k <= milestones; k++) issue(state);
    return { ...state, buildSeconds: (performance.now() - t0) / 1000 };
  }

  /** The next milestone: each payer pays its share of the outputs to random addresses (one to the busy one). */
  function issue(state) {
    const k = ++state.index;
    const blocks = state.previous.bytes === undefined ? [] : [state.previous.bytes];
    const ids = [];
    const per = Math.ceil(perMilestone / PAYERS);
    for (const [p, payer] of payers.entries()) {
      const input = state.change[p];
      const paid = Array.from({ length: per - 1 }, (_, i) =>
        basic(p === 0 && i === 0 ? busy : recipients[Math.floor(random() * recipients.length)], amount()),
      );
      const spent = paid.reduce((s, o) => s + o.amount, 0n);
      const essence = tc.buildTransaction({
        inputs: [input],
        outputs: [...paid, basic(payer.address, input.output.amount - spent)],
        params,
      });
      const payload = tc.signTransaction(essence, [secret(payer.k)]);
      const bytes = tc.encodeBlock(tc.buildBlock({ parents: [state.previous.id], payload, params }));
      blocks.push(bytes);
      ids.push(tc.blockId(bytes));
      const txId = tc.transactionId(payload);
      state.change[p] = { outputId: tc.outputId(txId, per - 1), output: essence.outputs[per - 1] };
    }
    const parents = [...ids, ...(state.previous.bytes === undefined ? [] : [state.previous.id])];
    const issued = tc.issueMilestone(state.ledger, {
      parents,
      blocks,
      timestamp: T0 + 5 * k,
      secretKeys: [tc.TESTNET_COORDINATOR_SECRET],
    });
    const bytes = tc.encodeBlock(
      tc.buildBlock({ parents: issued.milestone.parents, payload: issued.milestone, params }),
    );
    state.previous = { id: tc.blockId(bytes), bytes };
  }

  return { params, recipients, busy, build, issue };
}

/** A read-only server of the store in a process of its own (the writer keeps the bench's). BENCH_READER_NODE_ARGS
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to its Node, to profile the reader under the load. */
export async function readOnlyServer(cli, path, workers = 1) {
  const nodeArgs = (process.env.BENCH_READER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      cli,
      'serve',
      '--db',
      path,
      '--read-only',
      '--workers',
      String(workers),
      '--port',
      '0',
      '--synced',
      '--no-mqtt',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done(m[1].replace(/\/$/, ''));
    });
    child.on('exit', (c) => fail(new Error(`the reader exited (${c})`)));
  });
  return { origin, port: Number(new URL(origin).port), stop: () => child.kill('SIGTERM') };
}
