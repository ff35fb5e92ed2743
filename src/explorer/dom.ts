// Building the page: elements from text and children only (never markup from a string), so nothing a node answers can
// become a script.

export type Child = Node | string | number | bigint | undefined | null | false;

/** An element with attributes and children (false, null and undefined are left out). */
export function h(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** A link within the explorer (a route after the hash). */
export const to = (route: string, text: Child, className = ''): HTMLElement =>
  h('a', { href: `#/${route}`, ...(className === '' ? {} : { class: className }) }, text);

/** An ID, linked to its page. */
export const idLink = (kind: string, id: string): HTMLElement => to(`${kind}/${id}`, id, 'id');

/** A table of rows under headers (`label`: what it lists, for a screen reader; the heading above says it too). */
export function table(label: string, headers: string[], rows: Child[][]): HTMLElement {
  return h(
    'table',
    { 'aria-label': label },
    h('thead', {}, h('tr', {}, ...headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
  );
}

/** Name and value pairs. */
export function facts(pairs: [string, Child][]): HTMLElement {
  return h('dl', {}, ...pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/** A page: its heading and sections. */
export function page(title: string, ...sections: Child[]): HTMLElement {
  return h('section', {}, h('h1', {}, title), ...sections);
}
