import {
  type MilestoneKeys,
  milestoneKeysFromHornetConfig,
  outputStoryFromJson,
  PROTOCOL_PARAMETERS,
  type ProofVerdict,
  proofFromJson,
  verifyOutputStory,
  verifyProof,
  verifyProofAsync,
} from '../codec-entry.js';
import { find } from './api.js';

// Checking a proof file in the browser (issue 60) with the codec package, as `tangle-core verify-proof` checks it:
// with nothing but the file and a network's milestone keys. The keys are Shimmer's and IOTA's (the presets) and this
// node's own network's, read once when the page loads (/api/tangle-core/v1/milestone-keys): the check itself asks the
// network nothing. The signatures go to the browser's WebCrypto first (verifyProofAsync; crypto/ed25519.ts says why
// that is sound), and to the ZIP-215 check in JavaScript only where WebCrypto refuses them or has no Ed25519.

export interface KeySet {
  /** Whose keys, as the page says it: "Shimmer", "this node's network (testnet)". */
  name: string;
  keys: MilestoneKeys;
}

/** This node's keys (when it serves them) and the presets', the node's first: its own proofs name it. */
export async function keySets(): Promise<KeySet[]> {
  const sets: KeySet[] = [];
  const node = await find<{ networkName: string }>('/api/tangle-core/v1/milestone-keys').catch(() => undefined);
  if (node !== undefined) {
    try {
      sets.push({ name: `this node's network (${node.networkName})`, keys: milestoneKeysFromHornetConfig(node) });
    } catch {} // keys this page cannot read: the presets still check
  }
  sets.push({ name: 'Shimmer', keys: PROTOCOL_PARAMETERS.shimmer.milestoneKeys! });
  sets.push({ name: 'IOTA', keys: PROTOCOL_PARAMETERS.iota.milestoneKeys! });
  return sets;
}

export type Checked =
  | { valid: true; says: string; keys: string }
  | { valid: false; code: string; path: string; reason: string; keys?: string };

const hexOf = (b: Uint8Array) => `0x${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;

/**
 * The verdict on a file's text: a proof (`{ milestone, block, proof }`) or an output's story (`{ outputId, … }`),
 * valid with the first key set that signed it, or why not — a malformed file naming the field, and of the key sets
 * the one that got furthest (past the signatures) where none did.
 */
export async function checkProofText(text: string, sets: readonly KeySet[]): Promise<Checked> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { valid: false, code: 'NOT_JSON', path: '', reason: `the file is not JSON (${(e as Error).message})` };
  }
  try {
    if (typeof json === 'object' && json !== null && 'outputId' in json) return await checkStory(json, sets);
    const proof = proofFromJson(json);
    // WebCrypto once (what it accepts is remembered), then each key set's check.
    const verdicts: [string, ProofVerdict][] = [];
    for (const [i, s] of sets.entries())
      verdicts.push([s.name, i === 0 ? await verifyProofAsync(proof, s.keys) : verifyProof(proof, s.keys)]);
    const found = verdicts.find(([, v]) => v.valid);
    const ok = found?.[1];
    if (found !== undefined && ok?.valid) {
      const v = ok;
      const what = v.root === 'inclusion' ? 'referenced' : 'applied (its transaction)';
      return { valid: true, says: `block ${v.blockId} ${what} by milestone ${v.milestoneIndex}`, keys: found[0] };
    }
    const [name, v] = verdicts.find(([, v]) => !v.valid && !v.code.startsWith('MILESTONE_')) ?? verdicts[0]!;
    return v.valid
      ? { valid: false, code: 'NO_KEYS', path: '', reason: 'no keys to check with' }
      : { ...v, keys: name };
  } catch (e) {
    const err = e as { code?: string; path?: string; detail?: string; message: string };
    if (err.code === undefined) throw e;
    return { valid: false, code: err.code, path: err.path ?? '', reason: err.detail ?? err.message };
  }
}

async function checkStory(json: object, sets: readonly KeySet[]): Promise<Checked> {
  const story = outputStoryFromJson(json);
  // WebCrypto first for both milestones' signatures: the story's check then finds them accepted.
  await verifyProofAsync(story.created, sets[0]!.keys);
  if (story.spent !== undefined) await verifyProofAsync(story.spent, sets[0]!.keys);
  const verdicts = sets.map((s) => [s.name, verifyOutputStory(story, s.keys)] as const);
  for (const [name, v] of verdicts) {
    if (!v.valid) continue;
    const spent =
      v.spentBy === undefined ? 'not spent as of the proof' : `spent by ${v.spentBy} in milestone ${v.spentIn}`;
    return {
      valid: true,
      says: `output ${hexOf(story.outputId)} created in milestone ${v.createdIn}, ${spent}`,
      keys: name,
    };
  }
  const [name, v] = verdicts.find(([, v]) => !v.valid && !v.code.includes('MILESTONE_')) ?? verdicts[0]!;
  return v.valid ? { valid: false, code: 'NO_KEYS', path: '', reason: 'no keys to check with' } : { ...v, keys: name };
}
