// The Nova codec's speed (issue 31), interleaved as bench/interleaved.mjs does: tangle-core and the other side run
// 100 ms each, back to back, for 25 rounds; the median of the per-round ratios (a busy machine slows both alike).
//   npm run bench:nova  (= npm run build && node --expose-gc bench/nova.mjs [--rounds 25] [--no-write])
// Against iota-sdk 2.0 (@iota/sdk-wasm 2.0.0-beta.1, as @iota/sdk-wasm-nova), like for like from JSON: block id and
// JSON → bytes (it has no bytes → model decoding). Against tangle-core's own Stardust codec on blocks of the same size:
// decode, encode and block id from bytes. Each side cycles through 64 blocks of one shape whose ids, keys, signatures
// and amounts differ, so no call repeats the previous input.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import * as tc from '../dist/index.js';
import { typicalBlock } from './fixtures.mjs';
import { writeSection } from './results-file.mjs';
import { ratioOf, rounds } from './rounds.mjs';

const require = createRequire(import.meta.url);
const sdk = require('@iota/sdk-wasm-nova/node').Utils;
const compare = (ours, theirs, collect = false) => ratioOf(ours, theirs, { rounds, collect });
await tc.ready();
const { nova } = tc;

const vectorsDir = process.env.TANGLE_VECTORS ?? new URL('../vectors/', import.meta.url).pathname;
const fixture = (name) => JSON.parse(readFileSync(`${vectorsDir}/nova/${name}.json`, 'utf8'));
const paramsJson = fixture('protocol_parameters').params;
const params = nova.protocolParameters.fromJson(paramsJson);

// Deterministic variety: a linear congruential generator fills the varied fields.
let state = 31;
const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0);
const bytes = (n) => Uint8Array.from({ length: n }, () => random() & 0xff);
const sorted = (list) => [...list].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const slotIn = (id, slot) => {
  const out = Uint8Array.from(id);
  new DataView(out.buffer).setUint32(32, slot, true);
  return out;
};

/**
 * The iota-sdk fixture's transaction block, issued in slot 21 (its commitment to slot 1 is then inside both
 * implementations' committable window), with fresh parents, inputs, ids, keys, signatures and amounts.
 */
function novaTransactionBlock() {
  const b = nova.block.fromJson(fixture('basic_block_transaction_payload').block);
  const issuingTime = (params.genesisUnixTimestamp + 20n * BigInt(params.slotDurationInSeconds)) * 1_000_000_000n;
  const signature = () => ({ type: 0, publicKey: bytes(32), signature: bytes(64) });
  const p = b.body.payload;
  const tx = p.transaction;
  return {
    header: { ...b.header, issuingTime, issuerId: bytes(32) },
    body: {
      ...b.body,
      strongParents: sorted(b.body.strongParents.map(() => slotIn(bytes(36), 12))),
      maxBurnedMana: BigInt(random()),
      payload: {
        ...p,
        transaction: {
          ...tx,
          inputs: tx.inputs.map((i, k) => ({ ...i, transactionId: slotIn(bytes(36), 3), transactionOutputIndex: k })),
          allotments: sorted(tx.allotments.map(() => bytes(32))).map((accountId) => ({
            accountId,
            mana: BigInt(random()),
          })),
          outputs: tx.outputs.map((o) => ({ ...o, amount: o.amount + BigInt(random() & 0xffff) })),
        },
        unlocks: [{ type: 0, signature: signature() }, ...p.unlocks.slice(1)],
      },
    },
    signature: signature(),
  };
}

/** The validation fixture, naming the fixture parameters' hash, with fresh parents, issuer and signature. */
function novaValidationBlock() {
  const b = nova.block.fromJson(fixture('validation_block').block);
  return {
    header: { ...b.header, issuerId: bytes(32) },
    body: {
      ...b.body,
      strongParents: sorted(b.body.strongParents.map(() => slotIn(bytes(36), 12))),
      protocolParametersHash: nova.protocolParametersHash(params),
    },
    signature: { type: 0, publicKey: bytes(32), signature: bytes(64) },
  };
}

/** Stardust's typical transaction block (bench/fixtures.mjs) with fresh parents, nonce and signatures. */
function stardustTransactionBlock(template) {
  const p = template.payload;
  return {
    ...template,
    parents: sorted(template.parents.map(() => bytes(32))),
    nonce: BigInt(random()),
    payload: {
      ...p,
      unlocks: p.unlocks.map((u) => (u.type === 0 ? { ...u, signature: { ...u.signature, signature: bytes(64) } } : u)),
    },
  };
}

/** A Stardust tagged-data block of exactly `size` bytes with `parents` parents (as many as the Nova block has). */
function stardustTaggedBlock(size, parents) {
  const overhead = tc.encodeBlock({
    protocolVersion: 2,
    parents: [bytes(32)],
    payload: { type: 5, tag: new Uint8Array(0), data: new Uint8Array(0) },
    nonce: 0n,
  }).length;
  return {
    protocolVersion: 2,
    parents: sorted(Array.from({ length: parents }, () => bytes(32))),
    payload: { type: 5, tag: bytes(16), data: bytes(size - overhead - 16 - (parents - 1) * 32) },
    nonce: BigInt(random()),
  };
}

