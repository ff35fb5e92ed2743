// The checks a stored record passes before it is served (src/ledger/common/integrity.ts), one rule at a time, each against a
// record built here by hand: the rule that refuses it and nothing else (the damage tests flip bits in whole stores;
// here every boundary is tried).
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import { blake2b256 } from '../../../src/index.js';
import { checkUtxoChanges, encodeDiff, readDiff } from '../../../src/ledger/common/integrity.js';
import { slotDiff } from '../../../src/stardust/ledger-records.js';
import { concatBytes } from '../../../src/util/bytes.js';
import { errorCode } from '../../helpers/failure.js';

/** A read diff with its ID lists as arrays, as a SlotDiff is written. */
const unpacked = (d: ReturnType<typeof readDiff>) => ({
  created: d.created.toArray(),
  consumed: d.consumed.toArray(),
  consumedSlots: d.consumedSlots,
});

const id = (first: number, index = 0) => Uint8Array.of(first, ...new Uint8Array(31).fill(9), index, 0);

describe('checkUtxoChanges: each rule at its boundary', () => {
  const ok = (created: Uint8Array[], consumed: Uint8Array[], slots: number[], slot = 10, genesis = 2) =>
    errorCode(() => checkUtxoChanges(concatBytes(created), concatBytes(consumed), slots, slot, genesis, 'x'));
  it('IDs of 34 bytes', () => {
    expect(ok([id(1)], [], [])).toBe('accepted');
    expect(ok([id(1).subarray(0, 33)], [], [])).toBe('STORE_CORRUPT');
    expect(ok([], [concatBytes([id(1), Uint8Array.of(0)])], [5])).toBe('STORE_CORRUPT');
  });
  it('an output index of 127 at most (u16 little-endian)', () => {
    expect(ok([id(1, 127)], [], [])).toBe('accepted');
    expect(ok([id(1, 128)], [], [])).toBe('STORE_CORRUPT');
    const high = id(1);
    high[33] = 1; // index 256
    expect(ok([], [high], [5])).toBe('STORE_CORRUPT');
  });
  it('each list strictly ascending', () => {
    expect(ok([id(1), id(2)], [id(1), id(3)], [5, 5])).toBe('accepted');
    expect(ok([id(2), id(1)], [], [])).toBe('STORE_CORRUPT');
    expect(ok([id(1), id(1)], [], [])).toBe('STORE_CORRUPT');
    expect(ok([], [id(3), id(1)], [5, 5])).toBe('STORE_CORRUPT');
  });
  it('a creating slot per consumed output, from genesis to the slot itself', () => {
    expect(ok([], [id(1)], [])).toBe('STORE_CORRUPT');
    expect(ok([], [id(1)], [5, 5])).toBe('STORE_CORRUPT');
    expect(ok([], [id(1)], [10])).toBe('accepted');
    expect(ok([], [id(1)], [2])).toBe('accepted');
    expect(ok([], [id(1)], [11])).toBe('STORE_CORRUPT');
    expect(ok([], [id(1)], [1])).toBe('STORE_CORRUPT');
  });
});

/** CRC-32 (IEEE, reflected, as zip and PNG), bit by bit: the second implementation of the record's checksum. */
function referenceCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('readDiff: the record, with its checksum, or from an older store with a digest or without either', () => {
  const diff = { created: [id(1), id(2, 1)], consumed: [id(3)], consumedSlots: [4] };
  it('the three forms read back; the checksum is the CRC-32 of the rest, little-endian', () => {
    expect(referenceCrc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926); // the standard check value
    const plain = encode(slotDiff, diff);
    const record = encodeDiff(diff);
    expect(record.length).toBe(plain.length + 4);
    expect(record.subarray(0, plain.length)).toEqual(plain);
    expect(new DataView(record.buffer).getUint32(plain.length, true)).toBe(referenceCrc32(plain));
    expect(unpacked(readDiff(record, 10, 2))).toEqual(diff);
    expect(unpacked(readDiff(plain, 10, 2))).toEqual(diff);
    // A store written by 0.1 before the checksum: the first 8 bytes of BLAKE2b-256.
    const legacy = concatBytes([plain, blake2b256(plain).subarray(0, 8)]);
    expect(unpacked(readDiff(legacy, 10, 2))).toEqual(diff);
    for (let at = plain.length; at < legacy.length; at++) {
      const bad = legacy.slice();
      bad[at]! ^= 1;
      expect(
        errorCode(() => readDiff(bad, 10, 2)),
        `legacy byte ${at}`,
      ).toBe('STORE_CORRUPT');
    }
    const empty = { created: [], consumed: [], consumedSlots: [] };
    expect(unpacked(readDiff(encode(slotDiff, empty), 10, 2))).toEqual(empty); // 12 bytes: three zero counts
    expect(unpacked(readDiff(encodeDiff(empty), 10, 2))).toEqual(empty);
  });
  it('STORE_CORRUPT: every byte of the checksum and of an ID, a length between the forms, counts past the end, a rule broken', () => {
    const record = encodeDiff(diff);
    for (let at = 4; at < record.length; at++) {
      const bad = record.slice();
      bad[at]! ^= 1;
      expect(
        errorCode(() => readDiff(bad, 10, 2)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
    }
    for (const n of [1, 2, 3, 4, 5, 9])
      expect(
        errorCode(() => readDiff(concatBytes([record, new Uint8Array(n)]), 10, 2)),
        `+${n}`,
      ).toBe('STORE_CORRUPT');
    expect(errorCode(() => readDiff(record.subarray(0, 11), 10, 2))).toBe('STORE_CORRUPT'); // the third count cut
    expect(errorCode(() => readDiff(new Uint8Array(3), 10, 2))).toBe('STORE_CORRUPT');
    const counts = record.slice();
    counts[0] = 3; // three created outputs announced, two there
    expect(errorCode(() => readDiff(counts, 10, 2))).toBe('STORE_CORRUPT');
    expect(errorCode(() => readDiff(encodeDiff({ ...diff, consumedSlots: [11] }), 10, 2))).toBe('STORE_CORRUPT');
  });
});
