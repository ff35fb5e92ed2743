import { blockMetadata, outputMetadata } from '../answers/index.js';
import { decode, toHex } from '../codec/index.js';
import { type LedgerOutput, type LedgerReader, milestoneIdOf, slotEnd, slotMilestone } from '../ledger/index.js';
import { decodeOutput, decodeTransactionPayload, encodeMilestonePayload, outputToJson } from '../serialize.js';
import type { Address } from '../stardust/address.js';
import { addressToBech32 } from '../stardust/address-bech32.js';
import { payloadBytes, typeOfPayload } from '../stardust/block.js';
import { outputChainId, transactionId } from '../stardust/ids.js';
import { InclusionState } from '../stardust/ledger-records.js';
import { MAX_PARENTS } from '../stardust/limits.js';
import type { Output } from '../stardust/output.js';
import { taggedDataPayload } from '../stardust/payload/tagged-data.js';
import { OutputType, PayloadType, UnlockConditionType } from '../stardust/type-codes.js';
import type { ConditionName } from './topics.js';

// What a committed slot publishes on TIP-28's topics. Each message is what the matching REST route answers for the
// same id once the slot is the latest (block bytes as `/blocks/{id}` in binary, metadata as `/blocks/{id}/metadata`,
// an output as `/outputs/{id}`), built by the same functions the routes use. A slot's messages come in this order:
// its blocks (ID order) with their sub-topics, the slot's "milestone", each block's metadata and included
// transaction, the outputs it created, those it spent, and last the milestone info, so that a client told of
// milestone S finds everything of S on the REST routes.

export interface EventMessage {
  topic: string;
  payload: Uint8Array;
}

/** Blocks a slot may hold, read at once (a slot holds what its commit took: far fewer). */
const MAX_BLOCKS_READ = 1_000_000;

const text = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/**
 * hornet's milestone info (as `/info` has it in `status.latestMilestone`): a real milestone's index, time and ID
 * (applied, or of the snapshots imported), else the committed slot's.
 */
export async function milestoneInfo(reader: LedgerReader, slot: number, commitmentId: Uint8Array): Promise<Uint8Array> {
  const real = await reader.milestone?.(slot);
  const info = {
    index: slot,
    timestamp: real?.timestamp ?? slotEnd(reader.params, slot),
    milestoneId: toHex(real?.milestoneId ?? milestoneIdOf(commitmentId)),
  };
  return text(JSON.stringify(info));
}

/** `/outputs/{id}`'s body for `o` with ledger index `slot` (a created output's message leaves out a later spend). */
export function outputBody(reader: LedgerReader, o: LedgerOutput, slot: number, output?: Output): Uint8Array {
  const metadata = outputMetadata(reader.params, { ...o, ledgerIndex: slot });
  return text(JSON.stringify({ metadata, output: outputToJson(output ?? decodeOutput(o.output)) }));
}

