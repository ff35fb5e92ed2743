import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TangleError } from '../errors.js';
import {
  milestoneKeysFromHornetConfig,
  outputStoryFromJson,
  type ProofVerdict,
  proofFromJson,
  verifyOutputStory,
  verifyProof,
} from '../proofs/index.js';
import type { MilestoneKeys } from '../stardust/protocol-parameters.js';
import { describeError, NETWORKS, network, UsageError } from './io.js';

export const VERIFY_PROOF_USAGE = `tangle-core verify-proof FILE|- [--network shimmer|iota|testnet | --keys FILE]
  Checks a proof of inclusion offline (inx-poi's and inx-chronicle's JSON: milestone, block, proof): the block's ID is
  the path's value, the path hashes to the milestone's inclusion root (referenced) or applied root (applied), and the
  milestone is signed by enough of the network's keys. An output's story ({ outputId, created, spent }) is checked
  too: both proofs, the output ID the creating transaction's, the spending one's input. Exit 0 valid, 1 not.
  --network  whose milestone keys (the presets carry hornet's); without it or --keys, any preset's will do
  --keys     a hornet config file (protocol.milestonePublicKeyCount, protocol.publicKeyRanges) with the keys
`;

/** `verify-proof FILE [--network N | --keys FILE]`: the line to print, and whether the proof is valid. */
export function verifyProofCommand(args: string[]): { valid: boolean; line: string } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { network: { type: 'string' }, keys: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('give one proof file (or - for standard input)');
  if (values.network !== undefined && values.keys !== undefined)
    throw new UsageError('--network and --keys both name keys: give one');
  const candidates: [string, MilestoneKeys][] =
    values.keys !== undefined
      ? [[values.keys, milestoneKeysFromHornetConfig(JSON.parse(readFileSync(values.keys, 'utf8')))]]
      : values.network !== undefined
        ? [[values.network, network(values.network).milestoneKeys!]]
        : Object.entries(NETWORKS).map(([name, p]) => [name, p.milestoneKeys!]);
  const file = positionals[0]!;
  const text = readFileSync(file === '-' ? 0 : file, 'utf8');
  let verdicts: [string, ProofVerdict][];
  try {
    const json = JSON.parse(text) as { outputId?: unknown };
    if (typeof json === 'object' && json !== null && 'outputId' in json) return story(json, candidates);
    const proof = proofFromJson(json);
    verdicts = candidates.map(([name, keys]) => [name, verifyProof(proof, keys)]);
  } catch (e) {
    if (e instanceof TangleError || e instanceof SyntaxError)
      return { valid: false, line: `invalid: ${describeError(e)}` };
    throw e;
  }
  const found = verdicts.find(([, v]) => v.valid);
  const ok = found?.[1];
  if (found !== undefined && ok?.valid) {
    const v = ok;
    const what = v.root === 'inclusion' ? 'referenced' : 'applied (its transaction)';
    return {
      valid: true,
      line:
        `valid: block ${v.blockId} ${what} by milestone ${v.milestoneIndex} (${v.milestoneId}), ` +
        `signed by ${found[0]}'s keys`,
    };
  }
  return { valid: false, line: whyNot(verdicts) };
}

/**
 * Why no keys found a proof valid: the verdict of the keys asked for; of all presets, the one that got furthest (past
 * the signatures) says most, and the line says which presets were tried (a proof of another network fails them all).
 */
function whyNot(
  verdicts: readonly (readonly [string, { valid: boolean; code?: string; path?: string; reason?: string }])[],
) {
  const [name, v] = verdicts.find(([, v]) => !v.valid && !v.code!.startsWith('MILESTONE_')) ?? verdicts[0]!;
  const tried =
    verdicts.length === 1 ? `${name}'s keys` : `${name}'s keys; ${verdicts.map(([n]) => n).join(', ')}'s tried`;
  return `invalid: ${v.code} at ${v.path}: ${v.reason} (${tried})`;
}

/** An output's story (`{ outputId, created, spent? }`): valid with the first keys that sign it, or why not. */
function story(json: unknown, candidates: [string, MilestoneKeys][]): { valid: boolean; line: string } {
  const s = outputStoryFromJson(json);
  const verdicts = candidates.map(([name, keys]) => [name, verifyOutputStory(s, keys)] as const);
  for (const [name, v] of verdicts) {
    if (!v.valid) continue;
    const spent =
      v.spentBy === undefined ? 'not spent as of the proof' : `spent by ${v.spentBy} in milestone ${v.spentIn}`;
    const id = `0x${Array.from(s.outputId, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    return {
      valid: true,
      line: `valid: output ${id} created in milestone ${v.createdIn}, ${spent}, signed by ${name}'s keys`,
    };
  }
  return { valid: false, line: whyNot(verdicts) };
}
