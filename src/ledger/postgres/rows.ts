import { decode } from '../../codec/index.js';
import { equalBytes } from '../../util/bytes.js';
import { commitmentId, corrupt, type SlotCommitment, slotCommitment } from '../common/index.js';
import { bytesOf } from './client.js';

// Reading the database's rows back (postgres-reader.ts): slots as its integers hold them, lists of u32s, commitments
// checked against their IDs.

/**
 * A slot as the tables' `integer` holds it: a slot past 2^31 − 1 cannot be stored (680 years of 10 s slots), so it
 * is asked as null, which matches nothing, and the answer is that of any slot not yet committed.
 */
export const sqlSlot = (slot: number): number | null => (slot > 0x7fffffff ? null : slot);

/** Creating slots as string_agg(int4send(…)) joins them: u32s, big-endian (null: none). @throws STORE_CORRUPT */
export function bigEndianU32s(joined: unknown, what: string): number[] {
  const bytes = joined === null ? new Uint8Array(0) : bytesOf(joined);
  if (bytes.length % 4 !== 0) throw corrupt(what, `a list of 4-byte items is ${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(4 * i));
}

/**
 * A stored commitment that decodes, is of its slot, and hashes to the ID stored beside it (the ID the chain and the
 * queries go by: a changed byte in either is found). @throws LedgerError STORE_CORRUPT
 */
export function readCommitment(raw: unknown, slot: number, id: unknown): SlotCommitment {
  const what = `the commitment of slot ${slot} in the database`;
  let c: SlotCommitment;
  try {
    c = decode(slotCommitment, bytesOf(raw));
  } catch (e) {
    throw corrupt(what, `does not decode (${(e as Error).message})`);
  }
  if (c.slot !== slot) throw corrupt(what, `it is of slot ${c.slot}`);
  if (!equalBytes(commitmentId(c), bytesOf(id))) throw corrupt(what, 'it does not hash to its commitment ID');
  return c;
}
