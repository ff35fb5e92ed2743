import { CodecError } from '../codec/errors.js';
import { toHex } from '../codec/hex.js';
import { blockId, milestoneId, transactionId } from '../model/ids.js';
import { PayloadType } from '../model/type-codes.js';
import { blockToJson, decodeBlock } from '../serialize.js';
import { argOrStdin } from './io.js';

export const DECODE_USAGE = `tangle-core decode HEX|- [--ids]
  Prints the canonical JSON (TIP-25) of a block given as hex (0x optional; - reads standard input).
  The output is what \`encode\` reads, so \`decode … | encode -\` gives the bytes back.
  --ids   print { blockId, transactionId or milestoneId, block } instead (encode reads that form too)
`;

/** `decode HEX|- [--ids]`: the canonical JSON of a block; with --ids, wrapped with its block and transaction IDs. */
export function decodeCommand(input: string | undefined, withIds: boolean): string {
  const text = argOrStdin(input).trim();
  if (!/^(0x)?[0-9a-fA-F]*$/.test(text) || text.replace(/^0x/, '').length % 2 !== 0) {
    throw new CodecError('INVALID_VALUE', 'expected the block as hex (an even number of hex digits, 0x optional)');
  }
  const bytes = Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));
  const block = decodeBlock(bytes);
  const json = blockToJson(block);
  if (!withIds) return JSON.stringify(json, null, 2);
  const out: Record<string, unknown> = { blockId: toHex(blockId(bytes)) };
  if (block.payload?.type === PayloadType.Transaction) out.transactionId = toHex(transactionId(block.payload));
  if (block.payload?.type === PayloadType.Milestone) out.milestoneId = toHex(milestoneId(block.payload));
  out.block = json;
  return JSON.stringify(out, null, 2);
}
