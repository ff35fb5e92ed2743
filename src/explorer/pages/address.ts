import { outputAmountOf } from '../../stardust/block-layout.js';
import { accountViews, type Latest } from '../accounts.js';
import { ApiError, bytes, find, get } from '../api.js';
import { facts, h, idLink, page, table } from '../dom.js';
import { historyCsv, holdings } from '../holdings.js';
import { amount, type Info, networkInfo, time } from '../network.js';

// An address: its total and available balance (the latest and at a chosen date, its statement for a range:
// accounts.ts), and its history, newest first, a page at a time (Older and Newer), each update with the amount it
// received or spent (the output looked up: the route names only its ID).

interface Update {
  outputId: string;
  isSpent: boolean;
  milestoneIndex: number;
  milestoneTimestamp: number;
}
interface Updates {
  items: Update[];
  cursor?: string;
}
const PAGE = 25;
const updatesOf = (address: string, query: string) =>
  get<Updates>(`/api/explorer/v2/ledger/updates/by-address/${address}?${query}`);
/** The route's cursor naming an update (the first of a page), for a page of `size`. */
const cursorAt = (u: Update, size: number) => `${u.milestoneIndex}.${u.outputId}.${u.isSpent}.${size}`;

/**
 * The page before this one (newer updates): the route pages one way at a time, so the `PAGE` updates after this page's
 * first are read oldest first, and the newer page starts at the last of them; fewer than `PAGE`: the newest page.
 */
async function newerPage(address: string, first: Update | undefined): Promise<string | undefined> {
  if (first === undefined) return undefined;
  const after = (await updatesOf(address, `sort=oldest&cursor=${encodeURIComponent(cursorAt(first, PAGE + 1))}`)).items;
  if (after.length <= 1) return undefined;
  return after.length <= PAGE
    ? `#/address/${address}`
    : `#/address/${address}/${encodeURIComponent(cursorAt(after[PAGE]!, PAGE))}`;
}

/**
 * Each update's amount, in the network's unit (one request an output: an output spent and received, asked once). The
 * output's serialized bytes, not its JSON: 46 bytes for a basic output against some 500 with its metadata, and every
 * output type writes its amount (uint64, little-endian) right after its type byte (TIP-18).
 */
async function amountsOf(items: Update[], token: Info['baseToken']): Promise<Map<string, string>> {
  const ids = [...new Set(items.map((u) => u.outputId))];
  const found = await Promise.all(
    ids.map((id) =>
      bytes(`/api/core/v2/outputs/${id}`).catch((e) => {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }),
    ),
  );
  return new Map(ids.map((id, i) => [id, found[i] === undefined ? '?' : amount(outputAmountOf(found[i]!), token)]));
}

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
  const info = await networkInfo();
  const { baseToken, protocol } = info;
  const query = cursor === undefined ? `pageSize=${PAGE}` : `cursor=${encodeURIComponent(cursor)}`;
  const [accounts, updates] = await Promise.all([
    accountViews(address, info),
    updatesOf(address, `sort=newest&${query}`),
  ]);
  // The latest balance from the accounts (0 where it holds nothing, no 404 asked); a node without them: the route's.
  const balance = accounts.latest ?? (await find<Latest>(`/api/explorer/v2/balance/${address}`));
  if ((balance === undefined || balance.totalBalance === '0') && updates.items.length === 0) return undefined;
  const [amounts, newer] = await Promise.all([
    amountsOf(updates.items, baseToken),
    cursor === undefined ? undefined : newerPage(address, updates.items[0]),
  ]);
  const pages: HTMLElement[] = [];
  if (newer !== undefined) pages.push(h('a', { href: newer }, 'Newer'));
  if (updates.cursor !== undefined)
    pages.push(h('a', { href: `#/address/${address}/${encodeURIComponent(updates.cursor)}` }, 'Older'));
  return page(
    `Address ${address}`,
    facts([
      ['total balance', amount(balance?.totalBalance ?? '0', baseToken)],
      ['available', amount(balance?.availableBalance ?? '0', baseToken)],
      ['as of milestone', balance === undefined ? '—' : balance.ledgerIndex],
    ]),
    ...accounts.sections,
    ...(await holdings(address, protocol.bech32Hrp)),
    h('h2', {}, 'History'),
    download(address),
    table(
      'History',
      ['milestone', 'time', 'output', 'change'],
      updates.items.map((u) => [
        h('a', { href: `#/milestone/${u.milestoneIndex}` }, u.milestoneIndex),
        time(u.milestoneTimestamp),
        idLink('output', u.outputId),
        `${u.isSpent ? 'spent' : 'received'} ${amounts.get(u.outputId)}`,
      ]),
    ),
    pages.length > 0 && h('nav', { class: 'pages', 'aria-label': 'History pages' }, ...pages),
  );
}
