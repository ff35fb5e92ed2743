import { CodecError, toHex } from '../../codec/index.js';
import type { LedgerReader } from '../../ledger/index.js';
import {
  createOutputStory,
  createProof,
  outputStoryToJson,
  ProofError,
  type ProofRoot,
  proofFromJson,
  proofToJson,
  verifyProof,
} from '../../proofs/index.js';
import type { MilestoneKeys } from '../../stardust/protocol-parameters.js';
import { HttpProblem, JSON_TYPE, parseHexId, type Reply, type Route, toProblem } from '../kit/index.js';

// Proofs of inclusion over HTTP (issue 60), as the peers answer: inx-poi's `create/{blockId}` and `validate` (a
// referenced block, the milestone's inclusion root) and inx-chronicle's `referenced-block/...` and `applied-block/...`
// (the applied root). A proof is made from the store (proofs/create.ts) and checked with nothing but the posted proof
// and the network's milestone keys. The peers differ in one answer, kept: a milestone whose signatures do not meet
// the keys is `{"valid": false}` to inx-poi and 400 to inx-chronicle.

/** A proof's JSON holds a block (32 KiB at most, twice that in hex) and its milestone: room for both. */
export const MAX_PROOF_BODY = 256 * 1024;

// An output's story: a snapshot's output (no block of this store created it) is a bad request, as it was.
const WHY_STATUS: Record<ProofError['code'], number> = {
  BLOCK_NOT_REFERENCED: 400,
  BLOCK_NOT_APPLIED: 400,
  MILESTONE_NOT_FOUND: 404,
  PROOF_STORE_MISMATCH: 500,
};
// A proof of a block no milestone referenced (yet) is 404, as issue 60 asks: there is no proof to find. Both peers
// answer 400 there (inx-poi's ErrInvalidParameter, chronicle's RequestError::BlockNotReferenced): docs/proofs.md.
const CREATE_STATUS: Record<ProofError['code'], number> = { ...WHY_STATUS, BLOCK_NOT_REFERENCED: 404 };

async function create(ledger: LedgerReader, param: string, root: ProofRoot): Promise<Reply> {
  const id = parseHexId(param, 32, 'block ID');
  try {
    const proof = await createProof(ledger, id, root);
    // A milestone's proof of a block never changes (until the block is pruned): the server may keep it.
    return { body: JSON.stringify(proofToJson(proof)), contentType: JSON_TYPE, immutable: true };
  } catch (e) {
    if (e instanceof ProofError) throw new HttpProblem(CREATE_STATUS[e.code], e.detail);
    throw e;
  }
}

/**
 * The keys this server validates proofs with, as a hornet config's `protocol` part (`milestonePublicKeyCount`,
 * `publicKeyRanges`: what `milestoneKeysFromHornetConfig` and `verify-proof --keys` read), so that a page or a
 * program can check a proof of this network offline. A range without end is written as hornet writes it: its end its
 * start.
 */
function keys(ledger: LedgerReader): Reply {
  const k = keysOf(ledger);
  const publicKeyRanges = k.keyRanges.map((r) => ({
    key: toHex(r.publicKey),
    start: r.startIndex,
    end: r.endIndex === 0 ? r.startIndex : r.endIndex,
  }));
  const body = { networkName: ledger.params.networkName, milestonePublicKeyCount: k.threshold, publicKeyRanges };
  return { body: JSON.stringify(body), contentType: JSON_TYPE };
}

/** tangle-core's own: an output's story (docs/proofs.md), the proofs of the transactions that created and spent it. */
async function story(ledger: LedgerReader, param: string): Promise<Reply> {
  const id = parseHexId(param, 34, 'output ID');
  try {
    // Not kept: an unspent output's story grows a spent proof later.
    return { body: JSON.stringify(outputStoryToJson(await createOutputStory(ledger, id))), contentType: JSON_TYPE };
  } catch (e) {
    if (e instanceof ProofError) throw new HttpProblem(WHY_STATUS[e.code], e.detail);
    throw e;
  }
}

function keysOf(ledger: LedgerReader): MilestoneKeys {
  const keys = ledger.params.milestoneKeys;
  if (keys === undefined)
    throw new HttpProblem(500, `no milestone keys are configured for ${ledger.params.networkName}`);
  return keys;
}

/** `{"valid": …}` of a posted proof; `strict`: a milestone that is not signed as the keys need is 400 (chronicle). */
function validate(ledger: LedgerReader, body: Uint8Array, root: ProofRoot, strict: boolean): Reply {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new HttpProblem(400, 'invalid request: the body is not JSON');
  }
  let proof: ReturnType<typeof proofFromJson>;
  try {
    proof = proofFromJson(json);
  } catch (e) {
    // A malformed proof is 400 naming the field, as verify-proof names it (`LENGTH_MISMATCH at proof.l.h: …`).
    if (e instanceof CodecError) throw new HttpProblem(400, `invalid request: ${e.message}`);
    const p = toProblem(e);
    throw new HttpProblem(p.status === 500 ? 400 : p.status, `invalid request: ${p.detail ?? 'malformed proof'}`);
  }
  const verdict = verifyProof(proof, keysOf(ledger), root);
  if (!verdict.valid && strict && verdict.code.startsWith('MILESTONE_'))
    throw new HttpProblem(400, `invalid milestone: ${verdict.code} at ${verdict.path}: ${verdict.reason}`);
  return { body: JSON.stringify({ valid: verdict.valid }), contentType: JSON_TYPE };
}

const ID = '([^/]*)';
export const poiRoutes: Route[] = [
  {
    pattern: '/api/poi/v1/create/*',
    path: new RegExp(`^/api/poi/v1/create/${ID}$`),
    handle: ({ ledger, params }) => create(ledger, params[0]!, 'inclusion'),
  },
  {
    pattern: '/api/poi/v1/validate',
    path: /^\/api\/poi\/v1\/validate$/,
    maxBody: MAX_PROOF_BODY,
    post: async ({ ledger, body }) => validate(ledger, body, 'inclusion', false),
  },
  {
    pattern: '/api/poi/v1/referenced-block/create/*',
    path: new RegExp(`^/api/poi/v1/referenced-block/create/${ID}$`),
    handle: ({ ledger, params }) => create(ledger, params[0]!, 'inclusion'),
  },
  {
    pattern: '/api/poi/v1/referenced-block/validate',
    path: /^\/api\/poi\/v1\/referenced-block\/validate$/,
    maxBody: MAX_PROOF_BODY,
    post: async ({ ledger, body }) => validate(ledger, body, 'inclusion', true),
  },
  {
    pattern: '/api/poi/v1/applied-block/create/*',
    path: new RegExp(`^/api/poi/v1/applied-block/create/${ID}$`),
    handle: ({ ledger, params }) => create(ledger, params[0]!, 'applied'),
  },
  {
    pattern: '/api/poi/v1/applied-block/validate',
    path: /^\/api\/poi\/v1\/applied-block\/validate$/,
    maxBody: MAX_PROOF_BODY,
    post: async ({ ledger, body }) => validate(ledger, body, 'applied', true),
  },
  {
    pattern: '/api/tangle-core/v1/outputs/*/proof',
    path: new RegExp(`^/api/tangle-core/v1/outputs/${ID}/proof$`),
    handle: ({ ledger, params }) => story(ledger, params[0]!),
  },
  {
    pattern: '/api/tangle-core/v1/milestone-keys',
    path: /^\/api\/tangle-core\/v1\/milestone-keys$/,
    handle: async ({ ledger }) => keys(ledger),
  },
];
