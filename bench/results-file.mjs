// bench/RESULTS.md is shared by the benchmark scripts: each owns one section between markers and leaves the rest.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = resolve(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
const ORDER = ['intro', 'codec', 'interleaved', 'ledger', 'chains', 'http', 'workers', 'load'];

export function writeSection(name, markdown) {
  const text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
  const sections = new Map();
  for (const m of text.matchAll(/<!-- section:(\w+) -->\n([\s\S]*?)<!-- end:\1 -->\n?/g)) sections.set(m[1], m[2]);
  sections.set(name, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  const names = [...ORDER.filter((n) => sections.has(n)), ...[...sections.keys()].filter((n) => !ORDER.includes(n))];
  writeFileSync(FILE, names.map((n) => `<!-- section:${n} -->\n${sections.get(n)}<!-- end:${n} -->\n`).join('\n'));
}
