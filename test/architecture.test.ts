// The shape of the source tree (issue 10): rooms without import cycles, type codes by name, small files, short lines.
// Read from the files as text, so these hold for every file added later too.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const src = resolve(here, '../src');
const files = readdirSync(src, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'))
  .sort();
const handWritten = files.filter((f) => !f.endsWith('.gen.ts'));
const text = new Map(files.map((f) => [f, readFileSync(join(src, f), 'utf8')]));

/** The src files a file imports at run time (type-only imports leave no trace in the build). */
function runtimeImports(file: string): string[] {
  const out: string[] = [];
  for (const m of text.get(file)!.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'(\.[^']+)';/gms)) {
    if (m[2] !== undefined) continue;
    const names = /^\{([^}]*)\}$/.exec(m[3]!.trim());
    const onlyTypes =
      names !== null && names[1]!.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '));
    if (!onlyTypes) out.push(normalize(join(dirname(file), m[4]!)).replace(/\.js$/, '.ts'));
  }
  return out;
}
const edges = new Map(files.map((f) => [f, runtimeImports(f)]));

/** Every src file a file names: imports and re-exports, type-only ones and `import()` too (issue 44: no circle). */
function everyImport(file: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.get(file)!.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)'(\.[^']+)'/g))
    out.add(normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
  return out;
}
const room = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : f.replace(/\.ts$/, ''));

/** A cycle in a directed graph, as the list of its nodes, or undefined. */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 'done') return undefined;
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      const c = visit(m);
      if (c !== undefined) return c;
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of graph.keys()) {
    const c = visit(n);
    if (c !== undefined) return c;
  }
  return undefined;
}

const folders = new Set(files.filter((f) => f.includes('/')).map((f) => dirname(f)));

/**
 * Folders without a face (an index.ts), and why: their files are imported by name. Every other folder's files are
 * reached from outside it only through its face (the outermost one: ledger/index.ts from outside ledger/).
 */
const FACELESS: Record<string, string> = {
  stardust: 'the protocol’s vocabulary, one file per type: a face would list its hundreds of names again',
  'stardust/payload': 'stardust’s payloads, likewise',
  util: 'unrelated helpers, two of them Node’s (optional-peer.ts, worker-file.ts) beside the browser codec’s bytes.ts',
  http: 'server.ts and routes.ts are themselves the faces of the HTTP API (its APIs, core/ to poi/, have faces)',
  'nova/validate': 'inside nova/, whose face exports it',
  cli: 'the command: bin.ts and main.ts, nothing imports it',
  explorer: 'the browser page, its own build (tsconfig.json): nothing of src/ imports it',
  'explorer/pages': 'the pages, likewise',
};

/**
 * The package's entry takes Nova as its generated namespace object (nova/namespace.gen.ts: a pure call a page drops
 * when it never names `nova`); the face cannot hold it, for the namespace is generated from the face.
 */
const BYPASS_ALLOWED = new Set(['codec-entry.ts → nova/namespace.gen.ts']);

/** Whether `file` importing `dep` reaches past a face: into a faced folder it is outside of, not by its face. */
function bypasses(file: string, dep: string, faced: Set<string>): boolean {
  if (BYPASS_ALLOWED.has(`${file} → ${dep}`)) return false;
  const outermost = [...faced]
    .filter((d) => dep.startsWith(`${d}/`) && !file.startsWith(`${d}/`))
    .sort((a, b) => a.length - b.length)[0];
  return outermost !== undefined && dep !== `${outermost}/index.ts`;
}

