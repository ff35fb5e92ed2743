#!/usr/bin/env node
// Writes the straight-line code of every struct into a `*.gen.ts` file beside the file that declares it (as iota.go's
// gen/ templates do), so that nothing is compiled from strings at run time.
//
//   node scripts/gen-structs.mjs          write what changed
//   node scripts/gen-structs.mjs --check  write nothing; exit 1 naming every stale or missing file (npm run build)
//
// How: every source file that binds `generatedStruct` to its `generated` table is bundled with esbuild (tsup's own bundler) with its
// `*.gen.js` imports replaced by empty tables, so each struct falls back to the generic loop and registers its shape
// (field names, which fields have a variable size). The code for a shape is a template below: one line per field, so
// a stack trace through it points at the line of the field, inside a function named after the struct.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.gen.ts') ? [p] : [];
  });
}

// Files that declare generated structs, and the struct names each declares, in order.
const STRUCT_CALL = /\bstruct(?:<[^(]*?>)?\(\s*'([A-Za-z0-9_]+)'/g;
const files = sources(join(root, 'src'))
  .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
  .filter(({ text }) => /^const struct = .*=> generatedStruct<T>\(generated, name, fields\);$/m.test(text))
  .map(({ file, text }) => ({ file, names: [...text.matchAll(STRUCT_CALL)].map((m) => m[1]) }));

const cacheDir = join(root, 'node_modules', '.cache', 'gen-structs');
mkdirSync(cacheDir, { recursive: true });
const entry = [
  `export { structShapes } from ${JSON.stringify(join(root, 'src/codec/struct.ts'))};`,
  ...files.map(({ file }) => `import ${JSON.stringify(file)};`),
].join('\n');
const outfile = join(cacheDir, 'shapes.mjs');
await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  packages: 'external',
  outfile,
  logLevel: 'error',
  // package.json says sideEffects: false, which would let esbuild drop these imports: here their effect is the point.
  ignoreAnnotations: true,
  plugins: [
    {
      name: 'empty-generated-tables',
      setup(b) {
        b.onResolve({ filter: /\.gen\.js$/ }, (a) => ({ path: a.path, namespace: 'empty-gen' }));
        b.onLoad({ filter: /.*/, namespace: 'empty-gen' }, () => ({ contents: 'export const generated = {};' }));
      },
    },
  ],
});
const { structShapes } = await import(`${pathToFileURL(outfile).href}?${Date.now()}`);
rmSync(outfile, { force: true });
const shapes = new Map(structShapes().map((s) => [s.name, s]));

// Names a field's local may not take: reserved words and the template's own names.
const TAKEN = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if implements import in instanceof interface let new null package private protected public return ' +
    'static super switch this throw true try typeof var void while with yield await arguments eval undefined ' +
    'r w v j o c h e k at json fixedPart'
  ).split(' '),
);
const local = (k) => (TAKEN.has(k) ? `${k}_` : k);
const q = (k) => `'${k}'`;

/** A list on one line when it fits in 120 characters, else one item per line. */
function list(open, items, close, indent) {
  const line = `${open}${items.join(', ')}${close}`;
  if (indent.length + line.length <= 110) return line;
  return [open.trimEnd(), ...items.map((i) => `${indent}  ${i},`), `${indent}${close.trimStart()}`].join('\n');
}

/** The sum of the fixed part and each variable field's size: on one line, or one term per line. */
function sizeOf(terms) {
  const line = `        return ${terms.join(' + ')};`;
  if (line.length <= 120) return line;
  return ['        return (', `          ${terms.join(' +\n          ')}`, '        );'].join('\n');
}

