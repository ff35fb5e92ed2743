// bench/RESULTS.md is shared by the benchmark scripts: each owns one section between markers and leaves the rest.
// The sections are titled by the question they answer (SECTIONS, one place), and the file opens with a table of
// them: question → command → section, rewritten whenever a section is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = resolve(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

/** Every section, in the file's order: the question it answers and the command that writes (or produced) it. */
export const SECTIONS = [
  [
    'codec',
    'How fast are decoding, encoding, IDs, signatures and proof of work beside iota.js and iota-sdk?',
    'npm run bench',
  ],
  [
    'interleaved',
    'Do the codec targets hold when every implementation runs interleaved in one process?',
    'npm run bench:interleaved',
  ],
  [
    'hash',
    "How fast is tangle-core's BLAKE2b-256 beside hash-wasm and @noble/hashes, on the inputs ids hash?",
    'npm run bench:hash',
  ],
  [
    'bundle',
    'What does a web page pay for the codec package, and what does the package weigh?',
    'npm run bench:bundle',
  ],
  [
    'nova',
    'How fast is the Nova (IOTA 2.0) codec beside iota-sdk 2.0, and beside tangle-core on Stardust blocks of the same size?',
    'npm run bench:nova',
  ],
  [
    'ledger',
    'How fast does the ledger accept and commit, and answer its queries, at 1,000,000 transactions?',
    'npm run bench:ledger',
  ],
  [
    'rooms',
    "Did giving the ledger's concepts rooms of their own (issue 27) change its speed?",
    'node --expose-gc bench/ledger.mjs --transactions 1000000 --no-write, before and after, alternating',
  ],
  [
    'chains',
    'What do blocks that move chains (alias, foundry, NFT) cost to accept and commit?',
    'npm run bench:chains',
  ],
  ['http', 'How many requests a second does the API answer, and how fast?', 'npm run bench:http'],
  ['workers', 'What do worker processes add over one process?', 'npm run bench:workers'],
  [
    'block-reads',
    'What does a checked block read cost against the builds before the checks (issue 57)?',
    'node bench/block-reads.mjs ROOT_A ROOT_B…',
  ],
  [
    'side-by-side',
    'Is this build as fast as the builds before it, measured side by side on a busy machine (issues 57 and 59)?',
    'node bench/side-by-side.mjs http ROOT_A ROOT_B; … pool ROOT_A ROOT_B',
  ],
  [
    'load',
    'Does the API hold under sustained mixed load, with no errors and no growth in memory?',
    'npm run bench:load',
  ],
  ['postgres', 'What does the PostgreSQL store cost beside LMDB?', 'npm run bench:ledger -- --store postgres'],
  ['pg-clients', 'Which PostgreSQL client should the PostgreSQL store use?', 'npm run bench:pg-clients'],
  [
    'utxo-packed',
    "What did packing the IDs of a slot's UTXO changes into one buffer change (issue 44)?",
    'node --expose-gc bench/ledger.mjs --transactions 1000000 --no-write, before and after, alternating; then beside a busy core',
  ],
  [
    'integrity',
    'What does checking stored records before serving them cost?',
    'node --expose-gc bench/ledger.mjs --transactions 200000 --no-write, before and after',
  ],
  ['allocator', 'What does a small copy cost, and why are copies pooled?', 'node bench/allocator.mjs'],
  [
    'wallet',
    "How fast are a wallet's routes: posting blocks, the indexer at 1,000,000 outputs, a sync of 1,000 outputs?",
    'npm run bench:wallet',
  ],
  [
    'snapshot',
    "How fast is a network's snapshot imported, against merely reading it, and in how much memory?",
    'npm run bench:snapshot',
  ],
  [
    'history',
    "How fast are a network's milestones applied, from a file and by following a node, beside the ledger's own ingest?",
    'npm run bench:history',
  ],
  [
    'history-growth',
    'Does the rate hold as the history grows?',
    'node bench/history-growth.mjs --milestones 20000 --label NAME, per build, alternating',
  ],
  [
    'million',
    "What does a whole network's history cost at a million milestones (issue 58)?",
    'node bench/history-growth.mjs --store-only --milestones 1000000 --dir DIR; node bench/history-million.mjs DIR',
  ],
  [
    'store-file',
    "How large is an LMDB store's file, and did growing its map with the data (issue 56) cost speed?",
    'node --expose-gc bench/ledger.mjs --transactions 200000 --no-write; node bench/history.mjs --milestones 800 --peak-milestones 60 --no-write; node bench/snapshot.mjs --phase import FILE, before and after, alternating',
  ],
  [
    'events',
    'How does the event API (MQTT) hold 1,000 subscribers while the writer ingests at its full rate?',
    'npm run bench:events',
  ],
  [
    'explorer',
    "How fast does the explorer's archive answer at 1,000,000 outputs, and does a crowd of its clients slow the writer?",
    'npm run bench:explorer',
  ],
  [
    'writer-load',
    "Does the writer keep its rate while the archive's heaviest routes are offered 500 requests a second (open loop)?",
    'node bench/writer-load.mjs',
  ],
  [
    'csv-load',
    "Does a crowd of clients pulling the explorer's CSV export hold up /health and /info?",
    'npm run bench:csv-load',
  ],
  [
    'explorer-page',
    'What does the explorer page weigh on the wire, and how soon does a milestone page show its content?',
    'npm run bench:explorer-page',
  ],
  ['follow-hostile', 'Can a source the follower follows exhaust it (issue 57)?', 'node bench/follow-hostile.mjs'],
  ['poi', 'How fast is a proof of inclusion made on the archive and checked in the browser?', 'npm run bench:poi'],
  [
    'archive-postgres',
    "What does sealing PostgreSQL's archive rows cost its writer and readers (issue 57)?",
    'npx vite-node bench/archive-postgres.mjs -- [--src DIR]',
  ],
  [
    'accounts',
    "What do the accounts' history cost to applying a milestone, and is a balance far back as fast as the latest?",
    'node bench/accounts.mjs --db DIR; tangle-core import-milestones, before and after',
  ],
  [
    'holders',
    'Are the holders, collections and the richest far back as fast as at the latest (issue 61)?',
    'npx vite-node bench/holders.mjs -- --demo 400',
  ],
].map(([name, question, command]) => ({ name, question, command }));

