import { CodecError, fromHex } from '../codec/index.js';
import type { MilestoneKeys } from '../stardust/protocol-parameters.js';

// A network's milestone keys as hornet configures them (config_shimmer.json, config_mainnet.json: the source of the
// presets' keys): `protocol.milestonePublicKeyCount`, the signatures a milestone needs, and
// `protocol.publicKeyRanges`, each key with the first and last milestone it signs (the last its first: no end).

/**
 * The keys of a hornet config (`{ protocol: { milestonePublicKeyCount, publicKeyRanges } }`, or its `protocol`).
 * @throws CodecError MISSING_FIELD, INVALID_VALUE (with the field's path)
 */
export function milestoneKeysFromHornetConfig(json: unknown): MilestoneKeys {
  const root = json as { protocol?: unknown } | null;
  const protocol = (typeof root === 'object' && root !== null && 'protocol' in root ? root.protocol : root) as Record<
    string,
    unknown
  > | null;
  const at = (name: string) => (protocol === root ? name : `protocol.${name}`);
  if (typeof protocol !== 'object' || protocol === null)
    throw new CodecError('INVALID_VALUE', 'expected a hornet config (protocol.publicKeyRanges)');
  const threshold = protocol.milestonePublicKeyCount;
  if (!Number.isInteger(threshold) || (threshold as number) < 1)
    throw new CodecError('INVALID_VALUE', 'expected a count ≥ 1', { path: at('milestonePublicKeyCount') });
  const ranges = protocol.publicKeyRanges;
  if (!Array.isArray(ranges))
    throw new CodecError('MISSING_FIELD', 'expected an array', { path: at('publicKeyRanges') });
  const keyRanges = ranges.map((r: Record<string, unknown> | null, i) => {
    const path = `${at('publicKeyRanges')}[${i}]`;
    const key = r?.key;
    if (typeof key !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(key))
      throw new CodecError('INVALID_VALUE', 'expected a 32-byte public key in hex', { path: `${path}.key` });
    const index = (name: 'start' | 'end') => {
      const v = r?.[name];
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 0xffffffff)
        throw new CodecError('INVALID_VALUE', 'expected a milestone index', { path: `${path}.${name}` });
      return v as number;
    };
    const [startIndex, end] = [index('start'), index('end')];
    // hornet's key manager: a range whose end is its start has no end (inx-chronicle reads it so too).
    const endIndex = end === startIndex ? 0 : end;
    return { publicKey: fromHex(`0x${key.replace(/^0x/, '').toLowerCase()}`), startIndex, endIndex };
  });
  return { threshold: threshold as number, keyRanges };
}