const VARIANTS = 64;
const many = (make) => Array.from({ length: VARIANTS }, make);
const typical = typicalBlock(tc);
const shapes = [
  {
    name: 'basic block with a transaction',
    nova: many(novaTransactionBlock),
    stardust: many(() => stardustTransactionBlock(typical)),
    stardustName: 'typical transaction block',
  },
  {
    name: 'validation block',
    nova: many(novaValidationBlock),
    stardust: undefined, // sized to match below
    stardustName: 'tagged-data block with 6 parents',
  },
];
shapes[1].stardust = many(() =>
  stardustTaggedBlock(nova.encodeBlock(shapes[1].nova[0]).length, shapes[1].nova[0].body.strongParents.length),
);

/** A function that runs `fn` on the next of `inputs` at each call. */
const cycling = (inputs, fn) => {
  let i = 0;
  return () => fn(inputs[i++ & (VARIANTS - 1)]);
};

const rows = [];
const TARGETS = new Map([
  [5, '5×'],
  [1 / 1.5, '0.67× (within 1.5×)'],
]);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
for (const s of shapes) {
  const novaBytes = s.nova.map((b) => nova.encodeBlock(b));
  const novaJson = s.nova.map((b) => nova.blockToJson(b));
  const stardustBytes = s.stardust.map((b) => tc.encodeBlock(b));
  // Both implementations agree on every block before anything is timed.
  s.nova.forEach((b, i) => {
    const id = tc.toHex(nova.blockId(params, novaBytes[i]));
    if (sdk.blockId(novaJson[i], paramsJson) !== id) throw new Error(`${s.name}: sdk-wasm block id differs`);
    if (tc.toHex(nova.blockIdFromJson(params, novaJson[i])) !== id) throw new Error('blockIdFromJson differs');
    if (tc.toHex(sdk.blockBytes(novaJson[i])) !== tc.toHex(novaBytes[i])) throw new Error('sdk-wasm bytes differ');
    nova.validateBlock(params, b);
  });
  const size = novaBytes[0].length;
  const stardustSize = stardustBytes[0].length;
  const add = (operation, peer, c, target) =>
    rows.push({ shape: s.name, size, operation, peer, ...c, target, met: c.ratio >= target });
  add(
    'block id (from JSON)',
    'sdk-wasm 2.0',
    compare(
      cycling(novaJson, (j) => nova.blockIdFromJson(params, j)),
      cycling(novaJson, (j) => sdk.blockId(j, paramsJson)),
      true,
    ),
    5,
  );
  add(
    'JSON → bytes',
    'sdk-wasm 2.0',
    compare(
      cycling(novaJson, (j) => nova.encodeBlockJson(j)),
      cycling(novaJson, (j) => sdk.blockBytes(j)),
      true,
    ),
    5,
  );
  const stardustPeer = `tangle-core, Stardust ${s.stardustName} (${stardustSize} bytes)`;
  add(
    'decode (bytes → model)',
    stardustPeer,
    compare(
      cycling(novaBytes, (b) => nova.decodeBlock(b)),
      cycling(stardustBytes, (b) => tc.decodeBlock(b)),
    ),
    1 / 1.5,
  );
  add(
    'encode (model → bytes)',
    stardustPeer,
    compare(
      cycling(s.nova, (b) => nova.encodeBlock(b)),
      cycling(s.stardust, (b) => tc.encodeBlock(b)),
    ),
    1 / 1.5,
  );
  add(
    'block id (from bytes)',
    stardustPeer,
    compare(
      cycling(novaBytes, (b) => nova.blockId(params, b)),
      cycling(stardustBytes, (b) => tc.blockId(b)),
    ),
    1 / 1.5,
  );
}

const table = [
  '| Nova block | operation | tangle-core ops/s | compared with | its ops/s | ratio | target |',
  '|---|---|---:|---|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.shape} (${r.size} bytes) | ${r.operation} | ${fmt(r.ours)} | ${r.peer} | ${fmt(r.theirs)} | ` +
      `**${r.ratio.toFixed(2)}×** | ≥ ${TARGETS.get(r.target)} ${r.met ? '✔' : '✘'} |`,
  ),
].join('\n');
console.log(table);
if (!process.argv.includes('--no-write')) {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  writeSection(
    'nova',
    `## Nova

Produced by \`npm run bench:nova\` (= \`npm run build && node --expose-gc bench/nova.mjs\`) on ${os.cpus().length} × ${cpu},
Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. For each ratio, ${rounds} rounds in which tangle-core and the
other side each run 100 ms back to back; the median of the per-round ratios, and the median rates. Each side cycles
through ${VARIANTS} blocks of one shape whose parents, ids, keys, signatures and amounts differ. Both sides warm up
for 300 ms first. Against iota-sdk each 100 ms starts after a full garbage collection: its calls leave much garbage (it
re-reads the parameters' 384 decay factors on every call), which would otherwise be collected inside the next side's
measure. The Nova blocks are
iota-sdk 2.0's fixtures (\`vectors/nova\`): its transaction block (2 inputs, 3 context inputs, 2 allotments, a basic
output with a native token and an account output with metadata, block issuer and staking features), issued in slot 21,
and its validation block naming the fixture parameters' hash. Before timing, iota-sdk and tangle-core agree on every
block's id and bytes, and every block passes \`nova.validateBlock\`.

sdk-wasm 2.0 reads JSON only: against it, block id from JSON (\`nova.blockIdFromJson\` ÷ \`Utils.blockId\`) and JSON →
bytes (\`nova.encodeBlockJson\` ÷ \`Utils.blockBytes\`), target ≥ 5×. Against tangle-core's own Stardust codec on a block
of the same size (its typical transaction block of \`bench/fixtures.mjs\`, and a tagged-data block as long as the
validation block, with as many parents): decode, encode and block id from bytes, target within 1.5× (a ratio ≥ 0.67).

${table}
`,
  );
}
