// What the PostgreSQL reader does when a row it looks for is not there but the database says it should be (issue 57's
// deletions found on a read): it asks once more before it calls the row lost, for each statement sees the database as
// it is when it runs, and a standby (or a writer's commit) moves on between two of them. A wallet asking a standby
// for a transaction's included block just after its slot was committed got a 500 so (test/node/wallet.test.ts, once
// in nine runs). Here the database is a script of what each statement sees: the slot committed after the first.
import { describe, expect, it } from 'vitest';
import { includedOnMiss } from '../../../src/ledger/postgres/misses.js';
import { QUERIES } from '../../../src/ledger/postgres/schema.js';

const txId = new Uint8Array(32).fill(7);
const row = { block_id: Buffer.alloc(32, 1), slot: 12, raw: Buffer.alloc(8) };

/** A database whose answers to each query come in turn. */
function database(answers: Record<string, Record<string, unknown>[][]>) {
  const asked: string[] = [];
  const ask = async (text: string) => {
    const name = Object.entries(QUERIES).find(([, q]) => q === text)![0];
    asked.push(name);
    return { rows: answers[name]!.shift() ?? [] };
  };
  return { ask, asked };
}

describe('a row missed by one statement', () => {
  it('that the next statement finds (its slot committed in between) is answered, not called lost', async () => {
    const db = database({ outputsOf: [[{ applied: true, booked: true, created_slot: 12 }]], includedBlock: [[row]] });
    expect(await includedOnMiss(db.ask, txId)).toBe(row);
    expect(db.asked).toEqual(['outputsOf', 'includedBlock']);
  });

  it('that is still not there while its outputs say a milestone applied it: STORE_CORRUPT', async () => {
    const db = database({ outputsOf: [[{ applied: true, booked: true, created_slot: 12 }]], includedBlock: [[]] });
    await expect(includedOnMiss(db.ask, txId)).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });

  it('a transaction booked without a block (genesis, a snapshot), or unknown: NOT_FOUND, asked once', async () => {
    for (const booked of [{ applied: false, booked: true, created_slot: 0 }, undefined]) {
      const db = database({ outputsOf: [booked === undefined ? [] : [booked]], includedBlock: [[row]] });
      await expect(includedOnMiss(db.ask, txId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(db.asked).toEqual(['outputsOf']);
    }
  });
});
