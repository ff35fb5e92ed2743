// The byte layouts the ledger reads in place (stardust/payload/transaction.ts `transactionLayout`, stardust/block.ts,
// the explorer page's stardust/block-layout.ts, stardust/ids.ts `outputIndexOf`, and the output, transaction and slot
// diff records of stardust/ledger-records.ts) against the codec and the vectors' own bytes, on every transaction
// block of the vectors: a layout that drifted from its declaration would slice the wrong bytes here.
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../src/codec/index.js';
import { decodeBlock, outputId, parseOutputId, toHex, transactionId } from '../../src/index.js';
import { payloadBytes, transactionPayloadBytes } from '../../src/stardust/block.js';
import { outputAmountOf, payloadOf } from '../../src/stardust/block-layout.js';
import { transactionEssence } from '../../src/stardust/essence.js';
import { outputIndexOf } from '../../src/stardust/ids.js';
import {
  OUTPUT_RECORD_HEADER,
  outputRecord,
  setSpentSlot,
  slotDiff,
  slotDiffLayout,
  spentSlotOf,
  transactionRecord,
  transactionRecordSlot,
  UNSPENT,
  writeOutputRecord,
} from '../../src/stardust/ledger-records.js';
import { output as outputCodec } from '../../src/stardust/output.js';
import {
  type TransactionPayload,
  transactionLayout,
  transactionPayload,
} from '../../src/stardust/payload/transaction.js';
import { hex, loadVectors } from '../helpers/vectors.js';

interface Source {
  name: string;
  bytes: string;
  /** The vector's own encodings of the payload and the essence, where it gives them. */
  payloadBytes?: string;
  essenceBytes?: string;
}

const blocks: Source[] = [
  ...loadVectors('stardust/blocks.json').vectors.map((v: any) => ({
    name: `blocks.json ${v.name}`,
    bytes: v.bytes,
    payloadBytes: v.transaction?.payloadBytes,
    essenceBytes: v.transaction?.essenceBytes,
  })),
  ...loadVectors('stardust/chronicle-shimmer-block-corpus.json').blocks.map((v: any) => ({
    name: `chronicle ${v.id}`,
    bytes: v.bytes,
  })),
  ...loadVectors('stardust/full-types.json').blocks.map((v: any) => ({ name: `full-types ${v.name}`, bytes: v.bytes })),
];
const transactionBlocks = blocks.filter((b) => decodeBlock(hex(b.bytes)).payload?.type === 6);

describe('transactionLayout agrees with the codec on every transaction block of the vectors', () => {
  it('checks every transaction block of the vectors: 24 of blocks.json, 18 of the chronicle corpus', () => {
    // Counted from the vectors' own annotations (blocks.json's JSON payload type, the corpus's payloadType field);
    // full-types.json's three blocks are two milestones and a tagged-data block.
    expect(transactionBlocks.length).toBe(24 + 18);
  });

  for (const v of transactionBlocks) {
    it(v.name, () => {
      const bytes = hex(v.bytes);
      const tx = decodeBlock(bytes).payload as TransactionPayload;
      const payload = payloadBytes(bytes)!;
      expect(transactionPayloadBytes(bytes)).toEqual(payload);
      expect(payloadOf(bytes)).toEqual(payload);
      expect(toHex(payload)).toBe(v.payloadBytes ?? toHex(encode(transactionPayload, tx)));
      const layout = transactionLayout(tx);
      const essence = payload.subarray(layout.essence.start, layout.essence.end);
      expect(toHex(essence)).toBe(v.essenceBytes ?? toHex(encode(transactionEssence, tx.essence)));
      tx.essence.inputs.forEach((input, i) => {
        const at = layout.consumedIdsAt[i]!;
        const id = payload.subarray(at, at + 34);
        expect(toHex(id)).toBe(toHex(outputId(input.transactionId, input.transactionOutputIndex)));
        expect(outputIndexOf(id)).toBe(parseOutputId(id).transactionOutputIndex);
      });
      expect(layout.outputsAt).toHaveLength(tx.essence.outputs.length + 1);
      tx.essence.outputs.forEach((o, i) => {
        const slice = payload.subarray(layout.outputsAt[i]!, layout.outputsAt[i + 1]!);
        expect(toHex(slice)).toBe(toHex(encode(outputCodec, o)));
        expect(outputAmountOf(slice)).toBe(o.amount);
      });
    });
  }
});