/** The messages of committed `slot`, in the order above; none for a slot not (or no longer) stored. */
export async function slotEvents(reader: LedgerReader, slot: number): Promise<EventMessage[]> {
  const c = await reader.commitmentOf(slot);
  if (c === undefined) return [];
  const out: EventMessage[] = [];
  const later: EventMessage[] = [];
  for (const id of await reader.blockIdsOfSlot(slot, MAX_BLOCKS_READ)) {
    const b = await reader.block(id);
    out.push({ topic: 'blocks', payload: b.bytes });
    const metadata = text(JSON.stringify(blockMetadata(b)));
    later.push({ topic: `block-metadata/${toHex(id)}`, payload: metadata });
    later.push({ topic: 'block-metadata/referenced', payload: metadata });
    // Only a payload's topics need more than its type, and only its own bytes are decoded for them (a transaction's
    // tagged data lies past its outputs; its ID is the hash of its bytes).
    const payload = payloadBytes(b.bytes);
    const type = payload && typeOfPayload(payload);
    // A conflicting transaction (white flag kept its block, did not apply it) is no included transaction.
    const applied = b.whiteFlag === undefined || b.whiteFlag.inclusion === InclusionState.Included;
    if (payload !== undefined && type === PayloadType.Transaction) {
      out.push({ topic: 'blocks/transaction', payload: b.bytes });
      const inner = decodeTransactionPayload(payload).essence.payload;
      if (inner !== undefined) {
        out.push({ topic: 'blocks/transaction/tagged-data', payload: b.bytes });
        if (inner.tag.length > 0)
          out.push({ topic: `blocks/transaction/tagged-data/${toHex(inner.tag)}`, payload: b.bytes });
      }
      if (applied)
        later.push({ topic: `transactions/${toHex(transactionId(payload))}/included-block`, payload: b.bytes });
    } else if (payload !== undefined && type === PayloadType.TaggedData) {
      out.push({ topic: 'blocks/tagged-data', payload: b.bytes });
      const { tag } = decode(taggedDataPayload, payload);
      if (tag.length > 0) out.push({ topic: `blocks/tagged-data/${toHex(tag)}`, payload: b.bytes });
    }
  }
  // A real milestone as the network issued it; else the payload that stands for the committed slot.
  const real = (await reader.milestone?.(slot))?.payload;
  const milestone =
    real ?? encodeMilestonePayload(slotMilestone(reader.params, c, await reader.blockIdsOfSlot(slot, MAX_PARENTS)));
  out.push({ topic: 'milestones', payload: milestone });
  out.push(...later);

  const changes = await reader.utxoChanges(slot);
  for (const id of changes.createdOutputs) {
    const o = await reader.outputWithMetadata(id);
    const output = decodeOutput(o.output);
    const { spent: _, ...created } = o;
    const body = outputBody(reader, created, slot, output);
    out.push({ topic: `outputs/${toHex(id)}`, payload: body });
    const chain = chainTopic(output, id);
    if (chain !== undefined) out.push({ topic: chain, payload: body });
    for (const topic of unlockTopics(output, reader.params.bech32Hrp)) out.push({ topic, payload: body });
  }
  for (const id of changes.consumedOutputs) {
    const o = await reader.outputWithMetadata(id);
    const output = decodeOutput(o.output);
    const body = outputBody(reader, o, slot, output);
    out.push({ topic: `outputs/${toHex(id)}`, payload: body });
    for (const topic of unlockTopics(output, reader.params.bech32Hrp))
      out.push({ topic: `${topic}/spent`, payload: body });
  }
  const info = await milestoneInfo(reader, slot, c.commitmentId);
  out.push({ topic: 'milestone-info/latest', payload: info }, { topic: 'milestone-info/confirmed', payload: info });
  return out;
}

/** `outputs/alias|nft|foundry/{id}` of a chain output (an alias or NFT created with id zero: the id it gets). */
export function chainTopic(output: Output, outputId: Uint8Array): string | undefined {
  const id = outputChainId(output, outputId);
  if (id === undefined) return undefined;
  const kind = output.type === OutputType.Alias ? 'alias' : output.type === OutputType.Nft ? 'nft' : 'foundry';
  return `outputs/${kind}/${toHex(id)}`;
}

const CONDITION_NAMES: Partial<Record<number, ConditionName>> = {
  [UnlockConditionType.Address]: 'address',
  [UnlockConditionType.StorageDepositReturn]: 'storage-return',
  [UnlockConditionType.Expiration]: 'expiration',
  [UnlockConditionType.StateControllerAddress]: 'state-controller',
  [UnlockConditionType.GovernorAddress]: 'governor',
  [UnlockConditionType.ImmutableAliasAddress]: 'immutable-alias',
};

/** `outputs/unlock/{condition}/{address}` for each unlock condition of `output` that names an address. */
export function unlockTopics(output: Output, hrp: string): string[] {
  const topics: string[] = [];
  for (const uc of output.unlockConditions) {
    const name = CONDITION_NAMES[uc.type];
    if (name === undefined) continue;
    const address: Address = 'returnAddress' in uc ? uc.returnAddress : (uc as { address: Address }).address;
    topics.push(`outputs/unlock/${name}/${addressToBech32(address, hrp)}`);
  }
  return topics;
}
