// docs/proofs.md as written (issue 60): its command and its two programs run against the build, on a proof of a real
// Shimmer block (milestone 17339's last block, its audit path from the data's white-flag order), each printing what
// the doc says it prints; its table of routes is the server's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { poiRoutes } from '../../src/http/poi/poi-routes.js';
import {
  auditPath,
  blockId,
  decodeBlock,
  outputId,
  proofToJson,
  type TransactionPayload,
  toHex,
  transactionId,
} from '../../src/index.js';
import { bin, coneOf, milestonePayloadOf } from '../helpers/chronicle.js';
import { cli } from '../helpers/cli.js';
import { execFileAsync } from '../helpers/run.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(resolve(root, 'docs/proofs.md'), 'utf8');
const fenced = (text: string, lang: string) =>
  [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
const dir = mkdtempSync(join(tmpdir(), 'tangle-poi-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cone = [...coneOf(17339)].sort((a, b) => a.metadata.white_flag_index - b.metadata.white_flag_index);
const ids = cone.map((b) => blockId(bin(b.raw)));
writeFileSync(
  join(dir, 'proof.json'),
  JSON.stringify(
    proofToJson({
      milestone: milestonePayloadOf(17339),
      block: decodeBlock(bin(cone.at(-1)!.raw)),
      proof: auditPath(ids, ids.length - 1),
    }),
  ),
);

// The story of the output milestone 17339's first applied transaction created (its first): created in 17339, and not
// spent by 17340 (the data: it spent none of 17339's outputs).
const applied = cone.filter((b) => b.metadata.inclusion_state === 'included');
const appliedIds = applied.map((b) => blockId(bin(b.raw)));
const creating = decodeBlock(bin(applied[0]!.raw));
writeFileSync(
  join(dir, 'story.json'),
  JSON.stringify({
    outputId: toHex(outputId(transactionId(creating.payload as TransactionPayload), 0)),
    created: proofToJson({ milestone: milestonePayloadOf(17339), block: creating, proof: auditPath(appliedIds, 0) }),
  }),
);

describe('docs/proofs.md', () => {
  it('its command prints the line it quotes', async () => {
    const [command] = fenced(doc.slice(doc.indexOf('## On the command line')), 'sh');
    const args = command!.trim().split(/\s+/);
    expect(args.slice(0, 2)).toEqual(['tangle-core', 'verify-proof']);
    const out = await execFileAsync(process.execPath, [cli, ...args.slice(1)], { cwd: dir });
    const quoted = /prints one line, `([^`]+)`/.exec(doc)![1]!;
    const pattern = quoted.replace(/[().]/g, '\\$&').replace(/0x…/g, '0x[0-9a-f]{64}');
    expect(out.trim()).toMatch(new RegExp(`^${pattern}$`));
    // A story, with the line the doc quotes for it.
    const storyLine = /and prints\n`([^`]+)`/.exec(doc)![1]!;
    const story = await execFileAsync(process.execPath, [cli, 'verify-proof', 'story.json'], { cwd: dir });
    expect(story.trim()).toMatch(
      new RegExp(`^${storyLine.replace(/[().]/g, '\\$&').replace(/0x…/g, '0x[0-9a-f]{68}')}$`),
    );
  });

  it('its programs print what their comments say', async () => {
    const programs = fenced(doc.slice(doc.indexOf('## In a program')), 'js');
    expect(programs).toHaveLength(3);
    for (const program of programs) {
      const code = program.replace("from 'tangle-core'", `from ${JSON.stringify(resolve(root, 'dist/index.js'))}`);
      const promised = code
        .split('\n')
        .filter((l) => l.includes('console.log('))
        .map((l) => /\/\/ (.*)$/.exec(l)![1]!.trim());
      const out = await execFileAsync(process.execPath, ['--input-type=module', '-e', code], { cwd: dir });
      expect(out.trim().split('\n')).toEqual(promised);
    }
  });

  it("its table of routes is the server's", () => {
    const rows = [...doc.matchAll(/^\| `(GET|POST) (\/api\/[^`]*)` \|/gm)].map((m) => [m[1], m[2]]);
    const served = poiRoutes.map((r) => [
      r.post ? 'POST' : 'GET',
      r.pattern.replace('*', r.pattern.includes('outputs') ? '{outputId}' : '{blockId}'),
    ]);
    expect(rows).toEqual(served);
  });
});
