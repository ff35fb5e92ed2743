// `tangle-core import-milestones` (issues 45, 56) on the built CLI: the test ledger of real Shimmer milestones
// (helpers/chronicle.ts) made with `import-snapshot`, then milestones 17339 and 17340 from NDJSON, from a file and
// from standard input; a second run skips what the store holds; a refused milestone is one line naming its line, its
// milestone (the ID the network gave it) and the rule, exit 2, with every milestone before it kept; a line that is
// not a milestone names its line and field; a line of any length ends in the limit's line; every exit, a signal's
// too (SIGHUP's), says which milestone the store holds; from a pipe held open, the last whole line is applied at
// once (the IDs compared are the network's, from inx-chronicle's data).

import { constants as buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { IMPORT_MILESTONES_USAGE, MAX_LINE_BYTES } from '../../src/cli/import-milestones.js';
import { blockId, importedParams, inspectStore, openLedger } from '../../src/index.js';
import {
  bin,
  chronicleMilestone,
  chronicleNdjson,
  chronicleSnapshot,
  coneOf,
  milestonePayloadOf,
} from '../helpers/chronicle.js';
import { cli, track } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-import-milestones-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const run = async (args: string[], input?: string) => {
  const r = await spawnAsync(process.execPath, [cli, ...args], input === undefined ? {} : { input });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const latestOf = (db: string) => {
  const ledger = openLedger({ path: db, params: importedParams(inspectStore(db)!.imported!), readOnly: true });
  try {
    return ledger.latestCommitment().slot;
  } finally {
    ledger.close();
  }
};

/** The network's milestone IDs: 17339 and 17340 as inx-chronicle recorded them, the snapshot's 17338 as 17339 names it. */
const ID = {
  17338: hex(milestonePayloadOf(17339).previousMilestoneId),
  17339: hex(bin(chronicleMilestone(17339).milestone_data.milestone_id)),
  17340: hex(bin(chronicleMilestone(17340).milestone_data.milestone_id)),
};
const holds = (index: 17339 | 17340) => `the store holds milestone ${index} \\(ID ${ID[index]}\\)`;
const holdsNone = `the store holds no milestone past the snapshot's 17338 \\(ID ${ID[17338]}\\)`;
const lines = () => chronicleNdjson().trim().split('\n') as [string, string];

let snapshot: string;
let ndjson: string;
beforeAll(async () => {
  snapshot = join(dir, 'at-17338.snapshot');
  writeFileSync(snapshot, await chronicleSnapshot());
  ndjson = join(dir, 'milestones.ndjson');
  writeFileSync(ndjson, chronicleNdjson());
});

/** A new store at milestone 17338, made by the CLI. */
async function store(name: string): Promise<string> {
  const db = join(dir, name);
  const r = await run(['import-snapshot', snapshot, '--db', db]);
  expect(r.code, r.err).toBe(0);
  expect(r.out).toMatch(/imported shimmer \(smr\) at milestone 17338/);
  return db;
}

// The cases run concurrently (vitest's maxConcurrency, 5, at a time): each makes a store of its own in the file's
// folder and mostly waits on the CLI's child processes; side by side each takes longer than alone, so each is bounded
// by three minutes (a bound on a hang, not a timing assertion).
describe.concurrent('import-milestones', { timeout: 180_000 }, () => {
  it('applies both milestones from a file; a second run skips them; the store answers as hornet did', async () => {
    const db = await store('from-file');
    const r = await run(['import-milestones', ndjson, '--db', db]);
    expect(r.code, r.err).toBe(0);
    const blocks = coneOf(17339).length + coneOf(17340).length;
    expect(r.out).toMatch(
      new RegExp(
        `^applied milestones 17339 to 17340 to .* \\(2 milestones, ${blocks} blocks, 12 transactions applied, 0 conflicting\\)` +
          ` in [0-9.]+ s: ${holds(17340)}\n$`,
      ),
    );
    const again = await run(['import-milestones', ndjson, '--db', db]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(
      new RegExp(`^applied no milestone .*; 2 held already, skipped\\) in .*: ${holds(17340)}`),
    );
    const ledger = openLedger({ path: db, params: importedParams(inspectStore(db)!.imported!), readOnly: true });
    try {
      expect(ledger.latestCommitment().slot).toBe(17340);
      expect(hex(ledger.milestone(17340)!.milestoneId)).toBe(ID[17340]);
      for (const b of coneOf(17340)) {
        expect(ledger.block(blockId(bin(b.raw))).whiteFlag?.index).toBe(b.metadata.white_flag_index);
      }
    } finally {
      ledger.close();
    }
    // Another milestone at an index the store holds: refused naming both IDs, the store's and the line's.
    const other = JSON.parse(lines()[1]);
    other.milestone.metadata = '0x01';
    const refused = await run(['import-milestones', '-', '--db', db], `${JSON.stringify(other)}\n`);
    expect(refused.code).toBe(2);
    const otherId = /^error: line 1, milestone 17340 \(ID (0x[0-9a-f]{64})\): /.exec(refused.err)?.[1];
    expect(otherId, refused.err).toBeDefined();
    expect(otherId).not.toBe(ID[17340]);
    expect(refused.err).toMatch(new RegExp(`: another milestone 17340 is held, ID ${ID[17340]}; ${holds(17340)}\n$`));
  });

  it('reads standard input', async () => {
    const db = await store('from-stdin');
    const r = await run(['import-milestones', '-', '--db', db], chronicleNdjson());
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^applied milestones 17339 to 17340/);
  });

  it('a refused milestone: one line naming its line, milestone and ID, the rule and the store, exit 2', async () => {
    const db = await store('refused');
    const [first, second] = lines();
    const forged = JSON.parse(second);
    forged.milestone.signatures[0].signature = `0x${'00'.repeat(64)}`; // (a milestone's ID is not over its signatures)
    const file = join(dir, 'forged.ndjson');
    writeFileSync(file, `${first}\n${JSON.stringify(forged)}\n`);
    const r = await run(['import-milestones', file, '--db', db]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(
      new RegExp(
        `^error: line 2, milestone 17340 \\(ID ${ID[17340]}\\): MILESTONE_INVALID: ` +
          `MILESTONE_SIGNATURE_INVALID at signatures\\[0\\]\\.signature: .*; ${holds(17339)}\n$`,
      ),
    );
    expect(latestOf(db)).toBe(17339);
    // A gap: the file starts after the store's milestone.
    const gap = await run(['import-milestones', '-', '--db', await store('gap')], `${second}\n`);
    expect(gap.code).toBe(2);
    expect(gap.err).toMatch(
      new RegExp(
        `^error: line 1, milestone 17340 \\(ID ${ID[17340]}\\): MILESTONE_INVALID: ` +
          `the ledger stands at milestone 17338: a gap; ${holdsNone}\n$`,
      ),
    );
  });

  it('a block of the cone missing: refused naming the milestone and the block', async () => {
    const db = await store('missing');
    const line = JSON.parse(lines()[0]);
    const [dropped] = line.blocks.splice(5, 1);
    const r = await run(['import-milestones', '-', '--db', db], `${JSON.stringify(line)}\n`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(
        `^error: line 1, milestone 17339 \\(ID ${ID[17339]}\\): MILESTONE_INVALID: ` +
          `block ${hex(blockId(bin(coneOf(17339)[5]!.raw)))} of the cone is missing; ${holdsNone}\n$`,
      ),
    );
    expect(dropped).toBe(hex(bin(coneOf(17339)[5]!.raw)));
    expect(latestOf(db)).toBe(17338);
  });

  it('a file starting before the snapshot: refused saying where the store stands, not "another milestone"', async () => {
    const db = await store('before');
    const early = JSON.parse(lines()[0]);
    early.milestone.index = 17337;
    const r = await run(['import-milestones', '-', '--db', db], `${JSON.stringify(early)}\n`);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/another/);
    expect(r.err).toMatch(
      new RegExp(
        "^error: line 1, milestone 17337 \\(ID 0x[0-9a-f]{64}\\): the store starts at the snapshot's milestone 17338 " +
          `and keeps none before it \\(the file must go on from milestone 17339\\); ${holdsNone}\n$`,
      ),
    );
    // The snapshot's own index: the store knows that milestone's ID (the snapshot names it), and this is another.
    early.milestone.index = 17338;
    const at = await run(['import-milestones', '-', '--db', db], `${JSON.stringify(early)}\n`);
    expect(at.err).toMatch(new RegExp(`: another milestone 17338 is held, ID ${ID[17338]}; ${holdsNone}\n$`));
    expect(latestOf(db)).toBe(17338);
  });

  it('a line that is not a milestone: the milestones before it kept, its line and field named', async () => {
    const db = await store('bad-lines');
    const [first, second] = lines();
    const cases: [string, RegExp][] = [
      ['{"milestone": 1', /^error: line 1: \(root\): INVALID_JSON/],
      ['[1, 2]', /^error: line 1: expected \{"milestone"/],
      [
        `${first.replace('"blocks":["0x', '"blocks":["0xzz')}`,
        /^error: line 1, milestone 17339 \(ID 0x.*\): blocks\[0\]: /,
      ],
      [`\n${first.replace('"type":7', '"type":6')}`, /^error: line 2, milestone 17339: milestone: /],
    ];
    for (const [text, want] of cases) {
      const r = await run(['import-milestones', '-', '--db', db], `${text}\n`);
      expect(r.code, text.slice(0, 40)).toBe(2);
      expect(r.err).toMatch(want);
      expect(r.err).toMatch(new RegExp(`; ${holdsNone}\n$`));
    }
    expect(latestOf(db)).toBe(17338);
    // The line after a good one: the good one is applied first (it was read whole), then the bad one refused.
    const r = await run(['import-milestones', '-', '--db', db], `${first}\n{"milestone": 1\n${second}\n`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^error: line 2: \\(root\\): INVALID_JSON: .*; ${holds(17339)}\n$`));
    expect(latestOf(db)).toBe(17339);
    const none = await run(['import-milestones', ndjson, '--db', join(dir, 'nothing-here')]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/holds no ledger imported from a network's snapshot/);
  });

  it("a line of any length ends in the limit's line (no stack), the milestone before it kept", async () => {
    // The default sits below V8's longest string, and a line is limited in bytes (a string has at most as many
    // UTF-16 units as its UTF-8 had bytes), so no line read makes a string V8 cannot make.
    expect(MAX_LINE_BYTES).toBeLessThan(buffer.MAX_STRING_LENGTH);
    expect(IMPORT_MILESTONES_USAGE).toContain(`default and most: ${MAX_LINE_BYTES}`);
    const limit = 1024 * 1024;
    const tooLong = new RegExp(`^error: line 2: longer than ${limit} bytes \\(--max-line-bytes\\); ${holds(17339)}\n$`);
    // A file: the good line, then a line of 4 GiB (a sparse file: no disk, no memory), past V8's longest string.
    const file = join(dir, 'huge.ndjson');
    const fd = openSync(file, 'w');
    writeSync(fd, `${lines()[0]}\n`);
    closeSync(fd);
    truncateSync(file, 4 * 1024 ** 3);
    const db = await store('huge-file');
    const r = await run(['import-milestones', file, '--db', db, '--max-line-bytes', String(limit)]);
    rmSync(file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(tooLong);
    expect(latestOf(db)).toBe(17339);
    // Standard input: a line that never ends, made as it is read.
    const piped = await store('huge-stdin');
    const child = track(
      spawn(process.execPath, [cli, 'import-milestones', '-', '--db', piped, '--max-line-bytes', String(limit)]),
    );
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin!.on('error', () => {}); // EPIPE once it stops reading
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const zeros = Buffer.alloc(64 * 1024);
    child.stdin!.write(`${lines()[0]}\n`);
    let written = 0;
    const pump = () => {
      while (child.exitCode === null && child.stdin!.writable && written < 64 * limit) {
        written += zeros.length;
        if (!child.stdin!.write(zeros)) return void child.stdin!.once('drain', pump);
      }
    };
    pump();
    expect(await exited).toBe(2);
    expect(err).toMatch(tooLong);
    expect(written).toBeLessThan(64 * limit); // it stopped reading: the line was refused, not ended
    expect(latestOf(piped)).toBe(17339);
  });

  it.runIf(process.platform === 'linux')(
    'a file that cannot be read: its error, and where the store stands',
    async () => {
      // Linux: /proc/self/mem is a file whose reading at offset 0 fails (EIO).
      const r = await run(['import-milestones', '/proc/self/mem', '--db', await store('unreadable')]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^error: line 1: EIO: i/o error, read; ${holdsNone}\n$`));
    },
  );

  for (const [signal, code, index] of [
    ['SIGINT', 130, 17340],
    ['SIGTERM', 143, 17339],
    ['SIGHUP', 129, 17340],
  ] as const) {
    it(`stopped by ${signal}: exit ${code}, saying which milestone the store holds`, async () => {
      const db = await store(`stopped-${signal}`);
      const child = track(spawn(process.execPath, [cli, 'import-milestones', '-', '--db', db]));
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
      // Where the test stood and what the run said, should it fail (a timeout included): it once waited out its
      // time on a loaded machine (CI, stop 70), not seen since.
      let phase = 'applying';
      onTestFailed(() => console.error(`${signal}: ${phase}; exit ${child.exitCode}; stderr: ${err}`));
      // The milestones up to `index`, the pipe held open after them: the last whole line is applied without waiting
      // for another line or the end (a live feed), which the store shows.
      const upTo = lines().slice(0, index - 17338);
      child.stdin!.write(`${upTo.join('\n')}\n`);
      // Each look opens the store; a run that ended before (an error) fails the test with what it said.
      while (latestOf(db) !== index) {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} at ${latestOf(db)}: ${err}`);
        await new Promise((wake) => setTimeout(wake, 100));
      }
      // Meanwhile a second run is refused (the store has its writer), saying where the store stands all the same.
      phase = 'a second run';
      const second = await run(['import-milestones', ndjson, '--db', db]);
      expect(second.code).toBe(2);
      expect(second.err).toMatch(new RegExp(`^error: STORE_LOCKED: .*; ${holds(index)}\n$`));
      phase = `stopping with ${signal}`;
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(err).toMatch(new RegExp(`^stopped by ${signal}: ${holds(index)}\n$`));
      expect(latestOf(db)).toBe(index);
    });
  }
});
