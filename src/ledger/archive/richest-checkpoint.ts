import { bytesKey, compareBytes } from '../../util/bytes.js';
import { checkedRecord, keys, LedgerError, sealRecord } from '../common/index.js';
import { type RichAddress, richestFirst } from './explorer.js';

// The richest addresses at any earlier milestone in bounded time (issue 61). Every RICHEST_EVERY milestones the
// commit keeps the RICHEST_KEPT richest addresses it leaves (a checkpoint, sealed). The richest at milestone N are
// then read from the first checkpoint C at or after N: the addresses whose balance changed between (the owners of
// the updates of milestones N+1..C, fewer than RICHEST_EVERY milestones' worth) at their balance at N (each one seek
// of its account: account-history.ts), and the checkpoint's other addresses as they stand. Every address neither
// changed nor in the checkpoint stands after the checkpoint's last one (the list is a prefix of the richest-first
// order at C), so the answer is exact when at least `top` of what is read stands at or before that last one; where
// it is not (more of the listed changed than were spare), the reader answers as before (every update since undone).

export const RICHEST_EVERY = 100;
/** Twice the most a page asks (http/kit/paging.ts MAX_PAGE): half of them may change before a read comes short. */
export const RICHEST_KEPT = 2000;
const ADDRESS = 33;
const ENTRY = ADDRESS + 8;

/** Whether milestone `index`'s commit keeps a checkpoint. */
export const keepsRichest = (index: number): boolean => index % RICHEST_EVERY === 0;

/**
 * A checkpoint's record: `standing`, the committed richest-first index (read lazily, as far as needed); `moved`, the
 * addresses the milestone changed with their amounts after it (they stand in `standing` at their amounts before).
 */
export function richestCheckpoint(
  index: number,
  standing: Iterable<RichAddress>,
  moved: RichAddress[],
): [Uint8Array, Uint8Array] {
  const skip = new Set(moved.map((m) => bytesKey(m.address)));
  const found = moved.filter((m) => m.balance > 0n);
  let kept = 0;
  for (const r of standing) {
    if (kept >= RICHEST_KEPT) break;
    if (skip.has(bytesKey(r.address))) continue;
    found.push(r);
    kept++;
  }
  found.sort(richestFirst);
  const list = found.slice(0, RICHEST_KEPT);
  const key = keys.richestCheckpoint(index);
  // (Node's crc32 of an empty view whose buffer a DataView has touched is 0, whatever it goes on from: none then.)
  if (list.length === 0) return [key, sealRecord(key, new Uint8Array(0))];
  const body = new Uint8Array(list.length * ENTRY);
  const view = new DataView(body.buffer);
  list.forEach((r, i) => {
    body.set(r.address, i * ENTRY);
    view.setBigUint64(i * ENTRY + ADDRESS, r.balance);
  });
  return [key, sealRecord(key, body)];
}

/** A checkpoint's list (richest first), checked against its key. */
export function checkpointList(key: Uint8Array, sealed: Uint8Array): RichAddress[] {
  const body = checkedRecord(key, sealed, 'richest checkpoint');
  if (body.length % ENTRY !== 0 || body.length > RICHEST_KEPT * ENTRY)
    throw new LedgerError('STORE_CORRUPT', "a richest checkpoint's length is no list of entries");
  const view = new DataView(body.buffer, body.byteOffset, body.length);
  const list: RichAddress[] = [];
  for (let at = 0; at < body.length; at += ENTRY)
    list.push({ address: body.slice(at, at + ADDRESS), balance: view.getBigUint64(at + ADDRESS) });
  return list;
}

/**
 * The `top` richest at N from a checkpoint after it (`list`) and the addresses changed between with their balances
 * at N (`changed`; 0n: none); undefined where what is read cannot tell (the reader undoes every update since).
 */
export function richestFrom(list: RichAddress[], changed: RichAddress[], top: number): RichAddress[] | undefined {
  const moved = new Set(changed.map((c) => bytesKey(c.address)));
  const found = changed.filter((c) => c.balance > 0n);
  for (const r of list) if (!moved.has(bytesKey(r.address))) found.push(r);
  found.sort(richestFirst);
  const last = list[list.length - 1];
  // A list shorter than kept holds every address with a balance: no other one has any.
  if (list.length < RICHEST_KEPT || last === undefined) return found.slice(0, top);
  const sure = found.filter((r) => richestFirst(r, last) <= 0);
  return sure.length >= top ? sure.slice(0, top) : undefined;
}

/**
 * The addresses a span of milestones changed, each once, in byte order: from each milestone's list of the accounts
 * it wrote (accounts-writer.ts: 33 bytes each, checked against its key), one record a milestone. A superset of the
 * owners whose balance changed (an expiration's return address is written too): each is read at its balance at N.
 */
export function changedAddresses(lists: Iterable<[key: Uint8Array, sealed: Uint8Array]>): Uint8Array[] {
  const seen = new Map<string, Uint8Array>();
  for (const [key, sealed] of lists) {
    const list = checkedRecord(key, sealed, 'accounts of a milestone');
    if (list.length % ADDRESS !== 0) throw new LedgerError('STORE_CORRUPT', "a milestone's accounts list is cut");
    for (let at = 0; at < list.length; at += ADDRESS) {
      const a = list.subarray(at, at + ADDRESS);
      const k = bytesKey(a);
      if (!seen.has(k)) seen.set(k, a.slice());
    }
  }
  return [...seen.values()].sort(compareBytes);
}

/** An account state record's amount (its first field: a u64, little-endian), checked, without decoding the rest. */
export function accountAmount(key: Uint8Array, sealed: Uint8Array): bigint {
  const body = checkedRecord(key, sealed, 'account state');
  if (body.length < 8) throw new LedgerError('STORE_CORRUPT', 'an account state is cut');
  return new DataView(body.buffer, body.byteOffset, 8).getBigUint64(0, true);
}
