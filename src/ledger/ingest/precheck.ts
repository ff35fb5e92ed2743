import { blake2b256, verifyEd25519 } from '../../crypto/index.js';
import { decodeBlock } from '../../serialize.js';
import { transactionPayloadBytes } from '../../stardust/block.js';
import { transactionEssence } from '../../stardust/essence.js';
import { blockId as computeBlockId } from '../../stardust/ids.js';
import type { TransactionPayload } from '../../stardust/payload/transaction.js';
import type { ProtocolParameters } from '../../stardust/protocol-parameters.js';
import { PayloadType, UnlockType } from '../../stardust/type-codes.js';
import { equalBytes } from '../../util/bytes.js';
import { validateDecodedBlock, verifyMilestoneSignatures } from '../../validate/index.js';

// What can be decided about a block from its bytes and the protocol parameters alone, before the ledger sees it:
// strict decode, the syntactic rules with proof of work, a milestone's signatures, the IDs and the signing hash, and
// the ZIP-215 verdict of every Signature Unlock. None of it depends on the ledger's state, so worker threads do it
// for many blocks at once (ingest-pool.ts) while the writer applies earlier ones in order. A block that fails any
// of it gets no precheck: the writer then runs the whole serial path on it and throws exactly the error it would
// have thrown anyway. So a precheck can only save work, never change a verdict.

/** The outcome of the checks above for a block that passed them all. */
export interface Precheck {
  blockId: Uint8Array;
  /** For a transaction block: its transaction ID and signing hash (the BLAKE2b-256 of its essence). */
  transactionId: Uint8Array | undefined;
  signingHash: Uint8Array | undefined;
  /** One verdict per Signature Unlock, in unlock order: 1 valid, 0 not. */
  verdicts: Uint8Array;
}

/** The checks of a block that need nothing but its bytes; undefined if any fails (the serial path says which). */
export function precheckBlock(bytes: Uint8Array, params: ProtocolParameters): Precheck | undefined {
  try {
    const block = decodeBlock(bytes);
    validateDecodedBlock(block, bytes, params);
    const blockId = computeBlockId(bytes);
    const payload = block.payload;
    if (payload?.type === PayloadType.Milestone) {
      const keys = params.milestoneKeys;
      if (keys === undefined) return undefined;
      verifyMilestoneSignatures(payload, keys.keyRanges, keys.threshold);
    }
    if (payload?.type !== PayloadType.Transaction)
      return { blockId, transactionId: undefined, signingHash: undefined, verdicts: new Uint8Array(0) };
    const payloadBytes = transactionPayloadBytes(bytes)!;
    const signingHash = blake2b256(payloadBytes.subarray(4, 4 + transactionEssence.sizeOf(payload.essence)));
    const signatures = payload.unlocks.filter((u) => u.type === UnlockType.Signature);
    const verdicts = Uint8Array.from(signatures, (u) =>
      verifyEd25519(u.signature.publicKey, signingHash, u.signature.signature) ? 1 : 0,
    );
    return { blockId, transactionId: blake2b256(payloadBytes), signingHash, verdicts };
  } catch {
    return undefined;
  }
}

/**
 * A verifier for one transaction that answers from its precheck's verdicts, and asks `verifyEd25519` for any
 * (key, message, signature) the precheck did not see.
 */
export function precheckedVerifier(pre: Precheck, tx: TransactionPayload) {
  const signatures = tx.unlocks.flatMap((u) => (u.type === UnlockType.Signature ? [u.signature] : []));
  const { signingHash, verdicts } = pre;
  return (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
    if (signingHash !== undefined && equalBytes(message, signingHash)) {
      // The semantic rules pass the unlocks' own arrays: found by identity, bytes compared only for other arrays.
      for (let i = 0; i < signatures.length; i++) {
        const s = signatures[i]!;
        const same = s.publicKey === publicKey && s.signature === signature;
        if (same || (equalBytes(s.publicKey, publicKey) && equalBytes(s.signature, signature)))
          return verdicts[i] === 1;
      }
    }
    return verifyEd25519(publicKey, message, signature);
  };
}

// The prechecks of a batch travel from a worker in one buffer: per block a status byte (0: none, the serial path
// decides; 1: passed), then for a passed block its ID, a transaction flag, the transaction ID and signing hash (if
// flagged), the number of verdicts and the verdicts.

export function writePrechecks(prechecks: readonly (Precheck | undefined)[]): Uint8Array {
  let size = 0;
  for (const p of prechecks)
    size += p === undefined ? 1 : 1 + 32 + 1 + (p.transactionId ? 64 : 0) + 1 + p.verdicts.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of prechecks) {
    if (p === undefined) {
      out[at++] = 0;
      continue;
    }
    out[at++] = 1;
    out.set(p.blockId, at);
    at += 32;
    out[at++] = p.transactionId === undefined ? 0 : 1;
    if (p.transactionId !== undefined) {
      out.set(p.transactionId, at);
      out.set(p.signingHash!, at + 32);
      at += 64;
    }
    out[at++] = p.verdicts.length;
    out.set(p.verdicts, at);
    at += p.verdicts.length;
  }
  return out;
}

/**
 * A precheck read in place from a worker's buffer: one object per block, its fields views made when asked. The
 * writer keeps a batch's prechecks until it reaches their blocks, and every young-generation collection until then
 * copied what they held (four views and an object each).
 */
class PackedPrecheck implements Precheck {
  constructor(
    private readonly data: Uint8Array,
    /** Where the block ID starts; the transaction flag follows it. */
    private readonly at: number,
  ) {}

  get blockId(): Uint8Array {
    return this.data.subarray(this.at, this.at + 32);
  }

  private get isTransaction(): boolean {
    return this.data[this.at + 32] === 1;
  }

  get transactionId(): Uint8Array | undefined {
    return this.isTransaction ? this.data.subarray(this.at + 33, this.at + 65) : undefined;
  }

  get signingHash(): Uint8Array | undefined {
    return this.isTransaction ? this.data.subarray(this.at + 65, this.at + 97) : undefined;
  }

  get verdicts(): Uint8Array {
    const count = this.at + (this.isTransaction ? 97 : 33);
    return this.data.subarray(count + 1, count + 1 + this.data[count]!);
  }
}

export function readPrechecks(data: Uint8Array, count: number): (Precheck | undefined)[] {
  const out: (Precheck | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (data[at++] === 0) {
      out.push(undefined);
      continue;
    }
    out.push(new PackedPrecheck(data, at));
    at += 32;
    if (data[at++] === 1) at += 64;
    at += 1 + data[at]!;
  }
  return out;
}
