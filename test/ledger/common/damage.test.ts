// Damaged data is never served as if it were true (issue 26): a bit flipped in a stored block, a slot's UTXO changes
// or a commitment, in the embedded store and in PostgreSQL rows (hand edits, a column cut short), makes every route
// that would serve it answer 500 (STORE_CORRUPT, logged with the record's key), never 200, 400 or 404; what is not
// damaged is answered as before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  type Ledger,
  type LedgerError,
  openLedger,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/store-keys.js';
import type { LedgerReader } from '../../../src/ledger/core/ledger-reader.js';
import { PostgresMirror } from '../../../src/ledger/postgres/mirror.js';
import { PostgresReader } from '../../../src/ledger/postgres/postgres-reader.js';
import { WriteBatch } from '../../../src/ledger/store/batch.js';
import type { LmdbStore } from '../../../src/ledger/store/lmdb.js';
import { applyEvent } from '../../../src/sim/events.js';
import { Simulation } from '../../../src/sim/simulator.js';
import { errorCode } from '../../helpers/failure.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import { routeAnswers } from '../../helpers/route-answers.js';

const GENESIS = 1_700_000_000;
const SLOTS = 12;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: GENESIS });
const clock = () => GENESIS + SLOTS * 10;
const SLOT = 5; // the slot whose records are damaged (not the latest: its commitment is checked by the next one's)

let ledger: Ledger;
let sim: Simulation;
let txId: Uint8Array;
let blockId: Uint8Array;
let account: string;
/** Outputs slot SLOT created: one spent since, one still unspent. */
let spentId: Uint8Array;
let unspentId: Uint8Array;

beforeAll(() => {
  sim = new Simulation({ params, seed: 3 });
  ledger = openLedger({ params, genesis: sim.genesis(), clock });
  for (let slot = 1; slot <= SLOTS; slot++) for (const e of sim.slot(slot)) applyEvent(ledger, e);
  txId = ledger.utxoChanges(SLOT).createdOutputs.at(0)!.subarray(0, 32).slice();
  const included = ledger.includedBlock(txId);
  expect(included.slot).toBe(SLOT);
  blockId = included.blockId;
  account = addressToBech32({ type: 8, aliasId: sim.accounts.worker }, params.bech32Hrp);
  const created = ledger.utxoChanges(SLOT).createdOutputs.map((id) => id.slice());
  const spent = new Set<string>();
  for (let slot = SLOT + 1; slot <= SLOTS; slot++)
    for (const id of ledger.utxoChanges(slot).consumedOutputs) spent.add(toHex(id));
  spentId = created.find((id) => spent.has(toHex(id)))!;
  unspentId = created.find((id) => !spent.has(toHex(id)))!;
  expect([spentId, unspentId].every((id) => id !== undefined)).toBe(true);
});

const routes = () => ({
  block: `/api/core/v2/transactions/${toHex(txId)}/included-block`,
  blockBytes: `/api/core/v2/transactions/${toHex(txId)}/included-block`,
  changes: `/api/core/v3/commitments/by-slot/${SLOT}/utxo-changes`,
  changesById: `/api/core/v3/commitments/${toHex(ledger.commitmentOf(SLOT)!.commitmentId)}/utxo-changes`,
  congestion: `/api/core/v3/accounts/${account}/congestion?commitmentId=${toHex(ledger.commitmentOf(SLOT)!.commitmentId)}`,
  untouched: `/api/core/v3/commitments/by-slot/${SLOT - 2}/utxo-changes`,
});

/** Serves `reader` on a fresh server (nothing kept from an earlier answer); returns the answers and what was logged. */
async function ask(reader: LedgerReader, paths: string[]): Promise<{ answers: [number, string][]; logged: string[] }> {
  const { found, logged } = await routeAnswers(reader, paths);
  return { answers: found, logged };
}

const HIDDEN_500 = '{"error":{"code":500,"message":"internal server error"}}\n';

