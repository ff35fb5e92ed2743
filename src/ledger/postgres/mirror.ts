import { createRequire } from 'node:module';
import { LedgerError } from '../errors.js';
import type { SlotExport } from '../export.js';
import type { Ledger } from '../ledger.js';
import { QUERIES, SCHEMA, WRITES } from './schema.js';

// The PostgreSQL side of issue 15, first part: a writer's committed slots mirrored into the tables of schema.ts, one
// SQL transaction per slot with `status` moved in the same transaction (a reader sees a slot whole or not at all),
// and a reader that answers the included-block and utxo-changes queries from them. The writer keeps validating
// against its own store; the mirror resumes from `status` after a crash (a slot is in PostgreSQL whole or not).

interface PgResult {
  rows: Record<string, unknown>[];
}
interface PgClient {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  release(): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
  query(text: string, values?: unknown[]): Promise<PgResult>;
  end(): Promise<void>;
}
let pg: { Pool: new (options: { connectionString: string; max?: number }) => PgPool } | undefined;
const loadPg = () => {
  pg ??= createRequire(import.meta.url)('pg');
  return pg!;
};

async function inTransaction<T>(pool: PgPool, work: (c: PgClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('begin');
    const result = await work(c);
    await c.query('commit');
    return result;
  } catch (e) {
    await c.query('rollback').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

function writeCredits(c: PgClient, slot: number, credits: SlotExport['credits']): Promise<PgResult> {
  return c.query(WRITES.credits, [
    slot,
    credits.map((a) => a.accountId),
    credits.map((a) => a.blockIssuanceCredits.toString()),
    credits.map((a) => a.destroyed),
  ]);
}

export class PostgresMirror {
  private constructor(private readonly pool: PgPool) {}

  /** Connects, creates the schema, and on a new database records the ledger's network and genesis outputs. */
  static async open(url: string, ledger: Ledger): Promise<PostgresMirror> {
    const pool = new (loadPg().Pool)({ connectionString: url, max: 2 });
    const mirror = new PostgresMirror(pool);
    const p = ledger.params;
    await inTransaction(pool, async (c) => {
      for (const s of SCHEMA) await c.query(s);
      const { rows } = await c.query('select network_id from status');
      if (rows.length === 0) {
        const genesis = ledger.commitmentOf(p.genesisSlot)!;
        await c.query('insert into status values (true, $1, $2, $3, $4, $5, $6)', [
          p.networkId.toString(),
          p.genesisSlot,
          p.genesisUnixTime,
          p.genesisSlot,
          genesis.commitmentId,
          p.genesisSlot + 1,
        ]);
        const { created, credits } = ledger.exportGenesis();
        await c.query(WRITES.createdOutputs, [
          p.genesisSlot,
          created.map((o) => o.outputId),
          created.map((o) => o.output),
        ]);
        await writeCredits(c, p.genesisSlot, credits);
      } else if (String(rows[0]!.network_id) !== p.networkId.toString()) {
        throw new LedgerError('STORE_CORRUPT', `the database holds another network (id ${rows[0]!.network_id})`);
      }
    }).catch(async (e) => {
      await pool.end();
      throw e;
    });
    return mirror;
  }

  async latestSlot(): Promise<number> {
    const { rows } = await this.pool.query('select latest_slot from status');
    return Number(rows[0]!.latest_slot);
  }

  /** Writes one committed slot, the next after the database's latest, in one SQL transaction. */
  async writeSlot(x: SlotExport): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      const moved = await c.query(WRITES.status, [x.slot, x.commitmentId]);
      if ((moved as PgResult & { rowCount?: number }).rowCount !== 1)
        throw new LedgerError('SLOT_NOT_NEXT', `slot ${x.slot} is not the next one for this database`);
      await c.query(WRITES.commitment, [x.slot, x.commitmentId, x.commitment]);
      const { blocks, created, credits } = x;
      const blockColumns = [blocks.map((b) => b.blockId), blocks.map((b) => b.transactionId ?? null)];
      await c.query(WRITES.blocks, [x.slot, ...blockColumns, blocks.map((b) => b.bytes)]);
      await c.query(WRITES.createdOutputs, [x.slot, created.map((o) => o.outputId), created.map((o) => o.output)]);
      await c.query(WRITES.spentOutputs, [x.slot, x.consumed]);
      await writeCredits(c, x.slot, credits);
    });
  }

  /** Writes every slot the ledger has committed since the database's latest; returns the latest slot written. */
  async catchUp(ledger: Ledger): Promise<number> {
    const target = ledger.latestCommitment().slot;
    let slot = await this.latestSlot();
    while (slot < target) await this.writeSlot(ledger.exportSlot(++slot));
    return slot;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Answers the API's queries from the tables (on the primary or a hot standby). */
export class PostgresReader {
  private constructor(private readonly pool: PgPool) {}

  static open(url: string): PostgresReader {
    return new PostgresReader(new (loadPg().Pool)({ connectionString: url, max: 4 }));
  }

  async latestSlot(): Promise<number> {
    const { rows } = await this.pool.query('select latest_slot from status');
    return Number(rows[0]!.latest_slot);
  }

  /** The block that included a transaction, or undefined. */
  async includedBlock(txId: Uint8Array): Promise<{ blockId: Uint8Array; slot: number; bytes: Uint8Array } | undefined> {
    const { rows } = await this.pool.query(QUERIES.includedBlock, [txId]);
    const r = rows[0];
    if (r === undefined) return undefined;
    return { blockId: view(r.block_id), slot: Number(r.slot), bytes: view(r.raw) };
  }

  /** An account's credits as of a slot (its newest journal row at or before it), or undefined. */
  async credits(
    accountId: Uint8Array,
    slot: number,
  ): Promise<{ blockIssuanceCredits: bigint; destroyed: boolean } | undefined> {
    const { rows } = await this.pool.query(QUERIES.credits, [accountId, slot]);
    const r = rows[0];
    if (r === undefined) return undefined;
    return { blockIssuanceCredits: BigInt(r.block_issuance_credits as string), destroyed: r.destroyed === true };
  }

  /** A committed slot's UTXO changes (in id order), or undefined for a slot this database has not seen. */
  async utxoChanges(
    slot: number,
  ): Promise<{ commitmentId: Uint8Array; createdOutputs: Uint8Array[]; consumedOutputs: Uint8Array[] } | undefined> {
    // One snapshot for the three reads: the slot whole, as the writer committed it.
    const c = await this.pool.connect();
    try {
      await c.query('begin transaction isolation level repeatable read read only');
      const { rows } = await c.query('select commitment_id from commitments where slot = $1', [slot]);
      if (rows[0] === undefined) return undefined;
      const created = await c.query(QUERIES.createdOutputs, [slot]);
      const consumed = await c.query(QUERIES.consumedOutputs, [slot]);
      return {
        commitmentId: view(rows[0].commitment_id),
        createdOutputs: created.rows.map((r) => view(r.output_id)),
        consumedOutputs: consumed.rows.map((r) => view(r.output_id)),
      };
    } finally {
      await c.query('commit').catch(() => {});
      c.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const view = (b: unknown) => {
  const buf = b as Buffer;
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
};
