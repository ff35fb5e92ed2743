import { find, get } from '../api.js';
import { facts, h, idLink, page, table } from '../dom.js';
import { historyCsv, holdings } from '../holdings.js';
import { amount, networkInfo, time } from '../network.js';

// An address: its total and available balance, and its history, newest first, a page at a time.

interface Updates {
  items: { outputId: string; isSpent: boolean; milestoneIndex: number; milestoneTimestamp: number }[];
  cursor?: string;
}
const PAGE = 25;

/** A button that fetches the whole history as CSV and offers it as a file. */
function download(address: string): HTMLElement {
  const button = h('button', { type: 'button' }, 'Download the history (CSV)');
  button.addEventListener('click', async () => {
    const link = h('a', { href: URL.createObjectURL(await historyCsv(address)), download: `${address}.csv` });
    link.textContent = `${address}.csv`;
    button.replaceWith(link);
    link.click();
  });
  return h('p', {}, button);
}

export async function addressPage(address: string, cursor?: string): Promise<HTMLElement | undefined> {
  const { baseToken } = await networkInfo();
  const balance = await find<{ totalBalance: string; sigLockedBalance: string; ledgerIndex: number }>(
    `/api/explorer/v2/balance/${address}`,
  );
  const query = cursor === undefined ? `pageSize=${PAGE}` : `cursor=${encodeURIComponent(cursor)}`;
  const updates = await get<Updates>(`/api/explorer/v2/ledger/updates/by-address/${address}?sort=newest&${query}`);
  if (balance === undefined && updates.items.length === 0) return undefined;
  return page(
    `Address ${address}`,
    facts([
      ['total balance', amount(balance?.totalBalance ?? '0', baseToken)],
      ['available', amount(balance?.sigLockedBalance ?? '0', baseToken)],
      ['as of milestone', balance === undefined ? '—' : balance.ledgerIndex],
    ]),
    ...(await holdings(address)),
    h('h2', {}, 'History'),
    download(address),
    table(
      'History',
      ['milestone', 'time', 'output', 'change'],
      updates.items.map((u) => [
        h('a', { href: `#/milestone/${u.milestoneIndex}` }, u.milestoneIndex),
        time(u.milestoneTimestamp),
        idLink('output', u.outputId),
        u.isSpent ? 'spent' : 'received',
      ]),
    ),
    updates.cursor === undefined
      ? false
      : h('p', {}, h('a', { href: `#/address/${address}/${encodeURIComponent(updates.cursor)}` }, 'Older')),
  );
}