describe('the embedded store', () => {
  const store = () =>
    (
      ledger as unknown as {
        committed: { store: { get(k: Uint8Array): Uint8Array | undefined; write(b: WriteBatch): void } };
      }
    ).committed.store;
  const forget = () =>
    (ledger as unknown as { committed: { commitments: Map<number, unknown> } }).committed.commitments.clear();
  /** Runs `check` with one bit of the record at `key` flipped at each position, the record restored after each. */
  async function flipped(key: Uint8Array, positions: (n: number) => number[], check: (at: number) => Promise<void>) {
    const original = store().get(key)!.slice();
    expect(original.length).toBeGreaterThan(0);
    for (const at of positions(original.length)) {
      const damaged = original.slice();
      damaged[at]! ^= 0x10;
      store().write(WriteBatch.of([{ key, value: damaged }]));
      forget();
      try {
        await check(at);
      } finally {
        store().write(WriteBatch.of([{ key, value: original }]));
        forget();
      }
    }
  }
  const spread = (n: number) => [0, 1, 2, 3, 10, 33, 34, 35, 36, 70, Math.floor(n / 2), n - 9, n - 8, n - 2, n - 1];

  it('a block: included-block is 500 STORE_CORRUPT, logged with the block, at every byte tried', async () => {
    const { block, untouched } = routes();
    await flipped(keys.block(SLOT, blockId), spread, async (at) => {
      expect(
        errorCode(() => ledger.includedBlock(txId)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
      if (at !== 35) return; // one answer through HTTP per kind of record is enough; the ledger call covers the rest
      const { answers, logged } = await ask(ledger, [block, untouched]);
      expect(answers[0]).toEqual([500, HIDDEN_500]);
      expect(answers[1]![0]).toBe(200);
      expect(logged).toEqual([expect.stringContaining(`STORE_CORRUPT: the stored block ${toHex(blockId)}`)]);
    });
    expect((await ask(ledger, [block])).answers[0]![0]).toBe(200); // restored
  });

  it('an output record (issue 43): the output is 500 STORE_CORRUPT at every byte, its slots, checksum and output alike', async () => {
    for (const id of [spentId, unspentId]) {
      const route = `/api/core/v2/outputs/${toHex(id)}`;
      const before = await ask(ledger, [route]);
      expect(before.answers[0]![0]).toBe(200);
      await flipped(
        keys.output(SLOT, id),
        (n) => Array.from({ length: n }, (_, i) => i),
        async (at) => {
          expect(
            errorCode(() => ledger.outputWithMetadata(id)),
            `byte ${at}`,
          ).toBe('STORE_CORRUPT');
          if (at !== 20) return;
          const { answers, logged } = await ask(ledger, [route, routes().untouched]);
          expect(answers.map(([s]) => s)).toEqual([500, 200]);
          expect(answers[0]![1]).toBe(HIDDEN_500);
          expect(logged).toEqual([
            expect.stringContaining(`STORE_CORRUPT: the stored output ${toHex(id)} (slot ${SLOT})`),
          ]);
        },
      );
      expect(await ask(ledger, [route])).toEqual(before); // restored
    }
  });

  it('an output record under a damaged key (a bit flipped at each byte of it): 500 STORE_CORRUPT, never 404', async () => {
    const key = keys.output(SLOT, spentId);
    const record = store().get(key)!.slice();
    for (let at = 0; at < key.length; at++) {
      const moved = key.slice();
      moved[at]! ^= 0x10;
      store().write(
        WriteBatch.of([
          { key, value: undefined },
          { key: moved, value: record },
        ]),
      );
      try {
        expect(
          errorCode(() => ledger.outputWithMetadata(spentId)),
          `key byte ${at}`,
        ).toBe('STORE_CORRUPT');
      } finally {
        store().write(
          WriteBatch.of([
            { key: moved, value: undefined },
            { key, value: record },
          ]),
        );
      }
    }
    const { answers } = await ask(ledger, [`/api/core/v2/outputs/${toHex(spentId)}`]);
    expect(answers[0]![0]).toBe(200);
    // An output index the transaction never had is not found, as before: 404.
    const none = spentId.slice();
    none[32] = 120;
    expect(errorCode(() => ledger.outputWithMetadata(none))).toBe('NOT_FOUND');
  });

  it('a genesis output under a damaged key: 500 STORE_CORRUPT, never 404; its transaction has no included block', async () => {
    // Genesis outputs are their genesis transaction's, which has no block: the record that counts them names none.
    const genesisId = new Simulation({ params, seed: 3 }).genesis().outputs![1]!.outputId;
    const key = keys.output(params.genesisSlot, genesisId);
    const record = store().get(key)!.slice();
    for (let at = 0; at < key.length; at++) {
      const moved = key.slice();
      moved[at]! ^= 0x10;
      const swap = (from: Uint8Array, to: Uint8Array) =>
        store().write(
          WriteBatch.of([
            { key: from, value: undefined },
            { key: to, value: record },
          ]),
        );
      swap(key, moved);
      try {
        expect(
          errorCode(() => ledger.outputWithMetadata(genesisId)),
          `key byte ${at}`,
        ).toBe('STORE_CORRUPT');
      } finally {
        swap(moved, key);
      }
    }
    const { answers } = await ask(ledger, [
      `/api/core/v2/outputs/${toHex(genesisId)}`,
      `/api/core/v2/transactions/${toHex(genesisId.subarray(0, 32))}/included-block`,
    ]);
    expect(answers.map(([status]) => status)).toEqual([200, 404]);
    // As an imported network's genesis transaction answers (its outputs stored, of no block), on either store.
    expect(answers[1]![1]).toContain(`block not found: ${toHex(new Uint8Array(32))}`);
    expect(JSON.parse(answers[0]![1]).metadata.blockId).toBe(toHex(new Uint8Array(32)));
  });

  it("a slot's UTXO changes: utxo-changes is 500 STORE_CORRUPT at every byte tried, counts, ids and digest alike", async () => {
    const { changes, changesById, untouched } = routes();
    await flipped(keys.diff(SLOT), spread, async (at) => {
      expect(
        errorCode(() => ledger.utxoChanges(SLOT)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
      if (at !== 10) return;
      const { answers, logged } = await ask(ledger, [changes, changesById, untouched]);
      expect(answers.map(([s]) => s)).toEqual([500, 500, 200]);
      expect(logged[0]).toMatch(/^STORE_CORRUPT: the stored UTXO changes of slot 5 \(key 4400000005\): /);
    });
  });

  it('a commitment (of a past slot, and the latest): utxo-changes and congestion at it are 500 at every byte tried', async () => {
    const { changes, congestion, untouched } = routes();
    const positions = () => [0, 1, 4, 5, 8, 9, 20, 40, 44, 80, 88];
    await flipped(keys.commitment(SLOT), positions, async (at) => {
      expect(
        errorCode(() => ledger.utxoChanges(SLOT)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
      if (at !== 40) return;
      const { answers } = await ask(ledger, [changes, congestion, untouched]);
      expect(answers.map(([s]) => s)).toEqual([500, 500, 200]);
    });
    await flipped(keys.commitment(SLOT + 1), positions, async (at) => {
      // The next commitment names this one as previous: damage there is found here too (or at its own slot).
      expect(
        errorCode(() => ledger.utxoChanges(SLOT + 1)),
        `byte ${at}`,
      ).toBe('STORE_CORRUPT');
    });
    await flipped(
      keys.commitment(SLOT + 1),
      () => [40],
      async () => {
        expect(errorCode(() => ledger.utxoChanges(SLOT))).toBe('STORE_CORRUPT'); // previousCommitmentId no longer names it
      },
    );
    await flipped(
      keys.commitment(SLOT),
      () => [5],
      async () => {
        expect(errorCode(() => ledger.commitmentOf(SLOT))).toBe('STORE_CORRUPT'); // its slot field
      },
    );
    await flipped(keys.commitment(SLOTS), positions, async (at) => {
      expect(
        errorCode(() => ledger.utxoChanges(SLOTS)),
        `latest, byte ${at}`,
      ).toBe('STORE_CORRUPT');
    });
  });
});

const pg = await privatePostgres();

describe.skipIf(pg === undefined)('PostgreSQL rows', () => {
  let reader: PostgresReader;
  const sql = (q: string) => pg!.primary.sql(q, 'damage');
  const bytea = (b: Uint8Array) => `decode('${Buffer.from(b).toString('hex')}', 'hex')`;

  beforeAll(async () => {
    pg!.primary.sql('create database damage');
    const url = databaseUrl(pg!.primary, 'damage');
    const mirror = await PostgresMirror.open(url, ledger);
    expect(await mirror.catchUp(ledger)).toBe(SLOTS);
    await mirror.close();
    reader = await PostgresReader.open(url, PROTOCOL_PARAMETERS.testnet, { clock });
  });
  afterAll(() => reader?.close());

  /** Applies `damage` (SQL), checks, then `repair`. */
  async function damaged(damage: string, repair: string, check: () => Promise<void>) {
    sql(damage);
    try {
      await check();
    } finally {
      sql(repair);
    }
  }
  const refusal = async (p: Promise<unknown>) =>
    p.then(
      () => 'answered',
      (e: LedgerError) => e.code,
    );

  it('outputs.raw edited at every byte, its created_slot moved, its checksum gone: the output is 500 STORE_CORRUPT', async () => {
    const route = `/api/core/v2/outputs/${toHex(unspentId)}`;
    const length = ledger.outputWithMetadata(unspentId).output.length;
    const row = `where output_id = ${bytea(unspentId)}`;
    for (let at = 0; at < length; at++) {
      const flip = `update outputs set raw = set_byte(raw, ${at}, get_byte(raw, ${at}) # 16) ${row}`;
      await damaged(flip, flip, async () => {
        expect(await refusal(reader.outputWithMetadata(unspentId)), `byte ${at}`).toBe('STORE_CORRUPT');
      });
    }
    await damaged(
      `update outputs set created_slot = created_slot + 1 ${row}`,
      `update outputs set created_slot = created_slot - 1 ${row}`,
      async () => {
        const { answers, logged } = await ask(reader, [route, routes().untouched]);
        expect(answers.map(([s]) => s)).toEqual([500, 200]);
        expect(answers[0]![1]).toBe(HIDDEN_500);
        expect(logged[0]).toMatch(
          /^STORE_CORRUPT: the stored output 0x[0-9a-f]{68} \(slot 6\): its row does not match/,
        );
      },
    );
    const sum = Number(pg!.primary.sql(`select checksum from outputs ${row}`, 'damage').trim());
    await damaged(
      `update outputs set checksum = null ${row}`,
      `update outputs set checksum = ${sum} ${row}`,
      async () => {
        expect(await refusal(reader.outputWithMetadata(unspentId))).toBe('STORE_CORRUPT');
      },
    );
    expect((await ask(reader, [route])).answers[0]![0]).toBe(200);
  });

  it('outputs.spent_slot moved, cleared or set (issue 43): 500 STORE_CORRUPT', async () => {
    const spent = `where output_id = ${bytea(spentId)}`;
    const unspent = `where output_id = ${bytea(unspentId)}`;
    const slot = (await reader.outputWithMetadata(spentId)).spent!.slot;
    for (const [damage, repair, id] of [
      [`set spent_slot = spent_slot + 1 ${spent}`, `set spent_slot = ${slot} ${spent}`, spentId],
      [`set spent_slot = spent_slot - 1 ${spent}`, `set spent_slot = ${slot} ${spent}`, spentId],
      [`set spent_slot = null ${spent}`, `set spent_slot = ${slot} ${spent}`, spentId],
      [`set spent_slot = ${slot} ${unspent}`, `set spent_slot = null ${unspent}`, unspentId],
    ] as const)
      await damaged(`update outputs ${damage}`, `update outputs ${repair}`, async () => {
        expect(await refusal(reader.outputWithMetadata(id)), damage).toBe('STORE_CORRUPT');
      });
    expect((await reader.outputWithMetadata(spentId)).spent?.slot).toBe(slot);
    expect((await reader.outputWithMetadata(unspentId)).spent).toBeUndefined();
  });

  it('outputs.output_id with a bit flipped at each byte: 500 STORE_CORRUPT by its id, never 404; by the other id too', async () => {
    for (const id of [spentId, unspentId])
      for (let at = 0; at < 34; at++) {
        const moved = id.slice();
        moved[at]! ^= 0x10;
        const flip = (from: Uint8Array, to: Uint8Array) =>
          `update outputs set output_id = ${bytea(to)} where output_id = ${bytea(from)}`;
        await damaged(flip(id, moved), flip(moved, id), async () => {
          expect(await refusal(reader.outputWithMetadata(id)), `byte ${at}`).toBe('STORE_CORRUPT');
          expect(await refusal(reader.outputWithMetadata(moved)), `byte ${at}`).toBe('STORE_CORRUPT');
        });
      }
    // An index its transaction never had is not found, as before: the first past its outputs too.
    const none = spentId.slice();
    none[32] = 120;
    expect(await refusal(reader.outputWithMetadata(none))).toBe('NOT_FOUND');
    const tx = ledger.includedBlock(spentId.subarray(0, 32)).json as { payload: { essence: { outputs: unknown[] } } };
    const past = spentId.slice();
    past[32] = tx.payload.essence.outputs.length;
    past[33] = 0;
    expect(await refusal(reader.outputWithMetadata(past))).toBe('NOT_FOUND');
    // Once its block is pruned (its bytes gone), the database cannot tell a lost row from one never made: 404.
    const txId = bytea(spentId.subarray(0, 32));
    const moved = spentId.slice();
    moved[0]! ^= 0x10;
    const flip = (from: Uint8Array, to: Uint8Array) =>
      `update outputs set output_id = ${bytea(to)} where output_id = ${bytea(from)}`;
    const raw = sql(`select encode(raw, 'hex') from blocks where tx_id = ${txId}`).trim();
    await damaged(
      `${flip(spentId, moved)}; update blocks set raw = null where tx_id = ${txId}`,
      `${flip(moved, spentId)}; update blocks set raw = decode('${raw}', 'hex') where tx_id = ${txId}`,
      async () => expect(await refusal(reader.outputWithMetadata(spentId))).toBe('NOT_FOUND'),
    );
    expect((await ask(reader, [`/api/core/v2/outputs/${toHex(spentId)}`])).answers[0]![0]).toBe(200);
  });

  it("a writer that opens a database kept before spent rows carried their slot's mark adds it", async () => {
    // The mark as docs/reliability.md has it: CRC-32 of the spending slot's 4 bytes, little-endian, by XOR.
    const mark = (slot: number) => crc32(Buffer.from(Uint32Array.of(slot).buffer)) | 0;
    const rows = sql('select spent_slot from outputs where spent_slot is not null group by spent_slot')
      .trim()
      .split('\n')
      .map(Number);
    expect(rows.length).toBeGreaterThan(0);
    for (const s of rows) sql(`update outputs set checksum = checksum # ${mark(s)} where spent_slot = ${s}`);
    sql('update status set spent_marked = false');
    // Read as it was kept: no mark, no damage.
    expect((await reader.outputWithMetadata(spentId)).spent).toBeDefined();
    const mirror = await PostgresMirror.open(databaseUrl(pg!.primary, 'damage'), ledger);
    await mirror.close();
    expect(sql('select spent_marked from status').trim()).toBe('t');
    expect((await reader.outputWithMetadata(spentId)).spent).toBeDefined();
    await damaged(
      `update outputs set spent_slot = spent_slot + 1 where output_id = ${bytea(spentId)}`,
      `update outputs set spent_slot = spent_slot - 1 where output_id = ${bytea(spentId)}`,
      async () => expect(await refusal(reader.outputWithMetadata(spentId))).toBe('STORE_CORRUPT'),
    );
  });

  it('a writer that opens a database kept before checksums gives every row its checksum', async () => {
    sql('update outputs set checksum = null');
    expect(await refusal(reader.outputWithMetadata(unspentId))).toBe('STORE_CORRUPT');
    const mirror = await PostgresMirror.open(databaseUrl(pg!.primary, 'damage'), ledger);
    await mirror.close();
    expect(pg!.primary.sql('select count(*) from outputs where checksum is null', 'damage').trim()).toBe('0');
    expect((await reader.outputWithMetadata(unspentId)).createdSlot).toBe(SLOT);
  });

  it('block rows kept before they had checksums (issue 57): STORE_OUTDATED until the writer seals them, a damaged one as damaged', async () => {
    sql('update blocks set checksum = null');
    expect(await refusal(reader.includedBlock(txId))).toBe('STORE_OUTDATED');
    expect(await refusal(reader.block(blockId))).toBe('STORE_OUTDATED');
    const flip = `update blocks set raw = set_byte(raw, 40, get_byte(raw, 40) # 16) where block_id = ${bytea(blockId)}`;
    sql(flip); // damaged before the writer seals it: it is not sealed as sound
    const seal = async () => (await PostgresMirror.open(databaseUrl(pg!.primary, 'damage'), ledger)).close();
    await seal();
    const unsealed = 'select count(*) from blocks where checksum is null and raw is not null';
    expect(pg!.primary.sql(unsealed, 'damage').trim()).toBe('0');
    expect(await refusal(reader.includedBlock(txId))).toBe('STORE_CORRUPT');
    sql(flip);
    sql(`update blocks set checksum = null where block_id = ${bytea(blockId)}`);
    await seal();
    expect(await refusal(reader.includedBlock(txId))).toBe('answered');
    expect(await refusal(reader.block(blockId))).toBe('answered');
  });

  it('blocks.raw edited (a byte changed, or cut short): 500 STORE_CORRUPT, as the embedded store', async () => {
    const { block, untouched } = routes();
    for (const at of [0, 1, 35, 100]) {
      const flip = `update blocks set raw = set_byte(raw, ${at}, get_byte(raw, ${at}) # 16) where block_id = ${bytea(blockId)}`;
      await damaged(flip, flip, async () => {
        expect(await refusal(reader.includedBlock(txId)), `byte ${at}`).toBe('STORE_CORRUPT');
      });
    }
    const original = ledger.includedBlock(txId).bytes;
    await damaged(
      `update blocks set raw = substring(raw from 1 for ${original.length - 1}) where block_id = ${bytea(blockId)}`,
      `update blocks set raw = ${bytea(original)} where block_id = ${bytea(blockId)}`,
      async () => {
        const { answers, logged } = await ask(reader, [block, untouched]);
        expect(answers[0]).toEqual([500, HIDDEN_500]);
        expect(answers[1]![0]).toBe(200);
        // (its checksum, issue 57, catches it before its bytes are decoded)
        expect(logged[0]).toMatch(
          /^STORE_CORRUPT: the stored block 0x[0-9a-f]{64}: its row does not match its checksum/,
        );
      },
    );
    expect(await refusal(reader.includedBlock(txId))).toBe('answered');
  });

  it('an output_id cut to 33 bytes, or changed in place out of order: utxo-changes is 500', async () => {
    const { changes, untouched } = routes();
    const id = ledger.utxoChanges(SLOT).createdOutputs.at(0)!;
    await damaged(
      `update outputs set output_id = substring(output_id from 1 for 33) where output_id = ${bytea(id)}`,
      `update outputs set output_id = ${bytea(id)} where output_id = ${bytea(id.subarray(0, 33))}`,
      async () => {
        const { answers } = await ask(reader, [changes, untouched]);
        expect(answers.map(([s]) => s)).toEqual([500, 200]);
      },
    );
    // An output index over 127 (no transaction has that many outputs).
    const big = Uint8Array.of(...id.subarray(0, 32), 0xff, 0x00);
    await damaged(
      `update outputs set output_id = ${bytea(big)} where output_id = ${bytea(id)}`,
      `update outputs set output_id = ${bytea(id)} where output_id = ${bytea(big)}`,
      async () => expect(await refusal(reader.utxoChanges(SLOT))).toBe('STORE_CORRUPT'),
    );
    expect(await refusal(reader.utxoChanges(SLOT))).toBe('answered');
  });

  it('commitments.raw or commitment_id edited: utxo-changes and congestion at that slot are 500', async () => {
    const { changes, congestion } = routes();
    // Bytes 1-4 are the slot, 5-40 the previous commitment's ID, 73-80 the weight, 81-88 the reference mana cost:
    // a changed byte is another slot's commitment, or one that no longer hashes to its ID. Never a 400 (the client's
    // ID was right) or a 200.
    for (const at of [2, 5, 40, 80, 88]) {
      const flip = `update commitments set raw = set_byte(raw, ${at}, get_byte(raw, ${at}) # 16) where slot = ${SLOT}`;
      await damaged(flip, flip, async () => {
        const { answers } = await ask(reader, [changes, congestion]);
        expect(
          answers.map(([s]) => s),
          `byte ${at}`,
        ).toEqual([500, 500]);
      });
    }
    const flipId = `update commitments set commitment_id = set_byte(commitment_id, 3, get_byte(commitment_id, 3) # 1) where slot = ${SLOT}`;
    await damaged(flipId, flipId, async () => {
      expect(await refusal(reader.utxoChanges(SLOT))).toBe('STORE_CORRUPT');
    });
    expect(await refusal(reader.utxoChanges(SLOT))).toBe('answered');
  });
});

describe('an output record in LMDB on disk (issue 43)', () => {
  it('a bit flipped at every byte of the record, and of its key: STORE_CORRUPT, never 200 with other data or 404', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tangle-damage-'));
    try {
      const disk = openLedger({ path: dir, params, genesis: new Simulation({ params, seed: 3 }).genesis(), clock });
      const again = new Simulation({ params, seed: 3 });
      again.genesis();
      for (let slot = 1; slot <= SLOTS; slot++) for (const e of again.slot(slot)) applyEvent(disk, e);
      const store = (disk as unknown as { committed: { store: LmdbStore } }).committed.store;
      const key = keys.output(SLOT, spentId);
      const record = store.get(key)!;
      expect(toHex(disk.outputWithMetadata(spentId).output)).toBe(toHex(ledger.outputWithMetadata(spentId).output));
      const put = (writes: { key: Uint8Array; value: Uint8Array | undefined }[]) => store.write(WriteBatch.of(writes));
      for (let at = 0; at < record.length; at++) {
        const damaged = record.slice();
        damaged[at]! ^= 0x01;
        put([{ key, value: damaged }]);
        expect(
          errorCode(() => disk.outputWithMetadata(spentId)),
          `record byte ${at}`,
        ).toBe('STORE_CORRUPT');
      }
      for (let at = 0; at < key.length; at++) {
        const moved = key.slice();
        moved[at]! ^= 0x01;
        put([
          { key, value: undefined },
          { key: moved, value: record },
        ]);
        expect(
          errorCode(() => disk.outputWithMetadata(spentId)),
          `key byte ${at}`,
        ).toBe('STORE_CORRUPT');
        put([
          { key: moved, value: undefined },
          { key, value: record },
        ]);
      }
      expect(disk.outputWithMetadata(spentId).spent?.slot).toBeGreaterThan(SLOT);
      disk.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
