import { CodecError, toHex } from '../codec/index.js';
import { findNonce, powScore } from '../crypto/index.js';
import { TangleError } from '../errors.js';
import { BINARY_V1, type BlockIntake, HttpProblem } from '../http/kit/index.js';
import { type Ledger, LedgerError } from '../ledger/index.js';
import { blockFromJson, encodeBlock } from '../serialize.js';
import {
  hasNonce,
  lacksParents,
  nonceCovered,
  parentsOf,
  protocolVersionOf,
  withNonce,
  withParents,
} from '../stardust/block.js';
import { compareBytes } from '../util/bytes.js';

// POST /api/core/v2/blocks on the process that writes (hornet's sendBlock, components/coreapi/blocks.go): a block in
// JSON or in bytes, its missing parents filled with tips and its missing nonce found (when the node does proof of
// work), then accepted into the open slot (the one after the latest committed) through the whole of acceptBlock:
// syntax, proof of work, and the transaction's semantics against the ledger. A refusal is the rule's error (400).

// A request's media type, its parameters dropped (server.ts); the kit's JSON_TYPE is an answer's, with its charset.
const JSON_BODY = 'application/json';

export interface IntakeOptions {
  /** Do proof of work for blocks that arrive with nonce 0 and too low a score (hornet: `restAPI.pow.enabled`). */
  pow: boolean;
  /**
   * The block-issuing account whose credits pay for posted blocks (a Stardust block names no issuer; iota-core's node
   * issues blocks for its clients with its own account). Without it, a posted block burns no credits.
   */
  issuerId?: Uint8Array;
}

/** The intake of a writing ledger. */
export function ledgerIntake(ledger: Ledger, options: IntakeOptions): BlockIntake {
  const params = ledger.params;
  const invalid = (why: string) => new HttpProblem(400, `invalid block, error: ${why}`);
  const tips = () => {
    const found = ledger.tips().sort(compareBytes); // a block's parents are sorted (TIP-24)
    if (found.length === 0) throw new HttpProblem(503, 'no tips available to attach the block to');
    return found;
  };
  return {
    async submit(body, contentType) {
      try {
        return accept(body, contentType);
      } catch (e) {
        // The rule that refused it, by its stable code and the field's path (SPEC A's errors), in the envelope.
        if (e instanceof TangleError && (!(e instanceof LedgerError) || e.kind === 'invalid'))
          throw invalid(`${e.code}${e.path === '' ? '' : ` at ${e.path}`}: ${e.detail}`);
        throw e;
      }
    },
  };

  /** The first parent the ledger does not know, if the block's bytes hold their parents (else acceptBlock refuses). */
  function unknownParent(bytes: Uint8Array): Uint8Array | undefined {
    let ids: Uint8Array[];
    try {
      ids = parentsOf(bytes);
    } catch (e) {
      if (e instanceof CodecError) return undefined; // acceptBlock refuses it, with the rule and the field's path
      throw e;
    }
    return ids.find((id) => !ledger.knowsBlock(id));
  }

  function accept(body: Uint8Array, contentType: string): Uint8Array {
    let bytes: Uint8Array;
    if (contentType === JSON_BODY) {
      let json: { [key: string]: unknown };
      try {
        json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch (e) {
        throw invalid(`the body is not JSON (${(e as Error).message.slice(0, 80)})`);
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw invalid('not a JSON object');
      if (json.protocolVersion !== params.protocolVersion) throw invalid('protocolVersion invalid');
      const parents = json.parents;
      if (parents === undefined || parents === null || (Array.isArray(parents) && parents.length === 0))
        json = { ...json, parents: tips().map((t) => `0x${Buffer.from(t).toString('hex')}`) };
      bytes = encodeBlock(blockFromJson(json)); // CodecError: 400 with its code and path
    } else if (contentType === BINARY_V1) {
      bytes = lacksParents(body) ? withParents(body, tips()) : body;
      if (protocolVersionOf(bytes) !== params.protocolVersion) throw invalid('protocolVersion invalid');
    } else {
      throw new HttpProblem(
        400,
        `unsupported content type "${contentType.slice(0, 60)}" (${JSON_BODY} or ${BINARY_V1})`,
      );
    }
    bytes = withWork(bytes, params.minPowScore, options.pow);
    const unknown = unknownParent(bytes);
    if (unknown !== undefined)
      throw invalid(`the parent ${toHex(unknown)} is not known to this node: the block is not solid`);
    const slot = ledger.latestCommitment().slot + 1;
    const result = ledger.acceptBlock(bytes, { slot, ...(options.issuerId ? { issuerId: options.issuerId } : {}) });
    return result.blockId;
  }
}

/** The block with a nonce that meets `minPowScore`, found here when it came with none (0) and the node does PoW. */
function withWork(bytes: Uint8Array, minPowScore: number, pow: boolean): Uint8Array {
  const covered = nonceCovered(bytes);
  if (covered === undefined || minPowScore === 0 || powScore(bytes) >= minPowScore) return bytes;
  if (!pow || hasNonce(bytes)) return bytes; // acceptBlock refuses it, with the rule
  return withNonce(bytes, findNonce(covered, minPowScore)!);
}
