import { ApiError } from './api.js';
import { h, page } from './dom.js';
import { networkInfo } from './network.js';
import { addressPage } from './pages/address.js';
import { analyticsPage } from './pages/analytics.js';
import { blockPage, transactionPage } from './pages/block.js';
import { homePage } from './pages/home.js';
import { milestonePage } from './pages/milestone.js';
import { outputPage } from './pages/output.js';
import { richestPage } from './pages/richest.js';
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
      return /^[0-9]{1,10}$/.test(id) ? milestonePage(Number(id)) : undefined;
    case 'block':
      return blockPage(id);
    case 'transaction':
      return transactionPage(id);
    case 'output':
      return outputPage(id);
    case 'address':
      return addressPage(id, more === undefined ? undefined : decodeURIComponent(more));
    case 'richest':
      return richestPage();
    case 'analytics':
      return analyticsPage(route.slice(1).map(decodeURIComponent));
    case 'verify': // the codec's proof check in a chunk of its own, loaded by this page only
      return (await import('./pages/verify.js')).verifyPage();
    default:
      return undefined;
  }
}

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
    show((await pageOf(route)) ?? notFound(route.join('/') || 'so'));
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
