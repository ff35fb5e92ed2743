import { assertModel, encode } from '../../codec/index.js';
import { networkIdFromName } from '../../stardust/ids.js';
import { bytesKey, compareBytes } from '../../util/bytes.js';
import { ValidationError } from '../../validate/index.js';
import { type Block, block as blockCodec } from '../block.js';
import { slotOfCommitmentId } from '../commitment.js';
import { slotFromTime } from '../ids.js';
import { MAX_BLOCK_SIZE } from '../limits.js';
import type { ProtocolParameters } from '../protocol-parameters.js';
import { BlockBodyType, ContextInputType, PayloadType } from '../type-codes.js';
import { fail } from './fail.js';
import { validateSignedTransaction } from './transaction.js';

// TIP-46's syntactic rules of a block (iota.go v4 block.go): size, version, network, parents, the committable age of
// the commitment it names, and for a transaction its slots and commitment input. Paths are from the block.

function checkParents(list: readonly Uint8Array[], path: string): void {
  for (let i = 1; i < list.length; i++) {
    if (compareBytes(list[i - 1]!, list[i]!) >= 0)
      fail('PARENTS_NOT_SORTED', 'not in ascending order, each once', `${path}[${i}]`);
  }
}

/**
 * Every syntactic rule of a block, its transaction's included (`validateSignedTransaction`, paths under
 * `body.payload`). @throws ValidationError, CodecError (a malformed model)
 */
export function validateBlock(params: ProtocolParameters, block: Block): void {
  assertModel(block, 'Block');
  const size = encode(blockCodec, block).length;
  if (size > MAX_BLOCK_SIZE) fail('BLOCK_TOO_LONG', `${size} bytes, at most ${MAX_BLOCK_SIZE}`, '');
  const { header, body } = block;
  if (header.protocolVersion !== params.version) {
    fail('PROTOCOL_VERSION_MISMATCH', `expected ${params.version}`, 'header.protocolVersion');
  }
  const network = networkIdFromName(params.networkName);
  if (header.networkId !== network) fail('NETWORK_ID_MISMATCH', `expected ${network}`, 'header.networkId');
  checkParents(body.strongParents, 'body.strongParents');
  checkParents(body.weakParents, 'body.weakParents');
  checkParents(body.shallowLikeParents, 'body.shallowLikeParents');
  const others = new Set([...body.strongParents, ...body.shallowLikeParents].map((p) => bytesKey(p)));
  body.weakParents.forEach((p, i) => {
    if (others.has(bytesKey(p)))
      fail('PARENTS_OVERLAP', 'a weak parent is also a strong or shallow like parent', `body.weakParents[${i}]`);
  });
  const slot = slotFromTime(params, header.issuingTime);
  const committed = slotOfCommitmentId(header.slotCommitmentId);
  // A commitment to genesis is never too recent.
  if (committed > params.genesisSlot && slot < committed + params.minCommittableAge) {
    fail('COMMITMENT_TOO_RECENT', `slot ${slot} cannot commit to slot ${committed}`, 'header.slotCommitmentId');
  }
  if (slot > committed + params.maxCommittableAge) {
    fail('COMMITMENT_TOO_OLD', `slot ${slot} cannot commit to slot ${committed}`, 'header.slotCommitmentId');
  }
  if (body.type === BlockBodyType.Validation) {
    if (body.highestSupportedVersion < header.protocolVersion) {
      fail('HIGHEST_VERSION_TOO_LOW', "below the block's own version", 'body.highestSupportedVersion');
    }
    return;
  }
  if (body.payload?.type !== PayloadType.SignedTransaction) return;
  const tx = body.payload.transaction;
  if (slot < tx.creationSlot) {
    fail(
      'CREATION_SLOT_AFTER_BLOCK',
      `created in slot ${tx.creationSlot}, after the block's ${slot}`,
      'body.payload.transaction.creationSlot',
    );
  }
  const input = tx.contextInputs.findIndex((c) => c.type === ContextInputType.Commitment);
  if (input >= 0) {
    const at = `body.payload.transaction.contextInputs[${input}].commitmentId`;
    const inputSlot = slotOfCommitmentId((tx.contextInputs[input] as { commitmentId: Uint8Array }).commitmentId);
    if (inputSlot > 0 && slot < inputSlot + params.minCommittableAge)
      fail('COMMITMENT_TOO_RECENT', `slot ${slot} cannot use slot ${inputSlot}`, at);
    if (slot > inputSlot + params.maxCommittableAge)
      fail('COMMITMENT_TOO_OLD', `slot ${slot} cannot use slot ${inputSlot}`, at);
    if (inputSlot > committed) fail('COMMITMENT_TOO_RECENT', `the block commits to slot ${committed} only`, at);
  }
  try {
    validateSignedTransaction(params, body.payload);
  } catch (e) {
    if (e instanceof ValidationError) e.prefix('body.payload');
    throw e;
  }
}
