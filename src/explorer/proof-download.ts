import { ApiError } from './api.js';
import { h, to } from './dom.js';

// A block's proof as a file (issue 60): the node's proof route read when the reader asks, and saved as a .json file
// from a blob URL (the page's Content-Security-Policy governs what it loads, not what it saves). A referenced-block
// proof for every block a milestone referenced, an applied-block proof as well where its transaction was applied.

interface Metadata {
  referencedByMilestoneIndex?: number;
  ledgerInclusionState?: string;
}

async function save(kind: 'referenced' | 'applied', id: string, status: HTMLElement): Promise<void> {
  status.className = '';
  status.textContent = `Making the ${kind}-block proof…`;
  try {
    const res = await fetch(`/api/poi/v1/${kind}-block/create/${id}`, { headers: { accept: 'application/json' } });
    const text = await res.text();
    if (!res.ok) {
      const why = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? res.statusText;
      throw new ApiError(res.status, why);
    }
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = h('a', { href: url, download: `proof-${kind}-${id}.json`, hidden: '' });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has read it by then
    status.textContent = `Saved proof-${kind}-${id}.json.`;
  } catch (e) {
    status.className = 'error';
    const code = e instanceof ApiError ? `${e.status}: ` : '';
    status.textContent = `No ${kind}-block proof: ${code}${(e as Error).message}`;
  }
}

/** The block page's proof section; none for a block no milestone referenced yet (there is no proof). */
export function proofSection(id: string, meta: Metadata): HTMLElement[] {
  if (meta.referencedByMilestoneIndex === undefined) return [];
  const status = h('p', { role: 'status', class: 'proof-status' });
  const button = (kind: 'referenced' | 'applied', text: string) => {
    const b = h('button', { type: 'button', id: `download-${kind}` }, text);
    b.addEventListener('click', () => void save(kind, id, status));
    return b;
  };
  return [
    h('h2', {}, 'Proof'),
    h(
      'p',
      { class: 'proof-actions' },
      button('referenced', 'Download proof (referenced by the milestone)'),
      meta.ledgerInclusionState === 'included' && button('applied', 'Download proof (its transaction applied)'),
      to('verify', 'Verify a proof file'),
    ),
    status,
  ];
}