describe('the ledger records read in place agree with their declarations', () => {
  const outputs = transactionBlocks.flatMap(
    (v) => (decodeBlock(hex(v.bytes)).payload as TransactionPayload).essence.outputs,
  );

  it('output records: written, respent and read in place as the codec encodes and decodes them', () => {
    expect(outputs.length).toBeGreaterThan(100);
    outputs.forEach((output, n) => {
      const bytes = encode(outputCodec, output);
      const createdSlot = 1 + n * 7919;
      const written = new Uint8Array(OUTPUT_RECORD_HEADER + bytes.length + 3).fill(0xee);
      writeOutputRecord(written, 3, createdSlot, bytes);
      const record = written.subarray(3);
      expect(toHex(record)).toBe(toHex(encode(outputRecord, { createdSlot, spentSlot: UNSPENT, checksum: 0, output })));
      expect(spentSlotOf(record)).toBe(UNSPENT);
      const spentSlot = createdSlot + 0x01020304;
      setSpentSlot(written, 3, spentSlot);
      expect(decode(outputRecord, record)).toEqual({ createdSlot, spentSlot, checksum: 0, output });
      expect(spentSlotOf(record)).toBe(spentSlot);
      expect(toHex(record.subarray(OUTPUT_RECORD_HEADER))).toBe(toHex(bytes));
    });
  });

  it('transaction records: the slot read in place is the decoded one; another size is not read', () => {
    for (const v of transactionBlocks) {
      const bytes = hex(v.bytes);
      const slot = transactionId(decodeBlock(bytes).payload as TransactionPayload)[0]! * 0x01010101;
      const record = encode(transactionRecord, { blockId: bytes.subarray(2, 34), slot, storedOutputs: 3 });
      expect(transactionRecordSlot(record)).toBe(decode(transactionRecord, record).slot);
      expect(transactionRecordSlot(record.subarray(1))).toBeUndefined();
    }
  });

  it('slot diffs: the lists found in place are the decoded ones, and a cut record is not read', () => {
    const ids = transactionBlocks.flatMap((v) => {
      const tx = decodeBlock(hex(v.bytes)).payload as TransactionPayload;
      return tx.essence.outputs.map((_, i) => outputId(transactionId(tx), i));
    });
    // Lists of different lengths, so that a layout that swapped or skipped a list would land elsewhere.
    const diff = {
      created: ids.slice(0, 40),
      consumed: ids.slice(40, 47),
      consumedSlots: [3, 1, 4, 1, 5, 9, 2],
    };
    const record = encode(slotDiff, diff);
    const layout = slotDiffLayout(record)!;
    expect(layout.end).toBe(record.length);
    const [created, consumed, slots] = layout.lists;
    const slice = (l: { at: number; count: number }, size: number) =>
      Array.from({ length: l.count }, (_, i) => toHex(record.subarray(l.at + size * i, l.at + size * (i + 1))));
    expect(slice(created!, 34)).toEqual(diff.created.map(toHex));
    expect(slice(consumed!, 34)).toEqual(diff.consumed.map(toHex));
    const view = new DataView(record.buffer, record.byteOffset);
    expect(Array.from({ length: slots!.count }, (_, i) => view.getUint32(slots!.at + 4 * i, true))).toEqual(
      diff.consumedSlots,
    );
    expect(slotDiffLayout(record.subarray(0, record.length - 1))).toBeUndefined();
    expect(slotDiffLayout(record.subarray(0, 3))).toBeUndefined();
    expect(slotDiffLayout(new Uint8Array([...record, 0xaa]))!.end).toBe(record.length);
  });
});
