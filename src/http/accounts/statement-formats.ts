import { toHex } from '../../codec/index.js';
import type { Balance } from '../../ledger/index.js';
import type { Address } from '../../stardust/address.js';
import { inUnit } from '../kit/index.js';
import type { StatementPage, StatementRow } from './account-statement.js';

// A statement page (account-statement.ts) as JSON, as CSV for people (amounts in the base unit's integers, each beside
// it in the network's unit, and the balance after each row: it can be checked line by line), and as Koinly's
// universal CSV (a tax tool's import).

export type StatementFormat = 'json' | 'csv' | 'koinly';
export const STATEMENT_FORMATS: readonly StatementFormat[] = ['json', 'csv', 'koinly'];

/** The network's unit and its base unit (info.ts baseToken). */
export interface Unit {
  unit: string;
  subunit: string;
  decimals: number;
}

const iso = (t: number) => new Date(t * 1000).toISOString();
const balanceJson = (b: Balance) => ({ totalBalance: String(b.total), availableBalance: String(b.available) });
const tokensJson = (m: Map<string, bigint>) => [...m].map(([id, amount]) => ({ id, amount: String(amount) }));

export function statementJson(
  page: StatementPage,
  bech32: string,
  times: { from: number; to: number },
  names: (a: Address) => string,
): object {
  return {
    address: bech32,
    from: { milestoneIndex: page.from, milestoneTimestamp: times.from },
    to: { milestoneIndex: page.to, milestoneTimestamp: times.to },
    opening: balanceJson(page.opening),
    closing: balanceJson(page.closing),
    rows: page.rows.map((r) => ({
      kind: r.kind,
      milestoneIndex: r.milestoneIndex,
      milestoneTimestamp: r.milestoneTimestamp,
      ...(r.transactionId && { transactionId: toHex(r.transactionId) }),
      ...(r.outputId && { outputId: toHex(r.outputId) }),
      in: String(r.in),
      out: String(r.out),
      net: String(r.net),
      availableNet: String(r.availableNet),
      counterparties: r.counterparties.map(names).sort(),
      nativeTokensIn: tokensJson(r.tokensIn),
      nativeTokensOut: tokensJson(r.tokensOut),
      nftsIn: r.nftsIn.map((id) => toHex(id)),
      nftsOut: r.nftsOut.map((id) => toHex(id)),
      storageDepositReturnOwed: String(r.returnsOwed),
      storageDepositReturnPaid: String(r.returnsPaid),
    })),
  };
}

/** A CSV cell: quoted where it holds a separator or a quote (RFC 4180). */
const cell = (v: string | number | bigint) => {
  const text = String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const tokensCell = (m: Map<string, bigint>) => [...m].map(([id, n]) => `${id}:${n}`).join(';');

export function statementCsv(page: StatementPage, unit: Unit, names: (a: Address) => string): string[] {
  const both = (name: string) => [`${name} (${unit.subunit})`, `${name} (${unit.unit})`];
  const header = [
    'kind',
    'milestoneIndex',
    'milestoneTimestamp (unix seconds)',
    'date (UTC)',
    'transactionId',
    'outputId',
    ...['in', 'out', 'net', 'availableNet'].flatMap(both),
    ...['totalBalance', 'availableBalance'].flatMap(both),
    'counterparties',
    'nativeTokensIn',
    'nativeTokensOut',
    'nftsIn',
    'nftsOut',
    ...['storageDepositReturnOwed', 'storageDepositReturnPaid'].flatMap(both),
  ];
  const amounts = (...xs: bigint[]) => xs.flatMap((x) => [x, inUnit(x, unit.decimals)]);
  const lines = [header.join(',')];
  const balanceRow = (kind: string, index: number, b: Balance) =>
    [kind, index, '', '', '', '', ...amounts(0n, 0n, 0n, 0n, b.total, b.available), '', '', '', '', '']
      .concat(amounts(0n, 0n))
      .join(',');
  lines.push(balanceRow('opening', page.from, page.opening));
  let [total, available] = [page.opening.total, page.opening.available];
  for (const r of page.rows) {
    total += r.net;
    available += r.availableNet;
    lines.push(
      [
        r.kind,
        r.milestoneIndex,
        r.milestoneTimestamp,
        iso(r.milestoneTimestamp),
        r.transactionId ? toHex(r.transactionId) : '',
        r.outputId ? toHex(r.outputId) : '',
        ...amounts(r.in, r.out, r.net, r.availableNet, total, available),
        cell(r.counterparties.map(names).sort().join(';')),
        tokensCell(r.tokensIn),
        tokensCell(r.tokensOut),
        r.nftsIn.map((id) => toHex(id)).join(';'),
        r.nftsOut.map((id) => toHex(id)).join(';'),
        ...amounts(r.returnsOwed, r.returnsPaid),
      ].join(','),
    );
  }
  lines.push(balanceRow('closing', page.to, page.closing));
  return lines;
}

/**
 * Koinly's universal import format: its columns exactly as Koinly documents them ("How to create a custom CSV file
 * with your data", https://support.koinly.io/en/articles/9489976, the Universal template; the same twelve in
 * https://adastry.io/learn/docs/export/transaction-csv, a wallet's Koinly export). Dates in UTC, `YYYY-MM-DD
 * HH:mm:ss UTC`; one asset a line, the network's (native tokens and NFTs moved are named in the description); no
 * fee (Stardust has none). A row that moved no base tokens (a timelock ending) is not a transaction to Koinly.
 */
export const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

const koinlyDate = (t: number) => `${iso(t).slice(0, 19).replace('T', ' ')} UTC`;

function description(r: StatementRow): string {
  const parts = [`${r.kind} at milestone ${r.milestoneIndex}`];
  if (r.tokensIn.size > 0) parts.push(`native tokens in ${tokensCell(r.tokensIn)}`);
  if (r.tokensOut.size > 0) parts.push(`native tokens out ${tokensCell(r.tokensOut)}`);
  if (r.nftsIn.length > 0) parts.push(`NFTs in ${r.nftsIn.map((id) => toHex(id)).join(';')}`);
  if (r.nftsOut.length > 0) parts.push(`NFTs out ${r.nftsOut.map((id) => toHex(id)).join(';')}`);
  return parts.join('; ');
}

export function statementKoinly(page: StatementPage, unit: Unit): string[] {
  const lines = [KOINLY_COLUMNS.join(',')];
  for (const r of page.rows) {
    if (r.net === 0n) continue;
    const amount = inUnit(r.net < 0n ? -r.net : r.net, unit.decimals);
    const [sent, received] =
      r.net < 0n
        ? [
            [amount, unit.unit],
            ['', ''],
          ]
        : [
            ['', ''],
            [amount, unit.unit],
          ];
    const hash = r.transactionId ?? r.outputId;
    const row = [koinlyDate(r.milestoneTimestamp), ...sent!, ...received!, '', '', '', '', '', description(r)];
    lines.push([...row.map(cell), hash ? toHex(hash) : ''].join(','));
  }
  return lines;
}
