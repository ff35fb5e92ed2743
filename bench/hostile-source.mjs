// A hostile node for `serve --follow` to follow (issue 57), before an honest tangle-core: a real HTTP server whose
// answers the caller switches between the attacks a source can make without the network's keys, or with a test
// network's public ones (the testnet coordinator's secret is public: any milestone it signs checks):
//   honest     every answer the honest node's, but /info, which claims `state.claim`
//   forged     milestones with a signature changed, each over a fresh junk DAG (`state.dag`; none of it may be asked
//              for)
//   oversized  signed milestones, each cone answer as large as the route allows (64 MiB) of junk blocks
//   junk-dag   signed milestones over a DAG of junk blocks `state.dag` wide and deep, made afresh for each attempt
//              (404 for whole cones, as hornet: the follower walks it block by block)
//   trickle    each milestone's answer a byte at a time, a byte every `state.trickleMs`, never finished
// /info always claims `state.claim` (a node behind the follower: a lower one). Used by test/node/follow-hostile.test.ts
// and bench/follow-hostile.mjs; `tc` is the library (src in tests, dist in the bench).
import { createServer, request } from 'node:http';

/** The largest cone answer the route gives: a count and 16,383 junk blocks of 4,092 bytes (64 MiB). */
const OVERSIZED_BLOCKS = 16_383;

export async function hostileSource(tc, honest) {
  const testnet = tc.PROTOCOL_PARAMETERS.testnet;
  const state = { mode: 'honest', claim: 0, dag: { width: 100, depth: 60 }, trickleMs: 200 };
  /** Requests the follower made, by kind; `attempts`: junk DAGs made (one for each first milestone asked for). */
  const seen = { milestones: 0, cones: 0, blocks: 0, attempts: 0 };
  /** The junk DAG of the current attempt: bytes by hex block ID, and its top (what the milestones reference). */
  let dag = { blocks: new Map(), top: [] };
  let firstAsked;
  let lastMode;
  let oversized;

  /** Junk blocks `width` wide and `depth` deep: each references 8 of the layer below (the bottom one, nothing known). */
  const makeDag = () => {
    const { width, depth } = state.dag;
    const salt = ++seen.attempts;
    const blocks = new Map();
    let below = [new Uint8Array(32).fill(0xee)];
    for (let layer = 0; layer < depth; layer++) {
      const ids = [];
      for (let i = 0; i < width; i++) {
        const parents = [...new Set([0, 1, 2, 3, 4, 5, 6, 7].map((k) => below[(i + k) % below.length]))];
        const sorted = parents.sort((a, b) => Buffer.compare(a, b));
        const bytes = new Uint8Array(2 + 32 * sorted.length + 4 + 8);
        bytes[0] = 2; // Stardust's protocol version
        bytes[1] = sorted.length;
        sorted.forEach((p, k) => bytes.set(p, 2 + 32 * k));
        const nonce = new DataView(bytes.buffer, bytes.length - 8);
        nonce.setUint32(0, salt);
        nonce.setUint32(4, layer * width + i);
        const id = tc.blockId(bytes);
        blocks.set(tc.toHex(id), bytes);
        ids.push(id);
      }
      below = ids;
    }
    dag = { blocks, top: below.slice(0, 8).sort((a, b) => Buffer.compare(a, b)) };
  };

  /** Milestone `index`, signed with the testnet's public coordinator key, over the junk DAG's top. */
  const signed = (index) =>
    tc.buildMilestone(
      {
        index,
        timestamp: 2_000_000_000 + index,
        previousMilestoneId: new Uint8Array(32).fill(1),
        parents: dag.top.length > 0 ? dag.top : [new Uint8Array(32).fill(0xee)],
        inclusionMerkleRoot: new Uint8Array(32),
        appliedMerkleRoot: new Uint8Array(32),
        params: testnet,
      },
      [tc.TESTNET_COORDINATOR_SECRET],
    );

  const milestone = (index) => {
    // A new attempt asks for the first milestone again: a fresh DAG for it (what the follower kept is of no use).
    if (state.mode !== lastMode) firstAsked = undefined;
    lastMode = state.mode;
    const overDag = state.mode === 'junk-dag' || state.mode === 'forged';
    if (overDag && (firstAsked === undefined || index <= firstAsked)) {
      firstAsked = index;
      makeDag();
    }
    const m = signed(index);
    if (state.mode === 'forged') m.signatures[0].signature[7] ^= 1; // the DAG below it is there all the same
    return tc.encodeMilestonePayload(m);
  };

  const oversizedCone = () => {
    if (oversized === undefined) {
      oversized = Buffer.alloc(4 + OVERSIZED_BLOCKS * 4096, 0xab);
      oversized.writeUInt32LE(OVERSIZED_BLOCKS, 0);
      for (let i = 0; i < OVERSIZED_BLOCKS; i++) oversized.writeUInt32LE(4092, 4 + i * 4096);
    }
    return oversized;
  };

  const server = createServer((req, res) => {
    const path = req.url;
    res.on('error', () => {}); // the follower cuts answers off: expected
    if (path === '/api/core/v2/info') {
      const body = { status: { confirmedMilestone: { index: state.claim } } };
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    const byIndex = /^\/api\/core\/v2\/milestones\/by-index\/(\d+)$/.exec(path);
    const isCone = path.endsWith('/cone');
    const block = /^\/api\/core\/v2\/blocks\/(0x[0-9a-f]{64})$/.exec(path);
    if (byIndex) seen.milestones++;
    if (isCone) seen.cones++;
    if (block) seen.blocks++;
    if (state.mode === 'honest') return forward(honest, req, res);
    if (byIndex && state.mode === 'trickle') return trickle(res, milestone(Number(byIndex[1])), state.trickleMs);
    if (byIndex) return res.writeHead(200).end(milestone(Number(byIndex[1])));
    if (isCone && state.mode === 'oversized') return res.writeHead(200).end(oversizedCone());
    const bytes = block && dag.blocks.get(block[1]);
    if (bytes) return res.writeHead(200).end(bytes);
    res.writeHead(404).end();
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    seen,
    close: () =>
      new Promise((done) => {
        for (const s of sockets) s.destroy();
        server.close(done);
      }),
  };
}

function forward(origin, req, res) {
  const up = request(`${origin}${req.url}`, { headers: { accept: req.headers.accept ?? '' } }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  up.end();
}

/** The answer's first byte, then one every `ms`, never the last: the follower must give up on it. */
function trickle(res, body, ms) {
  res.writeHead(200, { 'content-length': body.length });
  let at = 0;
  const t = setInterval(() => {
    if (at < body.length - 1 && !res.destroyed) res.write(body.subarray(at, ++at));
    else clearInterval(t);
  }, ms);
  res.on('close', () => clearInterval(t));
  res.write(body.subarray(0, ++at));
}
