import { keys, sealRecord } from '../common/index.js';
import { bytesOf, type PgClient } from './client.js';

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
const SEALED_ROWS: { table: string; by: [string, string][]; column: string; key: (r: Row) => Uint8Array }[] = [
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

/** Seals every record a row of the database holds (see above); the number of rows sealed. */
export async function resealRows(c: PgClient): Promise<number> {
  let sealed = 0;
  for (const { table, by, column, key } of SEALED_ROWS) {
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
