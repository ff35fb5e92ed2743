import { CodecError, fromHex, type Json, toHex } from '../codec/index.js';
import { TangleError } from '../errors.js';
import type { LedgerReader } from '../ledger/index.js';
import { outputIndexOf, transactionId } from '../stardust/ids.js';
import type { Output } from '../stardust/output.js';
import type { TransactionPayload } from '../stardust/payload/transaction.js';
import type { MilestoneKeys } from '../stardust/protocol-parameters.js';
import { InputType, PayloadType } from '../stardust/type-codes.js';
import { equalBytes } from '../util/bytes.js';
import { createProof } from './create.js';
import { ProofError } from './errors.js';
import { type InclusionProof, proofFromJson, proofToJson } from './proof.js';
import { verifyProof } from './verify.js';

// An output's story, provable (issue 60): the applied-block proof of the transaction that created it (the output ID
// is that transaction's ID and the output's index), and, once it was spent, the applied-block proof of the
// transaction that spent it (one of its inputs names the output). Both are ordinary proofs: whoever checks them needs
// the network's keys and nothing else.

export interface OutputStory {
  outputId: Uint8Array;
  created: InclusionProof;
  spent?: InclusionProof;
}

/** The story as JSON: `{ outputId, created, spent? }`, the proofs in the peers' JSON. */
export function outputStoryToJson(s: OutputStory): { [key: string]: Json } {
  return {
    outputId: toHex(s.outputId),
    created: proofToJson(s.created),
    ...(s.spent !== undefined && { spent: proofToJson(s.spent) }),
  };
}

/** A story from its JSON. @throws CodecError (with the field's path: `created.block.payload…`) */
export function outputStoryFromJson(json: unknown): OutputStory {
  const o = json as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new CodecError('INVALID_VALUE', 'an output story is an object { outputId, created, spent? }');
  const extra = Object.keys(o).find((k) => !['outputId', 'created', 'spent'].includes(k));
  if (extra !== undefined)
    throw new CodecError('UNEXPECTED_FIELD', `unexpected field ${JSON.stringify(extra.slice(0, 20))}`);
  if (typeof o.outputId !== 'string' || !/^0x[0-9a-fA-F]{68}$/.test(o.outputId))
    throw new CodecError('INVALID_VALUE', 'expected a 34-byte output ID in hex', { path: 'outputId' });
  const part = (name: 'created' | 'spent') => {
    try {
      return proofFromJson(o[name]);
    } catch (e) {
      throw e instanceof TangleError ? e.prefix(name) : e;
    }
  };
  return {
    outputId: fromHex(o.outputId.toLowerCase()),
    created: part('created'),
    ...(o.spent !== undefined && { spent: part('spent') }),
  };
}

/**
 * The story of an output the ledger holds, created (and spent) by transactions of milestones it applied.
 * @throws LedgerError NOT_FOUND, ProofError (a genesis or snapshot output: no milestone of this store created it)
 */
export async function createOutputStory(ledger: LedgerReader, outputId: Uint8Array): Promise<OutputStory> {
  const o = await ledger.outputWithMetadata(outputId);
  if (o.blockId.every((b) => b === 0))
    throw new ProofError('BLOCK_NOT_REFERENCED', `output ${toHex(outputId)} was booked by a snapshot, not a block`);
  const created = await createProof(ledger, o.blockId, 'applied');
  if (o.spent === undefined) return { outputId: outputId.slice(), created };
  const spender = await ledger.includedBlock(o.spent.transactionId);
  return { outputId: outputId.slice(), created, spent: await createProof(ledger, spender.blockId, 'applied') };
}

export type OutputStoryVerdict =
  | { valid: true; output: Output; createdIn: number; spentIn?: number; spentBy?: string }
  | { valid: false; code: string; path: string; reason: string };

const transactionOf = (p: InclusionProof): TransactionPayload | undefined =>
  p.block.payload?.type === PayloadType.Transaction ? p.block.payload : undefined;

/**
 * Whether the story holds: the created proof an applied-block proof of a transaction whose ID and output index are
 * the output ID's, and the spent proof, if any, one of a transaction with an input naming the output.
 */
export function verifyOutputStory(story: OutputStory, keys: MilestoneKeys): OutputStoryVerdict {
  const bad = (code: string, path: string, reason: string): OutputStoryVerdict => ({
    valid: false,
    code,
    path,
    reason,
  });
  const created = verifyProof(story.created, keys, 'applied');
  if (!created.valid) return { ...created, path: `created.${created.path}` };
  const tx = transactionOf(story.created);
  const index = outputIndexOf(story.outputId);
  if (tx === undefined || !equalBytes(transactionId(tx), story.outputId.subarray(0, 32)))
    return bad('STORY_OUTPUT_NOT_CREATED', 'created.block', "the block's transaction is not the output ID's");
  const output = tx.essence.outputs[index];
  if (output === undefined)
    return bad('STORY_OUTPUT_NOT_CREATED', 'outputId', `the transaction has no output ${index}`);
  if (story.spent === undefined) return { valid: true, output, createdIn: created.milestoneIndex };
  const spent = verifyProof(story.spent, keys, 'applied');
  if (!spent.valid) return { ...spent, path: `spent.${spent.path}` };
  const spender = transactionOf(story.spent);
  const spends = spender?.essence.inputs.some(
    (i) =>
      i.type === InputType.Utxo &&
      i.transactionOutputIndex === index &&
      equalBytes(i.transactionId, story.outputId.subarray(0, 32)),
  );
  if (spender === undefined || !spends)
    return bad('STORY_OUTPUT_NOT_SPENT', 'spent.block', "the block's transaction does not spend the output");
  return {
    valid: true,
    output,
    createdIn: created.milestoneIndex,
    spentIn: spent.milestoneIndex,
    spentBy: toHex(transactionId(spender)),
  };
}
