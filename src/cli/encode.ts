import { toHex } from '../codec/hex.js';
import { blockFromJson, encodeBlock } from '../serialize.js';
import { argOrStdin } from './io.js';

export const ENCODE_USAGE = `tangle-core encode JSON|-
  Prints the bytes, as 0x hex, of a block given as JSON (TIP-25; - reads standard input). Takes what \`decode\`
  prints, with or without --ids.
`;

/** `encode JSON|-`: the hex bytes of a block given as JSON (or as `decode --ids` prints it). */
export function encodeCommand(input: string | undefined): string {
  const json = JSON.parse(argOrStdin(input)) as unknown;
  // `decode --ids` wraps the block with its ids: take the block (the ids follow from it).
  const block = typeof json === 'object' && json !== null && 'blockId' in json && 'block' in json ? json.block : json;
  return toHex(encodeBlock(blockFromJson(block)));
}
