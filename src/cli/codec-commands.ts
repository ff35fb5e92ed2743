import { toHex } from '../json/hex.js';
import { blockId, transactionId } from '../model/ids.js';
import { blockFromJson, blockToJson, decodeBlock, encodeBlock } from '../serialize.js';
import { CodecError } from '../codec/errors.js';
import { argOrStdin } from './io.js';

/** `decode HEX|-`: canonical JSON of a block, with its block and transaction IDs. */
export function decodeCommand(input: string | undefined): string {
  const text = argOrStdin(input).trim();
  if (!/^(0x)?[0-9a-fA-F]*$/.test(text) || text.replace(/^0x/, '').length % 2 !== 0) {
    throw new CodecError('INVALID_VALUE', 'expected the block as hex (an even number of hex digits, 0x optional)');
  }
  const bytes = Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));
  const block = decodeBlock(bytes);
  const out: Record<string, unknown> = { blockId: toHex(blockId(bytes)) };
  if (block.payload?.type === 6) out.transactionId = toHex(transactionId(block.payload));
  out.block = blockToJson(block);
  return JSON.stringify(out, null, 2);
}

/** `encode JSON|-`: the hex bytes of a block given as JSON. */
export function encodeCommand(input: string | undefined): string {
  return toHex(encodeBlock(blockFromJson(JSON.parse(argOrStdin(input)))));
}
