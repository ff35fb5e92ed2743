import { h, page } from '../dom.js';
import { type Checked, checkProofText, keySets } from '../proof-check.js';

// Verifying a proof file (issue 60): chosen with the file input or dropped on the zone, read in the page and checked
// with the codec package against the key sets read when the page loaded. Nothing is sent anywhere: the verdict says
// valid, with the key set that signed it, or why not.

function verdictOf(c: Checked, file: string, ms: number): (Node | string)[] {
  const took = h('span', { class: 'muted' }, ` (checked in this browser in ${ms.toFixed(1)} ms)`);
  if (c.valid) return [h('strong', {}, 'Valid'), `: ${file} proves ${c.says}; signed by ${c.keys}'s keys.`, took];
  const where = c.path === '' ? '' : ` at ${c.path}`;
  const keys = c.keys === undefined ? '' : ` (${c.keys}'s keys)`;
  return [h('strong', {}, 'Not valid'), `: ${file}: ${c.code}${where}: ${c.reason}${keys}.`, took];
}

export async function verifyPage(): Promise<HTMLElement> {
  const sets = await keySets();
  const verdict = h('p', { id: 'verdict', role: 'status', 'aria-live': 'polite' });
  const input = h('input', { type: 'file', id: 'proof-file', accept: '.json,application/json' }) as HTMLInputElement;
  const zone = h('div', { id: 'drop-zone', class: 'drop-zone' }, 'or drop a proof file here');
  const check = async (file: File) => {
    verdict.className = '';
    verdict.textContent = `Checking ${file.name}…`;
    const text = await file.text();
    const started = performance.now();
    const checked = await checkProofText(text, sets);
    verdict.className = checked.valid ? 'valid' : 'error';
    verdict.replaceChildren(...verdictOf(checked, file.name, performance.now() - started));
  };
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file !== undefined) void check(file);
  });
  zone.addEventListener('dragover', (e) => {
    e.preventDefault(); // a drop target
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault(); // read here, not opened by the browser
    zone.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file !== undefined) void check(file);
  });
  return page(
    'Verify a proof',
    h(
      'p',
      {},
      'A proof of inclusion (a block page’s “Download proof”, inx-poi’s or inx-chronicle’s, or an output’s story) is ',
      'checked here, in this browser, against the milestone keys below: nothing is sent anywhere.',
    ),
    h('p', {}, h('label', { for: 'proof-file' }, 'Proof file (.json) '), input),
    zone,
    verdict,
    h('h2', {}, 'Keys'),
    h(
      'ul',
      {},
      ...sets.map((s) =>
        h('li', {}, `${s.name}: ${count(s.keys.threshold, 'signature')} of ${count(s.keys.keyRanges.length, 'key')}`),
      ),
    ),
  );
}

/** `1 key`, `10 keys`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
