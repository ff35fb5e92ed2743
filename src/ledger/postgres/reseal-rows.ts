import { checkRow, keys, LedgerError, rowSeal, sealRecord } from '../common/index.js';
import { UNSEALED_INDEXES } from './archive-schema.js';
import { bytesOf, type PgClient } from './client.js';
import { balanceFields, balanceSeal, damagedBalance, updateFields } from './sealed-rows.js';

// The upgrade of a database written before the records of applied milestones, their analytics and the archive were
// sealed (issue 57: common/record-checks.ts): each row that holds such a record gains its seal, under the key the
// embedded store gives the record. PostgreSQL has no CRC-32, so the rows are read, sealed here, and written back, a
// page at a time in key order. For the layout upgrade's step, in its SQL transaction; a database already sealed
// must not run it (a seal cannot tell itself from a record's last four bytes).

const PAGE = 5_000;

type Row = Record<string, unknown>;

/**
 * Each table's rows that hold records: the key columns in key order (name and type), the record's column, and the
 * key the embedded store keeps the record under.
 */
type SealedRows = { table: string; by: [string, string][]; column: string; key: (r: Row) => Uint8Array }[];

const SEALED_ROWS: SealedRows = [
  {
    table: 'milestone_times',
    by: [['slot', 'integer']],
    column: 'payload',
    key: (r) => keys.milestone(Number(r.slot)),
  },
  {
    table: 'milestone_times',
    by: [['slot', 'integer']],
    column: 'analytics',
    key: (r) => keys.analytics(Number(r.slot)),
  },
  {
    table: 'analytics_columns',
    by: [
      ['place', 'smallint'],
      ['chunk', 'integer'],
    ],
    column: 'raw',
    key: (r) => keys.analyticsColumn(Number(r.place), Number(r.chunk)),
  },
  {
    table: 'held_outputs',
    by: [
      ['address', 'bytea'],
      ['output_id', 'bytea'],
      ['role', 'smallint'],
    ],
    column: 'raw',
    key: (r) => keys.heldOutput(bytesOf(r.address), bytesOf(r.output_id), Number(r.role)),
  },
];

/**
 * The white-flag records of applied milestones, sealed later than the others (layout 4 of the embedded store):
 * sealed with the value rows (sealValueRows), under their own flag.
 */
const WHITE_FLAG_ROWS: SealedRows = [
  {
    table: 'milestone_times',
    by: [['slot', 'integer']],
    column: 'white_flag',
    key: (r) => keys.whiteFlag(Number(r.slot)),
  },
];

/** Seals every record a row of the database holds (see above, `rows`: those tables); the number of rows sealed. */
export async function resealRows(c: PgClient, rows = SEALED_ROWS): Promise<number> {
  let sealed = 0;
  for (const { table, by, column, key } of rows) {
    const names = by.map(([name]) => name);
    const cols = names.join(', ');
    const params = names.map((_, i) => `$${i + 1}`).join(', ');
    const select = `select ${cols}, ${column} as record from ${table} where ${column} is not null`;
    // The page's key columns and sealed records, as arrays; the rows they name updated in one statement.
    const arrays = by.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    const update =
      `update ${table} s set ${column} = t.record from unnest(${arrays}, $${by.length + 1}::bytea[]) ` +
      `as t(${cols}, record) where ${names.map((n) => `s.${n} = t.${n}`).join(' and ')}`;
    let last: unknown[] | undefined;
    for (;;) {
      const page = await c.query(
        `${select}${last === undefined ? '' : ` and (${cols}) > (${params})`} order by ${cols} limit ${PAGE}`,
        last ?? [],
      );
      if (page.rows.length === 0) break;
      const rows = page.rows;
      await c.query(update, [
        ...names.map((n) => rows.map((r) => r[n])),
        rows.map((r) => sealRecord(key(r), bytesOf(r.record))),
      ]);
      sealed += rows.length;
      last = names.map((n) => rows.at(-1)![n]);
    }
  }
  return sealed;
}

/**
 * The seal of every ledger update's and balance's row of a database kept before they had one (sealed-rows.ts), a
 * page at a time in key order, and the indexes it had without them dropped (the schema made the new ones); and the
 * seal of each white-flag record. Run once, at the writer's opening, in its SQL transaction: the values are taken as
 * they stand. The number of rows sealed.
 */
