import { toHex } from '../../codec/hex.js';
import { verifyEd25519 } from '../../crypto/ed25519.js';
import { milestoneId } from '../../model/ids.js';
import type { MilestonePayload } from '../../model/payload/milestone.js';
import { bytesKey } from '../../util/bytes.js';
import { LedgerError } from '../common/index.js';

// TIP-29's signature rule of a milestone, as hornet's milestone manager and iota.go's `Milestone.VerifySignatures`
// apply it: the keys that may sign a milestone are those whose range covers its index (a coordinator's keys are
// replaced at set indexes); at least the network's threshold of them sign, no key twice and none outside that set;
// each signs the milestone's ID (the BLAKE2b-256 hash of its essence) under ZIP-215. Our own code.

/** A coordinator key and the milestone indexes it may sign (`end` 0: no end), as hornet's configuration gives them. */
export interface MilestoneKeyRange {
  publicKey: Uint8Array;
  start: number;
  end: number;
}

/** What the network says about its coordinator: the keys by range, and how many must sign. */
export interface MilestoneKeys {
  ranges: readonly MilestoneKeyRange[];
  /** The least number of signatures a milestone needs (hornet's `milestonePublicKeyCount`). */
  threshold: number;
}

const refuse = (index: number, why: string) => new LedgerError('MILESTONE_INVALID', `milestone ${index}: ${why}`);

/**
 * Checks a milestone's signatures against the network's keys; returns its ID.
 * @throws LedgerError MILESTONE_INVALID naming the milestone and the rule it breaks
 */
export function verifyMilestoneSignatures(payload: MilestonePayload, keys: MilestoneKeys): Uint8Array {
  const { index, signatures } = payload;
  const applicable = new Set(
    keys.ranges.filter((r) => r.start <= index && (r.end === 0 || index <= r.end)).map((r) => bytesKey(r.publicKey)),
  );
  if (signatures.length < keys.threshold)
    throw refuse(index, `${signatures.length} signatures, the network needs ${keys.threshold}`);
  const id = milestoneId(payload);
  const signed = new Set<string>();
  for (const s of signatures) {
    const key = bytesKey(s.publicKey);
    if (!applicable.has(key)) throw refuse(index, `key ${toHex(s.publicKey)} may not sign milestone ${index}`);
    if (signed.has(key)) throw refuse(index, `key ${toHex(s.publicKey)} signs twice`);
    signed.add(key);
    if (!verifyEd25519(s.publicKey, id, s.signature))
      throw refuse(index, `the signature of key ${toHex(s.publicKey)} does not verify`);
  }
  return id;
}
