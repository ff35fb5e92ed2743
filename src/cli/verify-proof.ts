import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TangleError } from '../errors.js';
import type { MilestoneKeys } from '../model/protocol-parameters.js';
import { milestoneKeysFromHornetConfig, type ProofVerdict, proofFromJson, verifyProof } from '../proofs/index.js';
import { describeError, NETWORKS, network, UsageError } from './io.js';

export const VERIFY_PROOF_USAGE = `tangle-core verify-proof FILE|- [--network shimmer|iota|testnet | --keys FILE]
  Checks a proof of inclusion offline (inx-poi's and inx-chronicle's JSON: milestone, block, proof): the block's ID is
  the path's value, the path hashes to the milestone's inclusion root (referenced) or applied root (applied), and the
  milestone is signed by enough of the network's keys. Prints valid or why not; exit 0 valid, 1 not.
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
    const proof = proofFromJson(JSON.parse(text));
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
  // The verdict of the keys asked for; of all presets, the one that got furthest (past the signatures) says most.
  const [name, v] = verdicts.find(([, v]) => !v.valid && !v.code.startsWith('MILESTONE_')) ?? verdicts[0]!;
  if (v.valid) throw new Error('unreachable');
  return { valid: false, line: `invalid: ${v.code} at ${v.path}: ${v.reason} (${name}'s keys)` };
}
