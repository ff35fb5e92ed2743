import { assertModel, encode } from '../codec/index.js';
import { verifyEd25519 } from '../crypto/index.js';
import { joinPath } from '../errors.js';
import { milestoneId } from '../stardust/ids.js';
import {
  MIN_MIGRATED_DEPOSIT,
  MilestoneOptionType,
  type MilestonePayload,
  migratedFundsEntry,
  milestonePayload as milestoneCodec,
  type ReceiptMilestoneOption,
} from '../stardust/payload/milestone.js';
import type { MilestoneKeyRange } from '../stardust/protocol-parameters.js';
import { bytesKey, compareBytes, equalBytes } from '../util/bytes.js';
import { ValidationError } from './errors.js';

/**
 * TIP-29 rules of a milestone payload that need no keys and no ledger: options sorted by type with at most one of
 * each, the receipt's rules (TIP-34), signatures sorted by public key and unique, and, given the parents of the block
 * that carries it, the essence's parents equal to them. (Whether enough of the right keys signed is
 * `verifyMilestoneSignatures`'s question: the keys are node configuration. A milestone block's nonce 0 is
 * `validateBlock`'s.)
 * @throws ValidationError, CodecError (a malformed model)
 */
export function validateMilestonePayload(payload: MilestonePayload, blockParents?: readonly Uint8Array[]): void {
  assertModel(payload, 'MilestonePayload');
  encode(milestoneCodec, payload);
  if (blockParents !== undefined && !Array.isArray(blockParents))
    throw new TypeError('validateMilestonePayload: blockParents must be an array of 32-byte block ids');
  checkMilestone(payload, blockParents, '');
}

/** @internal The rules of `validateMilestonePayload` for a decoded payload, with paths under `path`. */
export function checkMilestone(m: MilestonePayload, blockParents: readonly Uint8Array[] | undefined, path: string) {
  if (
    blockParents !== undefined &&
    (m.parents.length !== blockParents.length || m.parents.some((p, i) => !equalBytes(p, blockParents[i]!)))
  ) {
    throw new ValidationError('MILESTONE_PARENTS_MISMATCH', "the milestone's parents must be the block's parents", {
      path: joinPath(path, 'parents'),
    });
  }
  m.options.forEach((o, i) => {
    if (i > 0 && m.options[i - 1]!.type >= o.type) {
      throw new ValidationError('MILESTONE_OPTIONS_NOT_SORTED', 'options must be sorted by type, at most one of each', {
        path: joinPath(path, `options[${i}]`),
      });
    }
    if (o.type === MilestoneOptionType.Receipt) checkReceipt(o, joinPath(path, `options[${i}]`));
  });
  m.signatures.forEach((s, i) => {
    if (i > 0 && compareBytes(m.signatures[i - 1]!.publicKey, s.publicKey) >= 0) {
      throw new ValidationError(
        'MILESTONE_SIGNATURES_NOT_SORTED',
        'signatures must be sorted by public key and unique',
        {
          path: joinPath(path, `signatures[${i}]`),
        },
      );
    }
  });
}

/** TIP-34: migrated funds sorted by their serialized bytes and unique, each deposit at least 1,000,000. */
function checkReceipt(r: ReceiptMilestoneOption, path: string): void {
  const bytes = r.funds.map((f) => encode(migratedFundsEntry, f));
  r.funds.forEach((f, i) => {
    if (i > 0 && compareBytes(bytes[i - 1]!, bytes[i]!) >= 0) {
      throw new ValidationError('RECEIPT_FUNDS_NOT_SORTED', 'migrated funds must be sorted by their bytes and unique', {
        path: `${path}.funds[${i}]`,
      });
    }
    if (f.deposit < MIN_MIGRATED_DEPOSIT) {
      throw new ValidationError('RECEIPT_DEPOSIT_TOO_LOW', `deposit ${f.deposit} below ${MIN_MIGRATED_DEPOSIT}`, {
        path: `${path}.funds[${i}].deposit`,
      });
    }
  });
}

export type { MilestoneKeyRange } from '../stardust/protocol-parameters.js';

/**
 * TIP-29: a milestone is signed when it carries at least `threshold` signatures, no more than the keys that apply to
 * its index, each by such a key, each a valid Ed25519 signature (ZIP-215) of the milestone id. The syntactic rules
 * (sorted, unique signatures) are `validateBlock`'s.
 * @throws ValidationError MILESTONE_SIGNATURE_COUNT, MILESTONE_KEY_NOT_APPLICABLE, MILESTONE_SIGNATURE_INVALID
 */
export function verifyMilestoneSignatures(
  payload: MilestonePayload,
  keyRanges: readonly MilestoneKeyRange[],
  threshold: number,
): void {
  if (!Array.isArray(keyRanges)) throw new TypeError('verifyMilestoneSignatures: keyRanges must be an array');
  if (!Number.isInteger(threshold) || threshold < 1)
    throw new RangeError('verifyMilestoneSignatures: threshold must be ≥ 1');
  const index = payload.index;
  const applicable = new Set(
    keyRanges
      .filter((k) => k.startIndex <= index && (k.endIndex === 0 || index <= k.endIndex))
      .map((k) => bytesKey(k.publicKey)),
  );
  const n = payload.signatures.length;
  if (n < threshold || n > applicable.size) {
    throw new ValidationError(
      'MILESTONE_SIGNATURE_COUNT',
      // The count first, as hornet's VerifyMilestone checks it; where no key covers the index, that is the reason.
      applicable.size === 0
        ? `no key of the ${keyRanges.length} given covers milestone ${index} (another network's, or ended before it)`
        : `${n} signature(s): at least ${threshold} and at most the ${applicable.size} key(s) of milestone ${index}`,
      { path: 'signatures' },
    );
  }
  const id = milestoneId(payload);
  payload.signatures.forEach((s, i) => {
    if (!applicable.has(bytesKey(s.publicKey))) {
      throw new ValidationError('MILESTONE_KEY_NOT_APPLICABLE', `not a milestone key for index ${index}`, {
        path: `signatures[${i}].publicKey`,
      });
    }
    if (!verifyEd25519(s.publicKey, id, s.signature)) {
      throw new ValidationError('MILESTONE_SIGNATURE_INVALID', 'not a valid Ed25519 signature of the milestone id', {
        path: `signatures[${i}].signature`,
      });
    }
  });
}
