import { ApiError, lookup } from './api.js';
import { h, page } from './dom.js';
import { networkInfo } from './network.js';
import { addressPage } from './pages/address.js';
import { analyticsPage } from './pages/analytics.js';
import { blockPage, transactionPage } from './pages/block.js';
import { collectionPage } from './pages/collection.js';
import { homePage } from './pages/home.js';
import { milestonePage } from './pages/milestone.js';
import { outputPage } from './pages/output.js';
import { richestPage } from './pages/richest.js';
import { tokenPage } from './pages/token.js';
import { routeOf } from './search.js';

// The explorer in the browser (issue 47): a page per route after the hash (#/milestone/120, #/block/0x…), each built
// from the public API's answers. A route that names nothing the node holds says so; a failure says what failed.

const main = () => document.getElementById('main')!;

/** The page a route names; undefined: nothing by that name. */
async function pageOf(route: string[]): Promise<HTMLElement | undefined> {
  const [kind = '', id = '', more] = route;
  switch (kind) {
    case '':
      return homePage();
    case 'milestone':
      return (await holds(kind, id)) ? milestonePage(Number(id)) : undefined;
    case 'block':
      return (await holds(kind, id)) ? blockPage(id) : undefined;
    case 'transaction':
      return (await holds(kind, id)) ? transactionPage(id) : undefined;
    case 'output':
      return (await holds(kind, id)) ? outputPage(id) : undefined;
    case 'address':
      return addressPage(id, more === undefined ? undefined : decodeURIComponent(more));
    case 'richest':
      return richestPage();
    case 'collection':
      return collectionPage(id.toLowerCase(), more === undefined ? undefined : decodeURIComponent(more), route[3]);
    case 'token':
      return tokenPage(id.toLowerCase(), more === undefined ? undefined : decodeURIComponent(more), route[3]);
    case 'analytics':
      return analyticsPage(route.slice(1).map(decodeURIComponent));
    case 'verify': // the codec's proof check in a chunk of its own, loaded by this page only
      return (await import('./pages/verify.js')).verifyPage();
    default:
      return undefined;
  }
}

/** The form of each kind's name in a route. */
const NAMES: Record<string, RegExp> = {
  milestone: /^[0-9]{1,10}$/,
  block: /^0x[0-9a-f]{64}$/i,
  transaction: /^0x[0-9a-f]{64}$/i,
  output: /^0x[0-9a-f]{68}$/i,
};

/**
 * Whether the node holds the milestone, block, transaction or output a route names, asked of the lookup route (a
 * miss is 200 there): a page of what is not held then fetches nothing that answers 404, which the browser would log
 * as a console error. A malformed name is asked nothing.
 */
async function holds(kind: string, id: string): Promise<boolean> {
  if (!NAMES[kind]!.test(id)) return false;
  const found = await lookup(id.toLowerCase());
  return kind === 'milestone' ? found.kind === 'milestone' && found.index === Number(id) : found.kind === kind;
}

/** "milestone 99999", "block 0x…": what a route names, in words. */
const named = (route: string[]) =>
  route
    .filter((r) => r !== '')
    .map(decodeURIComponent)
    .join(' ');
const notFound = (what: string) => page('Not found', h('p', {}, `This node holds nothing named ${what}.`));

/**
 * Shows a page. Focus moves to the search form, the start of every page: the next Tab reaches the search box, and a
 * status line says which page is shown (the page itself is not read out whole).
 */
function show(shown: HTMLElement): void {
  main().replaceChildren(shown);
  const title = shown.querySelector('h1')?.textContent ?? 'explorer';
  document.title = `${title} · tangle-core explorer`;
  document.getElementById('status')!.textContent = `Shown: ${title}`;
  document.getElementById('search')!.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

async function render(): Promise<void> {
  const route = location.hash.replace(/^#\/?/, '').split('/');
  try {
    show((await pageOf(route)) ?? notFound(named(route) || 'so'));
  } catch (e) {
    const why = e instanceof ApiError ? `${e.status === 0 ? '' : `${e.status}: `}${e.message}` : String(e);
    show(page('Something went wrong', h('p', { class: 'error' }, why)));
  }
}

async function search(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const input = document.getElementById('q') as HTMLInputElement;
  const { protocol } = await networkInfo();
  const found = await routeOf(input.value, protocol.bech32Hrp).catch((e: Error) => ({
    title: 'Something went wrong',
    says: e.message,
  }));
  if (!('route' in found)) show(page(found.title, h('p', {}, found.says)));
  else if (location.hash === `#/${found.route}`)
    await render(); // the page shown: no hash change to wait for
  else location.hash = `#/${found.route}`;
}

window.addEventListener('hashchange', () => void render());
document.getElementById('search')!.addEventListener('submit', (e) => void search(e as SubmitEvent));
void render();