export async function sealValueRows(c: PgClient): Promise<number> {
  let sealed = await resealRows(c, WHITE_FLAG_ROWS);
  const tables = [
    {
      table: 'ledger_updates',
      by: ['milestone', 'output_id', 'spent'],
      types: ['integer', 'bytea', 'boolean'],
      columns: 'address, owner, amount, unix_time',
      seal: (r: Row) =>
        rowSeal(
          keys.milestoneUpdate(Number(r.milestone), bytesOf(r.output_id), r.spent === true),
          updateFields({
            address: bytesOf(r.address),
            owner: bytesOf(r.owner),
            amount: BigInt(r.amount as string),
            time: Number(r.unix_time),
          }),
        ),
    },
    {
      table: 'address_balances',
      by: ['address'],
      types: ['bytea'],
      columns: 'amount, plain, outputs, returns',
      seal: (r: Row) => {
        const address = bytesOf(r.address);
        const [amount, plain] = [BigInt(r.amount as string), BigInt(r.plain as string)];
        return balanceSeal({ address, amount, plain, outputs: Number(r.outputs), returns: Number(r.returns) });
      },
    },
  ];
  for (const { table, by, types, columns, seal } of tables) {
    const cols = by.join(', ');
    const select = `select ${cols}, ${columns} from ${table}`;
    const arrays = by.map((_, i) => `$${i + 1}::${types[i]}[]`).join(', ');
    const update =
      `update ${table} s set seal = t.seal from unnest(${arrays}, $${by.length + 1}::integer[]) ` +
      `as t(${cols}, seal) where ${by.map((n) => `s.${n} = t.${n}`).join(' and ')}`;
    let last: unknown[] | undefined;
    for (;;) {
      const after = last === undefined ? '' : ` where (${cols}) > (${by.map((_, i) => `$${i + 1}`).join(', ')})`;
      const { rows } = await c.query(`${select}${after} order by ${cols} limit ${PAGE}`, last ?? []);
      if (rows.length === 0) break;
      await c.query(update, [...by.map((n) => rows.map((r) => r[n])), rows.map(seal)]);
      sealed += rows.length;
      last = by.map((n) => rows.at(-1)![n]);
    }
  }
  await c.query(UNSEALED_INDEXES);
  return sealed;
}

/**
 * The balance rows of a database sealed before their seal could be computed in SQL (a CRC-32 of key and values:
 * sealed-rows.ts balanceFields): each checked against that seal, then sealed as the writer's statement seals it
 * (balanceSeal), a page at a time in key order. Run once, at the writer's opening, in its SQL transaction (the flag
 * `balance_seals_sql` moves in it). The number of rows sealed. @throws LedgerError STORE_CORRUPT (a damaged row)
 */
export async function resealBalances(c: PgClient): Promise<number> {
  const select = 'select address, amount, plain, outputs, returns, seal from address_balances';
  const update =
    'update address_balances b set seal = t.seal from unnest($1::bytea[], $2::integer[]) as t(address, seal) ' +
    'where b.address = t.address';
  let sealed = 0;
  let last: Uint8Array | undefined;
  for (;;) {
    const after = last === undefined ? '' : ' where address > $1';
    const { rows } = await c.query(
      `${select}${after} order by address limit ${PAGE}`,
      last === undefined ? [] : [last],
    );
    if (rows.length === 0) return sealed;
    const values = rows.map((r) => {
      const v = {
        address: bytesOf(r.address),
        amount: BigInt(r.amount as string),
        plain: BigInt(r.plain as string),
        outputs: Number(r.outputs),
        returns: Number(r.returns),
      };
      try {
        checkRow(keys.addressBalance(v.address), balanceFields(v), r.seal, 'address balance');
      } catch {
        throw damagedBalance(v.address);
      }
      return v;
    });
    await c.query(update, [values.map((v) => v.address), values.map(balanceSeal)]);
    sealed += rows.length;
    last = values.at(-1)!.address;
  }
}

/**
 * Refuses a reader a database whose status row says a seal its rows lack (its writer's opening adds it: mirror.ts).
 * @throws LedgerError STORE_OUTDATED
 */
export function refuseOutdated(s: Row): void {
  const flags = [
    s.records_sealed,
    s.rows_sealed,
    s.balance_seals_sql,
    s.snapshot_sealed,
    s.times_sealed,
    s.rows_counted,
    s.changes_counted,
  ];
  if (flags.some((f) => f !== true))
    throw new LedgerError(
      'STORE_OUTDATED',
      'the database was kept by an older tangle-core: upgrade it with `tangle-core upgrade --db DIR --store URL` ' +
        '(DIR: the store its writer mirrors; or start that writer once: serve --db DIR --store URL), then read it',
    );
}

/**
 * The records of an imported ledger that the status row keeps (its network and treasury output), sealed under the
 * embedded store's keys, in a database kept before they were (`snapshot_sealed`). Once, at the writer's opening.
 */
export async function sealSnapshotRecords(c: PgClient): Promise<void> {
  const { rows } = await c.query('select imported, treasury from status');
  const seal = (key: Uint8Array, v: unknown) => (v === null || v === undefined ? null : sealRecord(key, bytesOf(v)));
  const s = rows[0]!;
  await c.query('update status set imported = $1, treasury = $2', [
    seal(keys.importedNetwork, s.imported),
    seal(keys.treasury, s.treasury),
  ]);
}
