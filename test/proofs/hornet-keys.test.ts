// A hornet config's milestone keys (proofs/keys.ts) beyond the two real configs vectors.test.ts reads: the `protocol`
// section alone reads as the whole file, a key in any case and with or without 0x is the same key, an end equal to
// its start means no end (hornet's key manager), and each way a config can be wrong is a typed error at its field.
// The expected answers are read from the config itself (vectors/poi/hornet-config_shimmer.json) or written by hand.
import { describe, expect, it } from 'vitest';
import { toHex } from '../../src/codec/hex.js';
import { milestoneKeysFromHornetConfig } from '../../src/proofs/keys.js';
import { loadVectors } from '../helpers/vectors.js';

const KEY = 'a507d2a592a5f0424ed8530603c08acebe088ae26211e90b79bfec0970a2397f'; // Shimmer's first, from the config
const config = (protocol: Record<string, unknown>) => ({ protocol: { milestonePublicKeyCount: 1, ...protocol } });
const range = (r: Record<string, unknown>) => config({ publicKeyRanges: [{ key: KEY, start: 0, end: 0, ...r }] });
const refusal = (json: unknown) => {
  try {
    milestoneKeysFromHornetConfig(json);
  } catch (e) {
    const { name, code, path } = e as { name: string; code: string; path: string };
    return `${name} ${code} ${path}`;
  }
  return 'accepted';
};

describe("a hornet config's milestone keys", () => {
  it('its protocol section alone reads as the whole config, every key as the file has it', () => {
    const shimmer = loadVectors('poi/hornet-config_shimmer.json');
    const keys = milestoneKeysFromHornetConfig(shimmer.protocol);
    expect(keys).toEqual(milestoneKeysFromHornetConfig(shimmer));
    expect(keys.threshold).toBe(shimmer.protocol.milestonePublicKeyCount);
    expect(keys.keyRanges.map((r) => [toHex(r.publicKey), r.startIndex, r.endIndex])).toEqual(
      shimmer.protocol.publicKeyRanges.map((r: { key: string; start: number; end: number }) => [
        `0x${r.key}`,
        r.start,
        r.end,
      ]),
    );
  });

  it('a key with 0x or in capitals is the same key; an end equal to its start is no end, another end is kept', () => {
    const read = (r: Record<string, unknown>) => {
      const [only] = milestoneKeysFromHornetConfig(range(r)).keyRanges;
      return [toHex(only!.publicKey), only!.startIndex, only!.endIndex];
    };
    expect(read({ key: `0x${KEY.toUpperCase()}`, start: 5, end: 5 })).toEqual([`0x${KEY}`, 5, 0]);
    expect(read({ start: 5, end: 9 })).toEqual([`0x${KEY}`, 5, 9]);
    expect(read({ start: 0, end: 0xffffffff })).toEqual([`0x${KEY}`, 0, 0xffffffff]);
    expect(milestoneKeysFromHornetConfig(config({ publicKeyRanges: [] }))).toEqual({ threshold: 1, keyRanges: [] });
  });

  it('each way it can be wrong: a typed error at its field', () => {
    const bad: [unknown, string][] = [
      [null, 'CodecError INVALID_VALUE '],
      ['config', 'CodecError INVALID_VALUE '],
      [{ protocol: null }, 'CodecError INVALID_VALUE '],
      [
        config({ milestonePublicKeyCount: 0, publicKeyRanges: [] }),
        'CodecError INVALID_VALUE protocol.milestonePublicKeyCount',
      ],
      [
        config({ milestonePublicKeyCount: 1.5, publicKeyRanges: [] }),
        'CodecError INVALID_VALUE protocol.milestonePublicKeyCount',
      ],
      [
        config({ milestonePublicKeyCount: '7', publicKeyRanges: [] }),
        'CodecError INVALID_VALUE protocol.milestonePublicKeyCount',
      ],
      [{ milestonePublicKeyCount: 0 }, 'CodecError INVALID_VALUE milestonePublicKeyCount'],
      [config({}), 'CodecError MISSING_FIELD protocol.publicKeyRanges'],
      [{ milestonePublicKeyCount: 1, publicKeyRanges: {} }, 'CodecError MISSING_FIELD publicKeyRanges'],
      [config({ publicKeyRanges: [null] }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ key: 7 }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ key: [KEY] }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'], // its String() is the key
      [range({ key: KEY.slice(2) }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ key: `${KEY}00` }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ key: `x${KEY}` }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ key: `${KEY.slice(1)}g` }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].key'],
      [range({ start: -1 }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].start'],
      [range({ start: 0.5 }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].start'],
      [range({ start: '0' }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].start'],
      [range({ end: 0x100000000 }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].end'],
      [range({ end: undefined }), 'CodecError INVALID_VALUE protocol.publicKeyRanges[0].end'],
    ];
    for (const [json, expected] of bad) expect(refusal(json), JSON.stringify(json)).toBe(expected);
    // The second range's index names it.
    const second = config({
      publicKeyRanges: [
        { key: KEY, start: 0, end: 0 },
        { key: KEY, start: 1 },
      ],
    });
    expect(refusal(second)).toBe('CodecError INVALID_VALUE protocol.publicKeyRanges[1].end');
    expect(refusal(range({ start: 0xffffffff, end: 0xffffffff }))).toBe('accepted');
  });
});