/** GitHub's anchor of a heading. */
const anchor = (title) =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function intro(present) {
  const rows = SECTIONS.filter((s) => present.has(s.name)).map(
    (s) => `| ${s.question} | \`${s.command}\` | [${s.name}](#${anchor(s.question)}) |`,
  );
  return `# Benchmarks

Each script writes its own section of this file, on the machine it runs on, every implementation side by side in
one run. Ratios above 1 mean tangle-core is faster.

| question | command | section |
|---|---|---|
${rows.join('\n')}
`;
}

/** `markdown` under the section's question as its title (a leading \`## \` line of its own is replaced). */
export function writeSection(name, markdown) {
  const section = SECTIONS.find((s) => s.name === name);
  if (section === undefined) throw new Error(`bench/results-file.mjs: no section ${name} in SECTIONS`);
  const text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
  const sections = new Map();
  for (const m of text.matchAll(/<!-- section:([\w-]+) -->\n([\s\S]*?)<!-- end:\1 -->\n?/g)) sections.set(m[1], m[2]);
  const body = markdown.replace(/^## [^\n]*\n+/, '');
  sections.set(name, `## ${section.question}\n\n${body.endsWith('\n') ? body : `${body}\n`}`);
  sections.delete('intro');
  const names = SECTIONS.map((s) => s.name).filter((n) => sections.has(n));
  const out = [`<!-- section:intro -->\n${intro(sections)}<!-- end:intro -->\n`];
  for (const n of names) out.push(`<!-- section:${n} -->\n${sections.get(n)}<!-- end:${n} -->\n`);
  writeFileSync(FILE, out.join('\n'));
}

/** Rewrites every section present under its title, and the table (after SECTIONS changed). */
export function rewriteAll() {
  const text = readFileSync(FILE, 'utf8');
  for (const m of text.matchAll(/<!-- section:([\w-]+) -->\n([\s\S]*?)<!-- end:\1 -->\n?/g))
    if (m[1] !== 'intro') writeSection(m[1], m[2]);
}
