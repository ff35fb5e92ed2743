import { parseArgs } from 'node:util';
import { toHex } from '../codec/index.js';
import * as nova from '../nova/index.js';
import { blockFromJson, encodeBlock } from '../serialize.js';
import { protocolOf } from './decode.js';
import { argOrStdin } from './io.js';

export const ENCODE_USAGE = `tangle-core encode JSON|- [--protocol stardust|nova]
  Prints the bytes, as 0x hex, of a block given as JSON (TIP-25; - reads standard input). Takes what \`decode\`
  prints, with or without --ids.
  --protocol    stardust (default) or nova: an IOTA 2.0 block (TIP-46)
`;

/** `encode JSON|- [--protocol P]`: the hex bytes of a block given as JSON (or as `decode --ids` prints it). */
export function encodeCommand(args: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { protocol: { type: 'string' } },
  });
  const protocol = protocolOf(values.protocol);
  const json = JSON.parse(argOrStdin(positionals[0])) as unknown;
  // `decode --ids` wraps the block with its ids: take the block (the ids follow from it).
  const block = typeof json === 'object' && json !== null && 'blockId' in json && 'block' in json ? json.block : json;
  return toHex(protocol === 'nova' ? nova.encodeBlock(nova.blockFromJson(block)) : encodeBlock(blockFromJson(block)));
}
