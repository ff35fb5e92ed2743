import { get } from '../api.js';
import { h, page, table, to } from '../dom.js';
import { amount, networkInfo } from '../network.js';

// The richest addresses and the token distribution at the latest milestone.

interface Richest {
  top: { address: string; balance: string }[];
  ledgerIndex: number;
}
interface Distribution {
  distribution: { range: { start: number; end: number }; addressCount: string; totalBalance: string }[];
}

export async function richestPage(): Promise<HTMLElement> {
  const [{ baseToken }, richest, spread] = await Promise.all([
    networkInfo(),
    get<Richest>('/api/explorer/v2/ledger/richest-addresses?top=50'),
    get<Distribution>('/api/explorer/v2/ledger/token-distribution'),
  ]);
  const raw = (n: number) => amount(BigInt(n), baseToken);
  return page(
    `Richest addresses at milestone ${richest.ledgerIndex}`,
    table(
      'Richest addresses',
      ['#', 'address', 'balance'],
      richest.top.map((r, i) => [i + 1, to(`address/${r.address}`, r.address, 'id'), amount(r.balance, baseToken)]),
    ),
    h('h2', {}, 'Token distribution'),
    table(
      'Token distribution',
      ['balances', 'addresses', 'total'],
      spread.distribution.map((d) => [
        `at least ${raw(d.range.start)}, below ${raw(d.range.end)}`,
        d.addressCount,
        amount(d.totalBalance, baseToken),
      ]),
    ),
  );
}