function structCode({ name, keys, variable }) {
  const I = '          ';
  // One line per field in every function: the line of a stack frame names the field.
  const steps = (line) => keys.map((k, i) => `${I}${i === 0 ? '' : `at = ${q(k)}; `}${line(k)}`);
  const object = list(
    '{ ',
    keys.map((k) => (k === local(k) ? k : `${k}: ${local(k)}`)),
    ' }',
    I,
  );
  const sized = keys.filter((_, i) => variable[i] === '1').map((k) => `$${k}.sizeOf(v.${k})`);
  return [
    `  ${name}: {`,
    `    keys: ${list('[', keys.map(q), ']', '    ')},`,
    `    variable: '${variable}',`,
    '    compile(c, h) {',
    ...keys.map((k, i) => `      const $${k} = c[${i}]!;`),
    '      const fixedPart = h.fixedPart;',
    `      function ${name}_read(r: Reader) {`,
    `        let at = ${q(keys[0])};`,
    '        try {',
    ...steps((k) => `const ${local(k)} = $${k}.read(r);`),
    `${I}return ${object};`,
    '        } catch (e) {',
    '          throw h.atPath(e, at);',
    '        }',
    '      }',
    `      function ${name}_write(v: any, w: Writer) {`,
    "        if (typeof v !== 'object' || v === null) throw h.notObject(v, w.pos, true);",
    `        let at = ${q(keys[0])};`,
    '        try {',
    ...steps((k) => `$${k}.write(v.${k}, w);`),
    '        } catch (e) {',
    '          throw h.atPath(e, at);',
    '        }',
    '      }',
    `      function ${name}_sizeOf(v: any) {`,
    sizeOf(['fixedPart', ...sized]),
    '      }',
    `      function ${name}_toJson(v: any) {`,
    "        if (typeof v !== 'object' || v === null) throw h.notObject(v, undefined, true);",
    '        const o: { [key: string]: Json } = {};',
    '        let json: Json | undefined;',
    `        let at = ${q(keys[0])};`,
    '        try {',
    ...steps((k) => `json = $${k}.toJson(v.${k}); if (json !== undefined) o.${k} = json;`),
    '        } catch (e) {',
    '          throw h.atPath(e, at);',
    '        }',
    '        return o;',
    '      }',
    `      function ${name}_fromJson(j: any) {`,
    "        if (typeof j !== 'object' || j === null || Array.isArray(j)) throw h.notObject(j, undefined, false);",
    '        // for-in allocates nothing (Object.keys would); parsed JSON has only own, enumerable keys.',
    `        for (const k in j) if (!(${keys.map((k) => `k === ${q(k)}`).join(' || ')})) throw h.unexpected(k);`,
    `        let at = ${q(keys[0])};`,
    '        try {',
    ...steps((k) => `const ${local(k)} = $${k}.fromJson(j.${k});`),
    `${I}return ${object};`,
    '        } catch (e) {',
    '          throw h.atPath(e, at);',
    '        }',
    '      }',
    `      function ${name}_writeJson(j: any, w: Writer) {`,
    "        if (typeof j !== 'object' || j === null || Array.isArray(j)) throw h.notObject(j, undefined, false);",
    `        for (const k in j) if (!(${keys.map((k) => `k === ${q(k)}`).join(' || ')})) throw h.unexpected(k);`,
    `        let at = ${q(keys[0])};`,
    '        try {',
    ...steps((k) => `$${k}.writeJson(j.${k}, w);`),
    '        } catch (e) {',
    '          throw h.atPath(e, at);',
    '        }',
    '      }',
    `      return { read: ${name}_read, write: ${name}_write, sizeOf: ${name}_sizeOf, toJson: ${name}_toJson, ` +
      `fromJson: ${name}_fromJson, writeJson: ${name}_writeJson };`,
    '    },',
    '  },',
  ].join('\n');
}

const stale = [];
for (const { file, names } of files) {
  const codecDir = relative(dirname(file), join(root, 'src/codec/index.js')).replaceAll('\\', '/');
  const source = relative(root, file).replaceAll('\\', '/');
  const codecPath = codecDir.startsWith('.') ? codecDir : `./${codecDir}`;
  const body = names.map((n) => {
    const shape = shapes.get(n);
    if (shape === undefined) throw new Error(`${source}: struct ${n} was not defined when the file was loaded`);
    return structCode(shape);
  });
  const text = [
    `// DO NOT EDIT: generated by scripts/gen-structs.mjs (npm run gen) from the structs of ${source}.`,
    '// One line per field, inside functions named after the struct, so that a stack trace names both.',
    `import type { GeneratedStructs, Json, Reader, Writer } from '${codecPath}';`,
    '',
    'export const generated: GeneratedStructs = {',
    ...body,
    '};',
    '',
  ].join('\n');
  const out = file.replace(/\.ts$/, '.gen.ts');
  let current;
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  if (check) stale.push(relative(root, out));
  else {
    writeFileSync(out, text);
    console.log(`wrote ${relative(root, out)}`);
  }
}
// A generated file whose source no longer declares structs is stale too (but the one gen-namespace.mjs writes).
const expected = new Set(files.map(({ file }) => file.replace(/\.ts$/, '.gen.ts')));
expected.add(join(root, 'src/nova/namespace.gen.ts'));
for (const out of readdirSync(join(root, 'src'), { recursive: true })) {
  const path = join(root, 'src', String(out));
  if (!path.endsWith('.gen.ts') || expected.has(path)) continue;
  if (check) stale.push(relative(root, path));
  else {
    rmSync(path);
    console.log(`removed ${relative(root, path)}`);
  }
}
if (stale.length > 0) {
  console.error(
    `generated struct code is stale or missing: ${stale.join(', ')}\nrun npm run gen and commit the result`,
  );
  process.exit(1);
}
