import { parseArgs } from 'node:util';
import { baseToken } from '../answers/index.js';
import {
  accountRange,
  pointOf,
  STATEMENT_FORMATS,
  STATES_PER_PAGE,
  type StatementFormat,
  statementCsv,
  statementJson,
  statementKoinly,
  statementPage,
} from '../http/accounts/index.js';
import { parseBech32, Slices } from '../http/kit/index.js';
import { addressBytes, importedParams, inspectStore, type Ledger, openLedger } from '../ledger/index.js';
import { addressToBech32 } from '../stardust/address-bech32.js';
import { protocolParameters } from '../stardust/protocol-parameters.js';
import { network, UsageError, wholeNumber } from './io.js';

export const STATEMENT_USAGE = `tangle-core statement --db DIR ADDRESS [options]
  An address's statement (docs/accounts.md): its balance at the start, each transaction, expiration and timelock that
  changed it, its balance at the end; they add up. Read from the store at DIR (it may be served meanwhile), written
  to stdout page by page (a long range is never held whole).
  --from N | --from-time T   the start: a milestone, or the last milestone at or before T (unix seconds or ISO date);
                             default the first milestone the store keeps accounts of
  --to N | --to-time T       the end, likewise; default the latest milestone
  --format F                 json (one page a line, each adding up), csv or koinly (default csv)
  --page-size N              milestones that changed the address a page (default 100)
  --network NAME             for a store tangle-core built: testnet, shimmer or iota (default testnet)
`;

/** Writes the statement to `out`, page by page. */
export async function statementCommand(argv: string[], out: (text: string) => Promise<void>): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      from: { type: 'string' },
      'from-time': { type: 'string' },
      to: { type: 'string' },
      'to-time': { type: 'string' },
      format: { type: 'string' },
      network: { type: 'string' },
      'page-size': { type: 'string' },
    },
  });
  if (values.db === undefined || positionals.length !== 1) throw new UsageError('statement needs --db DIR and ADDRESS');
  const format = STATEMENT_FORMATS.find((f) => f === (values.format ?? 'csv'));
  if (format === undefined) throw new UsageError(`--format: json, csv or koinly, not ${values.format}`);
  const perPage =
    values['page-size'] === undefined ? STATES_PER_PAGE : wholeNumber(values['page-size'], '--page-size', 1, 10_000);
  const existing = inspectStore(values.db);
  if (existing === undefined) throw new UsageError(`there is no store at ${values.db}`);
  const params =
    existing.imported !== undefined
      ? importedParams(existing.imported)
      : protocolParameters(network(values.network), { genesisUnixTime: existing.genesisUnixTime });
  const ledger = openLedger({ path: values.db, params, readOnly: true });
  try {
    const query = new URLSearchParams();
    for (const [name, option] of [
      ['from', 'from'],
      ['fromTime', 'from-time'],
      ['to', 'to'],
      ['toTime', 'to-time'],
    ] as const)
      if (values[option] !== undefined) query.set(name, values[option]);
    await writeStatement(ledger, positionals[0]!, query, format, perPage, out);
  } finally {
    ledger.close();
  }
}

async function writeStatement(
  ledger: Ledger,
  text: string,
  query: URLSearchParams,
  format: StatementFormat,
  perPage: number,
  out: (text: string) => Promise<void>,
): Promise<void> {
  const model = parseBech32(text, ledger.params.bech32Hrp);
  const who = { bytes: addressBytes(model), model };
  const range = await accountRange(ledger);
  const from = (await pointOf(ledger, query, { index: 'from', time: 'fromTime' }, range)) ?? range.first;
  const to = (await pointOf(ledger, query, { index: 'to', time: 'toTime' }, range)) ?? range.latest;
  if (from > to) throw new UsageError(`the range ends (milestone ${to}) before it starts (${from})`);
  const names = (a: Parameters<typeof addressToBech32>[0]) => addressToBech32(a, ledger.params.bech32Hrp);
  const unit = baseToken(ledger.params);
  let start: number | undefined = from;
  for (let first = true; start !== undefined; first = false) {
    const page = await statementPage(ledger, who, { from: start, to }, new Slices(), perPage);
    const last = page.next === undefined;
    if (format === 'json') {
      const times = { from: ledger.milestone(page.from)!.timestamp, to: ledger.milestone(page.to)!.timestamp };
      await out(`${JSON.stringify(statementJson(page, text, times, names))}\n`);
    } else {
      const lines = format === 'csv' ? statementCsv(page, unit, names) : statementKoinly(page, unit);
      // One header and opening line at the start, one closing line at the end: the pages join into one file.
      const [head, body] = format === 'csv' ? [2, lines.length - 1] : [1, lines.length];
      const kept = [...(first ? lines.slice(0, head) : []), ...lines.slice(head, body)];
      if (format === 'csv' && last) kept.push(lines.at(-1)!);
      await out(kept.map((l) => `${l}\n`).join(''));
    }
    start = page.next;
  }
}
