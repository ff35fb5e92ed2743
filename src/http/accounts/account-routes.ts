import { baseToken } from '../../answers/index.js';
import { toHex } from '../../codec/index.js';
import {
  ACCOUNT_FILL_COMMAND,
  accountBalance,
  addressBytes,
  holdsAnything,
  LedgerError,
  type LedgerReader,
} from '../../ledger/index.js';
import type { Address } from '../../stardust/address.js';
import { addressToBech32 } from '../../stardust/address-bech32.js';
import {
  csvGate,
  HttpProblem,
  JSON_TYPE,
  pageSizeOf,
  parseBech32,
  quote,
  type Reply,
  type Route,
  Slices,
} from '../kit/index.js';
import { accountRange, accountsOf, pointOf, timeOf } from './account-points.js';
import { statementPage, type Who } from './account-statement.js';
import {
  STATEMENT_FORMATS,
  type StatementFormat,
  statementCsv,
  statementJson,
  statementKoinly,
} from './statement-formats.js';

// An address's balance at any milestone or time (issue 61): inx-chronicle's balance answer (its api-explorer.yml
// BalanceResponse: totalBalance, availableBalance, ledgerIndex), with the native tokens and NFTs held beside, from
// the one account record at or before the milestone (ledger/archive/account-history.ts): one seek however far back.

/** Whether a balance request asks for a point of the history (else the explorer's latest answers it). */
export const asksPoint = (query: URLSearchParams): boolean => query.has('ledgerIndex') || query.has('at');

/**
 * A database kept before the accounts, not filled yet (ledger/postgres/account-fill.ts): 503, the error body as every
 * other, with the stable code and the command that fills it beside it (as the indexer's build is answered).
 */
async function unlessNotBuilt(answer: () => Promise<Reply>): Promise<Reply> {
  try {
    return await answer();
  } catch (e) {
    if (!(e instanceof LedgerError) || e.code !== 'ACCOUNTS_NOT_BUILT') throw e;
    const body = {
      error: { code: 503, message: `service unavailable: ${e.detail}` },
      accountsBuild: { code: e.code, command: ACCOUNT_FILL_COMMAND },
    };
    return { body: JSON.stringify(body), contentType: JSON_TYPE, status: 503, headers: { 'Retry-After': '60' } };
  }
}

export function balanceAtPoint(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  return unlessNotBuilt(() => balanceAt(ledger, param, query));
}

async function balanceAt(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const address = addressBytes(parseBech32(param, ledger.params.bech32Hrp));
  const range = await accountRange(ledger);
  const at = (await pointOf(ledger, query, { index: 'ledgerIndex', time: 'at' }, range)) ?? range.latest;
  const found = await accountsOf(ledger).stateAt(address, at);
  if (found === undefined || !holdsAnything(found.state)) throw new HttpProblem(404, 'no results returned');
  const timestamp = await timeOf(ledger, at);
  const b = accountBalance(found.state, timestamp);
  const body = {
    totalBalance: String(b.total),
    availableBalance: String(b.available),
    ledgerIndex: at,
    milestoneTimestamp: timestamp,
    nativeTokens: found.state.tokens.map((t) => ({ id: toHex(t.id), amount: String(t.amount) })),
    nfts: found.state.nfts.map((id) => toHex(id)),
  };
  return { body: JSON.stringify(body), contentType: JSON_TYPE };
}

/** The statement's range from a query: `from`/`to` (milestones) or `fromTime`/`toTime`; by default all kept. */
export async function statementRange(ledger: LedgerReader, query: URLSearchParams) {
  const range = await accountRange(ledger);
  const from = (await pointOf(ledger, query, { index: 'from', time: 'fromTime' }, range)) ?? range.first;
  const to = (await pointOf(ledger, query, { index: 'to', time: 'toTime' }, range)) ?? range.latest;
  if (from > to) throw new HttpProblem(400, `the statement's range ends (milestone ${to}) before it starts (${from})`);
  return { from, to };
}

function formatOf(query: URLSearchParams): StatementFormat {
  const text = query.get('format') ?? 'json';
  const format = STATEMENT_FORMATS.find((f) => f === text);
  if (format === undefined) throw new HttpProblem(400, `invalid format: ${quote(text)} (json, csv or koinly)`);
  return format;
}

/** One page of a statement in a format; the next page's path where there is one. */
export async function statementReply(
  ledger: LedgerReader,
  who: Who,
  range: { from: number; to: number },
  format: StatementFormat,
  perPage: number,
): Promise<{ text: string; next?: string }> {
  const page = await statementPage(ledger, who, range, new Slices(), perPage);
  const hrp = ledger.params.bech32Hrp;
  const bech32 = addressToBech32(who.model, hrp);
  const names = (a: Address) => addressToBech32(a, hrp);
  const next =
    page.next === undefined
      ? undefined
      : `/api/tangle-core/v1/addresses/${bech32}/statement?from=${page.next}&to=${range.to}` +
        `&format=${format}&pageSize=${perPage}`;
  if (format === 'json') {
    const times = { from: await timeOf(ledger, page.from), to: await timeOf(ledger, page.to) };
    const body = { ...statementJson(page, bech32, times, names), ...(next && { next }) };
    return { text: JSON.stringify(body), ...(next && { next }) };
  }
  const lines =
    format === 'csv'
      ? statementCsv(page, baseToken(ledger.params), names)
      : statementKoinly(page, baseToken(ledger.params));
  return { text: lines.map((l) => `${l}\n`).join(''), ...(next && { next }) };
}

/**
 * `GET /api/tangle-core/v1/addresses/{bech32}/statement`: a page of at most `pageSize` milestones that changed the
 * address (default 100, at most 1,000); the next one's path in the `Link` header (and `next` in JSON). Run through
 * the CSV export's gate (http/kit/csv-gate.ts): a few at a time per process, in slices, never holding the others.
 */
async function statement(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const model = parseBech32(param, ledger.params.bech32Hrp);
  const format = formatOf(query);
  const perPage = pageSizeOf(query.get('pageSize'));
  const range = await statementRange(ledger, query);
  const who = { bytes: addressBytes(model), model };
  const { text, next } = await csvGate.run(() => statementReply(ledger, who, range, format, perPage));
  return {
    body: text,
    contentType: format === 'json' ? JSON_TYPE : 'text/csv; charset=utf-8',
    headers: next === undefined ? {} : { link: `<${next}>; rel="next"` },
  };
}

export const accountRoutes: Route[] = [
  {
    pattern: '/api/tangle-core/v1/addresses/*/statement',
    path: /^\/api\/tangle-core\/v1\/addresses\/([^/]*)\/statement$/,
    handle: ({ ledger, params, query }) => unlessNotBuilt(() => statement(ledger, params[0]!, query)),
  },
];
