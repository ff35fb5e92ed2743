import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CodecError, toHex } from '../codec/index.js';
import * as nova from '../nova/index.js';
import { blockToJson, decodeBlock } from '../serialize.js';
import { protocolVersionOf } from '../stardust/block.js';
import { blockId, milestoneId, transactionId } from '../stardust/ids.js';
import { PayloadType } from '../stardust/type-codes.js';
import { argOrStdin, UsageError } from './io.js';

export const DECODE_USAGE = `tangle-core decode HEX|- [--ids] [--protocol stardust|nova] [--parameters FILE]
  Prints the canonical JSON (TIP-25) of a block given as hex (0x optional; - reads standard input).
  The output is what \`encode\` reads, so \`decode … | encode -\` gives the bytes back.
  --ids         print { blockId, transactionId or milestoneId, block } instead (encode reads that form too)
  --protocol    stardust (default) or nova: an IOTA 2.0 block (protocol version 3, TIP-46)
  --parameters  nova: the network's protocol parameters as JSON (TIP-49, e.g. /api/core/v3/info's
                protocolParameters[].parameters); --ids needs them, a block's id carries its slot
`;

export type Protocol = 'stardust' | 'nova';

/** `--protocol`: which wire format the block is in. */
export function protocolOf(value: string | undefined): Protocol {
  if (value === undefined || value === 'stardust' || value === 'nova') return value ?? 'stardust';
  throw new UsageError(`--protocol is stardust or nova, got ${JSON.stringify(value.slice(0, 20))}`);
}

/** Nova protocol parameters from a JSON file: the parameters themselves, or an object holding them as `params`. */
export function novaParametersFrom(file: string): nova.ProtocolParameters {
  const json = JSON.parse(readFileSync(file, 'utf8')) as { params?: unknown; parameters?: unknown };
  return nova.protocolParameters.fromJson(json.params ?? json.parameters ?? json);
}

function hexInput(input: string | undefined): Uint8Array {
  const text = argOrStdin(input).trim();
  if (!/^(0x)?[0-9a-fA-F]*$/.test(text) || text.replace(/^0x/, '').length % 2 !== 0) {
    throw new CodecError('INVALID_VALUE', 'expected the block as hex (an even number of hex digits, 0x optional)');
  }
  return Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));
}

function decodeNova(bytes: Uint8Array, withIds: boolean, parametersFile: string | undefined): string {
  const block = nova.decodeBlock(bytes);
  const json = nova.blockToJson(block);
  if (!withIds) return JSON.stringify(json, null, 2);
  if (parametersFile === undefined) {
    throw new UsageError("--ids with --protocol nova needs --parameters FILE (a block id carries the block's slot)");
  }
  const out: Record<string, unknown> = { blockId: toHex(nova.blockId(novaParametersFrom(parametersFile), bytes)) };
  const payload = block.body.type === nova.BlockBodyType.Basic ? block.body.payload : undefined;
  if (payload?.type === nova.PayloadType.SignedTransaction)
    out.transactionId = toHex(nova.transactionId(payload.transaction));
  out.block = json;
  return JSON.stringify(out, null, 2);
}

/** `decode HEX|- [--ids] [--protocol P] [--parameters FILE]`: a block's canonical JSON, with --ids its ids too. */
export function decodeCommand(args: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ids: { type: 'boolean' }, protocol: { type: 'string' }, parameters: { type: 'string' } },
  });
  if (positionals.length > 1)
    throw new UsageError(`decode takes one block, got ${positionals.length} arguments (a block is one hex string)`);
  const bytes = hexInput(positionals[0]);
  const withIds = values.ids === true;
  const protocol = protocolOf(values.protocol);
  // A block's first byte is its protocol version: Stardust's is 2, IOTA 2.0's 3. The other's block is not decoded
  // as this one's, whatever its bytes would happen to make.
  const version = protocolVersionOf(bytes);
  const expected = protocol === 'nova' ? 3 : 2;
  if (version !== undefined && version !== expected)
    throw new CodecError(
      'INVALID_VALUE',
      `protocol version ${version} is not ${protocol === 'nova' ? "IOTA 2.0's (3)" : "Stardust's (2)"}` +
        (version === 3 ? ': an IOTA 2.0 block, decode it with --protocol nova' : '') +
        (version === 2 ? ': a Stardust block, decode it without --protocol nova' : ''),
      { path: 'protocolVersion', offset: 0 },
    );
  if (protocol === 'nova') return decodeNova(bytes, withIds, values.parameters);
  const block = decodeBlock(bytes);
  const json = blockToJson(block);
  if (!withIds) return JSON.stringify(json, null, 2);
  const out: Record<string, unknown> = { blockId: toHex(blockId(bytes)) };
  if (block.payload?.type === PayloadType.Transaction) out.transactionId = toHex(transactionId(block.payload));
  if (block.payload?.type === PayloadType.Milestone) out.milestoneId = toHex(milestoneId(block.payload));
  out.block = json;
  return JSON.stringify(out, null, 2);
}
