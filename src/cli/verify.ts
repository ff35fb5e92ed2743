import { parseArgs } from 'node:util';
import { LedgerError, verifyPostgres, verifyStoreAt } from '../ledger/index.js';
import { existingStore, redactUrl, UsageError } from './io.js';

export const VERIFY_USAGE = `tangle-core verify --db DIR | --store URL
  Walks the whole store at DIR, read-only (beside its running writer too): checks every record's seal, and each
  index against what it indexes, both ways (a milestone's ID entry, the output and chain indexes, the block index),
  which no read can (an index entry moved by a flipped bit of its key is, on a read, no entry), then the commitment
  chain and every unpruned slot's UTXO changes against it. Prints each table as
  it is done, then each damaged record (its table, its key, what is wrong). Exit 0: sound; 1: damaged; 2: misuse,
  or a store of an older layout (tangle-core upgrade --db DIR first).
  With --store, walks the PostgreSQL database at URL instead, in one read-only snapshot, for the rows deleted where
  no read can tell (docs/reliability.md): prints each check as it is done, then each missing row likewise; a database
  an older tangle-core kept is refused (exit 2: tangle-core upgrade --db DIR --store URL first).
`;

/** Walks the store; its lines go to `print` as they come. Whether it is sound. */
export async function verifyCommand(argv: string[], print: (line: string) => void): Promise<boolean> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { db: { type: 'string' }, store: { type: 'string' } },
  });
  if ((values.db === undefined) === (values.store === undefined) || positionals.length > 0)
    throw new UsageError('verify needs --db DIR or --store URL');
  if (values.store !== undefined) return verifyDatabase(values.store, print);
  try {
    existingStore(values.db!);
  } catch (e) {
    // A damaged record every reader starts from (the metadata, the network): the walk names it (exit 1).
    if (!(e instanceof LedgerError) || e.code !== 'STORE_CORRUPT') throw e;
  }
  const verdict = verifyStoreAt(values.db!, print);
  for (const d of verdict.damage) print(`damaged: ${d.table} ${d.key}: ${d.why}`);
  const checked = [...verdict.checked.values()].reduce((a, b) => a + b, 0);
  const of = `(layout ${verdict.layout ?? 'unreadable'}, ${checked} sealed records checked)`;
  print(
    verdict.damage.length === 0
      ? `${values.db}: sound ${of}`
      : `${values.db}: ${verdict.damage.length} damaged record(s) ${of}`,
  );
  return verdict.damage.length === 0;
}

/** `--store URL`: the PostgreSQL walk (ledger/postgres/verify-rows.ts), printed as the store's. */
async function verifyDatabase(url: string, print: (line: string) => void): Promise<boolean> {
  const damage = await verifyPostgres(url, print);
  for (const d of damage) print(`damaged: ${d.table} ${d.key}: ${d.why}`);
  print(
    damage.length === 0
      ? `${redactUrl(url)}: sound (no row missing)`
      : `${redactUrl(url)}: ${damage.length} damaged or missing row(s)`,
  );
  return damage.length === 0;
}
