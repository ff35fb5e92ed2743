import { CodecError, type Json } from '../codec/index.js';
import { TangleError } from '../errors.js';
import { blockFromJson, blockToJson, milestonePayloadFromJson, milestonePayloadToJson } from '../serialize.js';
import type { Block } from '../stardust/block.js';
import type { MilestonePayload } from '../stardust/payload/milestone.js';
import { type AuditNode, auditPathFromJson, auditPathToJson } from './audit-path.js';

// A proof of inclusion as inx-poi and inx-chronicle hand it out and take it back: the milestone payload (TIP-25
// JSON), the block (TIP-25 JSON: its ID is hashed from it), and the block ID's audit path to one of the milestone's
// Merkle roots — the inclusion root for a referenced block, the applied root for a block whose transaction the
// milestone applied. Nothing else is needed to check it: the milestone's signatures tie the root to the network.

export interface InclusionProof {
  milestone: MilestonePayload;
  block: Block;
  proof: AuditNode;
}

/** The proof as the peers' JSON: `{ milestone, block, proof }`. */
export function proofToJson(p: InclusionProof): { milestone: Json; block: Json; proof: Json } {
  return {
    milestone: milestonePayloadToJson(p.milestone),
    block: blockToJson(p.block),
    proof: auditPathToJson(p.proof) as Json,
  };
}

/**
 * A proof from the peers' JSON (a parsed object): each of the three parts decoded strictly.
 * @throws CodecError (or a ValidationError of a part) whose path starts with the part: `milestone.signatures[0]`
 */
export function proofFromJson(json: unknown): InclusionProof {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CodecError('INVALID_VALUE', 'a proof is an object { milestone, block, proof }');
  const o = json as Record<string, unknown>;
  for (const name of ['milestone', 'block', 'proof'])
    if (o[name] === undefined) throw new CodecError('MISSING_FIELD', `a proof has a ${name}`, { path: name });
  const extra = Object.keys(o).find((k) => !['milestone', 'block', 'proof'].includes(k));
  if (extra !== undefined)
    throw new CodecError('UNEXPECTED_FIELD', `unexpected field ${JSON.stringify(extra.slice(0, 20))}`);
  return {
    milestone: part('milestone', () => milestonePayloadFromJson(o.milestone)),
    block: part('block', () => blockFromJson(o.block)),
    proof: auditPathFromJson(o.proof, 'proof'),
  };
}

function part<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof TangleError) throw e.prefix(name);
    throw e;
  }
}
