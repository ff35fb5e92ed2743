// A block record's bytes (ledger/common/block-record.ts), checked against what is known without it: a real block
// with a transaction (iota-sdk's test block in vectors/stardust/blocks.json, which gives its payload's bytes and its
// transaction ID), the offset TIP-24's layout puts the payload at (version, parent count, 4 parents, payload length:
// 1 + 1 + 4 × 32 + 4 = 134), and a CRC-32 computed here bit by bit (it gives the standard check value,
// CRC-32("123456789") = 0xcbf43926). Records sealed by hand with fields that do not fit their bytes (a writer's bug,
// not damage: their checksums match) are refused. Written for the survivors of a mutation run (stop 64).
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/codec/hex.js';
import {
  blockRecord,
  blockRecordSize,
  checkedBlockRecord,
  storedBlockModel,
  writeBlockRecord,
} from '../../../src/ledger/common/block-record.js';
import { LedgerError } from '../../../src/ledger/common/errors.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import { hex, loadVectors } from '../../helpers/vectors.js';

/** CRC-32 (IEEE, reflected, as zlib's): one bit at a time, no table. */
function crc32Bits(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
const u32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
/** The LedgerError `fn` throws (helpers/failure.ts's, without the whole library to load). */
function ledgerFailure(fn: () => unknown): LedgerError {
  try {
    fn();
  } catch (e) {
    if (e instanceof LedgerError) return e;
    throw e;
  }
  throw new Error('no error');
}
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

const vectors = loadVectors('stardust/blocks.json').vectors;
const named = (name: string) => vectors.find((v: { name: string }) => v.name === name);
const txVector = named('iota-sdk-python-test_block-tx-basic-outputs');
const txBlock = hex(txVector.bytes);
const txPayload = hex(txVector.transaction.payloadBytes);
const txId = hex(txVector.transaction.transactionId);
const taggedBlock = hex(named('iota-sdk-python-test_block-tagged-data').bytes);
const key = keys.block(7, hex(txVector.id));

/** A record sealed by hand: the checksum over key and the rest, then the fields as given. */
function sealedByHand(at: number, length: number, rest: Uint8Array): Uint8Array {
  const body = new Uint8Array(8 + rest.length);
  const view = new DataView(body.buffer);
  view.setUint32(0, at, true);
  view.setUint32(4, length, true);
  body.set(rest, 8);
  const record = new Uint8Array(4 + body.length);
  new DataView(record.buffer).setUint32(0, crc32Bits(concat(key, body)), true);
  record.set(body, 4);
  return record;
}

describe('a block record, byte by byte', () => {
  it('the CRC-32 computed here is the standard one', () => {
    expect(crc32Bits(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('of a block with a transaction: its place, its ID, its bytes, sealed with its key (a block at an offset)', () => {
    expect(txBlock.length).toBe(422);
    expect(toHex(txBlock.subarray(134, 134 + txPayload.length))).toBe(toHex(txPayload)); // the layout's offset
    // The block as a store hands it: a view 3 bytes into a larger buffer; the key packed right before the record.
    const buffer = new Uint8Array(txBlock.length + 10);
    buffer.set(txBlock, 3);
    const block = buffer.subarray(3, 3 + txBlock.length);
    expect(blockRecordSize(422, true)).toBe(12 + 32 + 422);
    expect(blockRecordSize(422, false)).toBe(12 + 422);
    const target = new Uint8Array(2 + key.length + 466 + 5);
    target.set(key, 2);
    const written = writeBlockRecord(target, 2, 2 + key.length, block, txId);
    expect(written).toBe(466);
    const record = target.subarray(2 + key.length, 2 + key.length + 466);
    expect([u32(record, 4), u32(record, 8)]).toEqual([134, 280]);
    expect(toHex(record.subarray(12, 44))).toBe(toHex(txId));
    expect(toHex(record.subarray(44))).toBe(toHex(txBlock));
    expect(u32(record, 0)).toBe(crc32Bits(concat(key, record.subarray(4))));
    expect([...target.subarray(2 + key.length + 466)]).toEqual([0, 0, 0, 0, 0]); // nothing written past it

    const stored = checkedBlockRecord(key, record, txId);
    expect([stored.transactionAt, stored.transactionLength]).toEqual([134, 280]);
    expect(toHex(stored.transactionId!)).toBe(toHex(txId));
    expect(toHex(stored.bytes)).toBe(toHex(txBlock));
    expect(toHex(blockRecord(key, block, txId))).toBe(toHex(record));
  });

  it("of a transaction's block sealed without its ID: no place, no ID; a tagged-data block cannot name one", () => {
    const record = blockRecord(key, txBlock, undefined);
    expect(record.length).toBe(12 + 422);
    expect([u32(record, 4), u32(record, 8)]).toEqual([0, 0]);
    expect(u32(record, 0)).toBe(crc32Bits(concat(key, record.subarray(4))));
    const stored = checkedBlockRecord(key, record);
    expect(stored).toMatchObject({ transactionId: undefined, transactionAt: 0, transactionLength: 0 });
    expect(toHex(stored.bytes)).toBe(toHex(txBlock));
    expect(() => blockRecord(key, taggedBlock, txId)).toThrow(TypeError);
  });

  it('a header alone is a whole record (of no bytes); shorter, it does not match its checksum', () => {
    const empty = blockRecord(key, new Uint8Array(0), undefined);
    expect(empty.length).toBe(12);
    expect(checkedBlockRecord(key, empty).bytes.length).toBe(0);
    // 8 bytes whose first 4 are the checksum of the key and the other 4: cut short all the same.
    const tail = Uint8Array.of(1, 2, 3, 4);
    const sealedShort = new Uint8Array(8);
    new DataView(sealedShort.buffer).setUint32(0, crc32Bits(concat(key, tail)), true);
    sealedShort.set(tail, 4);
    const failure = ledgerFailure(() => checkedBlockRecord(key, sealedShort));
    expect(failure.code).toBe('STORE_CORRUPT');
    expect(failure.message).toContain('its record does not match its checksum');
    // The block is named by the ID in its key.
    expect(failure.message).toContain(`the stored block ${toHex(key.subarray(5))}`);
  });

  it("a checksum that matches with a transaction's place outside the bytes is refused; at their very end, taken", () => {
    const id = new Uint8Array(32).fill(5);
    const body = new Uint8Array(10).fill(7);
    // Transaction at 4, 6 bytes long: it ends where the 10 bytes do.
    const edge = checkedBlockRecord(key, sealedByHand(4, 6, concat(id, body)));
    expect([edge.transactionAt, edge.transactionLength, edge.bytes.length]).toEqual([4, 6, 10]);
    const outside = (at: number, length: number, rest: Uint8Array) => {
      const failure = ledgerFailure(() => checkedBlockRecord(key, sealedByHand(at, length, rest)));
      expect(failure.code).toBe('STORE_CORRUPT');
      expect(failure.message).toContain('its transaction lies outside its bytes');
    };
    outside(5, 6, concat(id, body)); // one byte past the end
    outside(0, 11, concat(id, body));
    outside(0, 1, new Uint8Array(20)); // a transaction named, and no room for its ID
  });

  it('bytes that do not decode are STORE_CORRUPT naming the block; a stored block decodes to its model', () => {
    const blockId = hex(txVector.id);
    expect(ledgerFailure(() => storedBlockModel(Uint8Array.of(2, 1, 0), blockId)).code).toBe('STORE_CORRUPT');
    expect(ledgerFailure(() => storedBlockModel(Uint8Array.of(2), blockId)).message).toContain(
      `the stored block ${toHex(blockId)}: does not decode`,
    );
    expect(storedBlockModel(txBlock, blockId).parents.map(toHex)).toEqual(txVector.json.parents);
  });
});