describe('the source tree', () => {
  it('every relative import names a file that exists (so the graph below is the real one)', () => {
    for (const [f, deps] of edges) for (const d of deps) expect(files, `${f} imports ${d}`).toContain(d);
  });

  it('has no circle anywhere, counting type-only imports and import() (issue 44)', () => {
    const graph = new Map(files.map((f) => [f, everyImport(f)]));
    expect(findCycle(graph)).toBeUndefined();
    // The test sees a circle where there is one: two files naming each other by type only.
    const circle = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['a.ts'])],
    ]);
    expect(findCycle(circle)).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });

  it("the ledger's rooms reach each other, and the rest of src/ reaches them, only through their faces (issue 44)", () => {
    const ledgerRoom = (f: string) => /^ledger\/([^/]+)\//.exec(f)?.[1];
    const rooms = new Set(files.map(ledgerRoom).filter((r) => r !== undefined));
    expect([...rooms].sort()).toEqual([
      'analytics',
      'archive',
      'common',
      'core',
      'history',
      'indexer',
      'ingest',
      'postgres',
      'snapshot',
      'store',
    ]);
    for (const r of rooms) expect(files, `ledger/${r} has a face`).toContain(`ledger/${r}/index.ts`);
    const through: string[] = [];
    for (const f of files)
      for (const d of everyImport(f)) {
        const r = ledgerRoom(d);
        if (r !== undefined && ledgerRoom(f) !== r && d !== `ledger/${r}/index.ts`) through.push(`${f} → ${d}`);
      }
    expect(through).toEqual([]);
  });

  it('reaches a room with a face only through it, and every folder has a face or a reason not to (issue 59)', () => {
    const faced = new Set(files.filter((f) => f.endsWith('/index.ts')).map((f) => dirname(f)));
    expect([...folders].filter((d) => !faced.has(d) && FACELESS[d] === undefined)).toEqual([]);
    expect(Object.keys(FACELESS).filter((d) => faced.has(d) || !folders.has(d))).toEqual([]);
    const found = files.flatMap((f) =>
      [...everyImport(f)].filter((d) => bypasses(f, d, faced)).map((d) => `${f} → ${d}`),
    );
    expect(found).toEqual([]);
    // The rule sees a bypass: a room's file from outside it, or a ledger room's face from outside the ledger.
    expect(bypasses('http/core/info.ts', 'codec/hex.ts', faced)).toBe(true);
    expect(bypasses('node/posting.ts', 'ledger/core/index.ts', faced)).toBe(true);
    expect(bypasses('ledger/history/cone.ts', 'ledger/core/index.ts', faced)).toBe(false);
    expect(bypasses('codec/reader.ts', 'codec/hex.ts', faced)).toBe(false);
    // An API's files from outside it (the CLI's statement, a sibling API) go by the API's face.
    expect(bypasses('cli/statement.ts', 'http/accounts/account-points.ts', faced)).toBe(true);
    expect(bypasses('http/explorer/lookup-route.ts', 'http/core/index.ts', faced)).toBe(false);
  });

  it('has no import cycle between files', () => {
    const graph = new Map([...edges].map(([f, d]) => [f, new Set(d)]));
    expect(findCycle(graph)).toBeUndefined();
  });

  it('has no import cycle between rooms (codec, stardust, crypto, validate, ledger, http, cli, …)', () => {
    const graph = new Map<string, Set<string>>();
    for (const [f, deps] of edges) {
      for (const d of deps) if (room(f) !== room(d)) graph.set(room(f), (graph.get(room(f)) ?? new Set()).add(room(d)));
    }
    expect(findCycle(graph)).toBeUndefined();
    // The domain-free core stands on nothing of the domain.
    expect([...(graph.get('codec') ?? [])].filter((r) => r !== 'errors')).toEqual([]);
  });

  it("imports only from rooms above it in docs/architecture.md's picture, and the picture names every room (issue 59)", () => {
    const doc = readFileSync(resolve(src, '../docs/architecture.md'), 'utf8');
    const picture = /```\n(errors\.ts[\s\S]*?)```/.exec(doc)![1]!;
    // The picture's names in order: the column before the descriptions, under `ledger/` or `http/` when drawn
    // under them (├─ or └─).
    const order: string[] = [];
    let parent = '';
    for (const line of picture.split('\n')) {
      const names = line
        .slice(0, 28)
        .replace(/[├└│─]/g, ' ')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      if (names.length === 0) continue;
      const under = /^\s+[├└]─/.test(line);
      if (!under) parent = names.at(-1)!.endsWith('/') ? names.at(-1)! : '';
      for (const n of names) order.push(under ? `${parent}${n}` : n);
    }
    const entry = (f: string) =>
      order.filter((n) => f === n || (n.endsWith('/') && f.startsWith(n))).sort((a, b) => b.length - a.length)[0];
    const unpictured = files.filter((f) => entry(f) === undefined);
    expect(unpictured).toEqual([]);
    const upward: string[] = [];
    for (const f of files) {
      const from = entry(f)!;
      for (const d of everyImport(f)) {
        const to = entry(d)!;
        // A room drawn inside another (http/'s APIs) is imported by its parent's own files (routes.ts, server.ts).
        if (to === from || to.startsWith(from)) continue;
        if (order.indexOf(to) > order.indexOf(from)) upward.push(`${f} (${from}) → ${d} (${to})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("one outlet does not borrow from its sibling: events/ imports nothing of http/ (issue 59: answers/ holds both's shapes)", () => {
    const borrowed = files
      .filter((f) => f.startsWith('events/'))
      .flatMap((f) => [...everyImport(f)].filter((d) => d.startsWith('http/')).map((d) => `${f} → ${d}`));
    expect(borrowed).toEqual([]);
  });

  it("the Stardust ledger and proofs take TIP-4's Merkle tree from crypto/, not from Nova's room (issue 59)", () => {
    const reaching = files
      .filter((f) => f.startsWith('ledger/') || f.startsWith('proofs/'))
      .flatMap((f) => [...everyImport(f)].filter((d) => d.startsWith('nova/merkle')).map((d) => `${f} → ${d}`));
    expect(reaching).toEqual([]);
    expect(files).toContain('crypto/merkle.ts');
  });

  it('validate does not reach for the public entry points (serialize.ts)', () => {
    for (const f of handWritten.filter((f) => f.startsWith('validate/')))
      expect(edges.get(f)).not.toContain('serialize.ts');
  });

  it('compares no bare type number outside src/stardust: type codes go by name', () => {
    const bare = /\.type\s*[!=]==?\s*\d|\d\s*[!=]==?\s*[\w.?]*\.type\b|case\s+\d+\s*:/;
    for (const f of handWritten.filter((f) => !f.startsWith('stardust/'))) {
      const lines = text
        .get(f)!
        .split('\n')
        .filter((l) => bare.test(l));
      expect(lines, f).toEqual([]);
    }
  });

  it("reads and writes no block's bytes by offset outside src/stardust (issue 59): its layout has one home", () => {
    // `bytes[1]`, `block[0]`, `outputBytes[0]`, `outputId[32]`: a byte of a block's, an output's or an ID's bytes by
    // number. (Nova's model, the codec and the hashes read their own bytes; src/explorer's and the indexer's own
    // records are not blocks, and are named otherwise.)
    const offset = /\b\w*(bytes|Bytes|body|Body|block|Block|Id)\[\d+\]/;
    const outside = handWritten.filter((f) => !/^(stardust|nova|codec|crypto)\//.test(f));
    const found = outside.flatMap((f) =>
      text
        .get(f)!
        .split('\n')
        .filter((l) => offset.test(l) && !l.trimStart().startsWith('//'))
        .map((l) => `${f}: ${l.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('has no hand-written file over 400 lines, and no line over 120 characters', () => {
    for (const f of handWritten) {
      const lines = text.get(f)!.split('\n');
      expect(lines.length, f).toBeLessThanOrEqual(400);
      expect(
        lines.filter((l) => [...l].length > 120),
        f,
      ).toEqual([]);
    }
  });

  it("names only files that exist: a comment's or a doc's pointer to a moved file sends a reader nowhere", () => {
    const root = resolve(src, '..');
    const tree = (dir: string) =>
      readdirSync(join(root, dir), { recursive: true })
        .map(String)
        .map((f) => `${dir}/${f}`);
    const known = ['src', 'test', 'bench', 'scripts'].flatMap(tree);
    const basenames = new Set(known.map((p) => p.slice(p.lastIndexOf('/') + 1)));
    // A name with a folder must be that file (under src/ or test/ where it does not say); a bare name, some file.
    const exists = (ref: string) =>
      ref.includes('/') ? known.some((p) => p === ref || p.endsWith(`/${ref}`)) : basenames.has(ref);
    // Files of the reader's own, which the docs tell them to write.
    const theirs = new Set(['app.mjs']);
    const docs = readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    const sources = [...handWritten.map((f) => `src/${f}`), ...docs, 'README.md', 'CONTRIBUTING.md'];
    const missing: string[] = [];
    for (const f of sources) {
      readFileSync(join(root, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // In source, only comments point at files (imports are the compiler's to check).
          if (f.endsWith('.ts') && !/^\s*(\/\/|\*|\/\*)/.test(line) && !line.includes(' // ')) return;
          for (const m of line.matchAll(/(?<![\w@.-])((?:[\w-]+\/)*[\w-]+\.(?:ts|mjs))\b/g))
            if (!exists(m[1]!) && !theirs.has(m[1]!)) missing.push(`${f}:${i + 1}: ${m[1]}`);
        });
    }
    expect(missing).toEqual([]);
  });

  it('compiles nothing from strings (no eval, no new Function): the package loads under a strict CSP', () => {
    for (const f of files) expect(text.get(f)!, f).not.toMatch(/\bnew Function\(|\beval\(/);
  });
});

/** Folders of test/ that hold what tests share or read, not tests of one source folder: they mirror nothing. */
const SHARED_TEST_FOLDERS = new Set(['helpers', 'setup', 'property', 'fixtures']);

/** The folders under a root that hold a file, as paths relative to it ('ledger', 'ledger/core', …): a folder left
 * empty by a move is no part of what git keeps. */
function foldersOf(root: string): string[] {
  const folders = new Set<string>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()))
    for (let d = relative(root, e.parentPath); d !== '' && d !== '.'; d = dirname(d)) folders.add(d);
  return [...folders].sort();
}

/** The test folders that name no folder of src/ (a shared folder, and everything in it, excepted). */
function strayFolders(testFolders: string[], srcFolders: Set<string>): string[] {
  return testFolders.filter((d) => !d.split('/').some((p) => SHARED_TEST_FOLDERS.has(p)) && !srcFolders.has(d));
}

describe('the test tree (issue 59)', () => {
  it('mirrors src/: every folder of test/ names a folder of src/ (CONTRIBUTING.md says where a new test goes)', () => {
    const srcFolders = new Set(foldersOf(src));
    expect(strayFolders(foldersOf(here), srcFolders)).toEqual([]);
    // The rule sees a folder src/ does not have, at any depth, and lets the shared ones be.
    expect(strayFolders(['ledger', 'ledger/accounts', 'wallet', 'helpers', 'ledger/fixtures'], srcFolders)).toEqual([
      'ledger/accounts',
      'wallet',
    ]);
  });
});
