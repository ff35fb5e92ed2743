// `tangle-core verify --db DIR` on the built CLI (issue 57): a read-only walk of a whole store that finds what no
// read can. A milestone's ID index entry moved by a flipped bit of its key is, to the by-ID routes, a milestone that
// never was (404); the walk checks each index against what it indexes, both ways, and names the damage by table and
// key (exit 1). A sound store (real Shimmer milestones 17339 and 17340 on the ledger of what they consume) is sound
// (exit 0), each table listed as it is walked; a store of an older layout is refused with the upgrade (exit 2).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { u32 } from '../../src/codec/index.js';
import { applyMilestone, milestoneId, openLedger } from '../../src/index.js';
import { keys, sealedValue } from '../../src/ledger/common/index.js';
import { LmdbStore, WriteBatch } from '../../src/ledger/store/index.js';
import { bin, chronicleMilestone, chronicleSnapshot, coneOf, milestonePayloadOf } from '../helpers/chronicle.js';
import { cli } from '../helpers/cli.js';
import { importedLedger } from '../helpers/imported-ledger.js';
import { spawnAsync } from '../helpers/run.js';

const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tangle-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'ledger');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const verify = () => spawnAsync(process.execPath, [cli, 'verify', '--db', path]);
/** Writes `writes` to the store (closed between runs: the CLI opens it beside no writer). */
const write = (writes: { key: Uint8Array; value: Uint8Array | undefined }[]) => {
  const store = new LmdbStore(path);
  store.write(WriteBatch.of(writes));
  store.close();
};
let params: ReturnType<typeof openLedger>['params'];

beforeAll(async () => {
  const ledger = await importedLedger(path, await chronicleSnapshot());
  for (const index of [17339, 17340] as const)
    applyMilestone(ledger, { milestone: milestonePayloadOf(index), blocks: coneOf(index).map((b) => bin(b.raw)) });
  params = ledger.params;
  ledger.close();
}, 60_000);

it('a sound store: every table walked, exit 0', async () => {
  const r = await verify();
  expect([r.status, r.stderr]).toEqual([0, '']);
  const lines = r.stdout.trim().split('\n');
  expect(lines.at(-1)).toMatch(new RegExp(`^${path}: sound \\(layout 7, \\d+ sealed records checked\\)$`));
  for (const table of ['block', 'output', 'outputIndex', 'milestone', 'whiteFlag', 'chain', 'meta'])
    expect(lines.some((l) => l.startsWith(`${table}: `))).toBe(true);
  expect(lines).toContain('milestoneSlot: 2 records (not sealed)');
  expect(lines).toContain('milestone ID index: checked against the milestones, both ways');
});

it('a milestone ID entry moved by a flipped key: 404 by its ID, and verify names both keys (exit 1)', async () => {
  const id = bin(chronicleMilestone(17340).milestone_data.milestone_id);
  expect(hex(milestoneId(milestonePayloadOf(17340)))).toBe(hex(id));
  const key = keys.milestoneSlot(id);
  const moved = key.slice();
  moved[20]! ^= 0x01;
  const store = new LmdbStore(path, { readOnly: true });
  const value = store.get(key)!.slice();
  store.close();
  write([
    { key, value: undefined },
    { key: moved, value },
  ]);
  try {
    const reader = openLedger({ path, params, readOnly: true });
    try {
      expect(reader.milestone(id)).toBeUndefined(); // on a read, indistinguishable from a milestone never applied
      expect(reader.milestone(17340)?.milestoneId).toEqual(id);
    } finally {
      reader.close();
    }
    const r = await verify();
    expect([r.status, r.stderr]).toEqual([1, '']);
    expect(r.stdout).toContain(
      `damaged: milestoneSlot ${hex(moved)}: it names milestone 17340, whose ID is ${hex(id)}`,
    );
    expect(r.stdout).toContain(
      `damaged: milestone ${hex(keys.milestone(17340))}: its ID ${hex(id)} has no index entry`,
    );
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/: 2 damaged record\(s\) \(layout 7/);
  } finally {
    write([
      { key: moved, value: undefined },
      { key, value },
    ]);
  }
  expect((await verify()).status).toBe(0);
});

it('an output index entry and a chain entry moved, a block index entry flipped: each named (exit 1)', async () => {
  const store = new LmdbStore(path, { readOnly: true });
  const [entry, entryValue] = [...store.entries(Uint8Array.of(keys.tables.outputIndex))][0]!.map((b) => b.slice());
  const [chain, chainValue] = [...store.entries(Uint8Array.of(keys.tables.chain))][0]!.map((b) => b.slice());
  const [block, blockValue] = [...store.entries(Uint8Array.of(keys.tables.blockIndex))][0]!.map((b) => b.slice());
  store.close();
  const [movedEntry, movedChain, flipped] = [entry!.slice(), chain!.slice(), blockValue!.slice()];
  movedEntry[movedEntry.length - 3]! ^= 0x40;
  movedChain[5]! ^= 0x40;
  flipped[0]! ^= 0x40;
  write([
    { key: entry!, value: undefined },
    { key: movedEntry, value: entryValue },
    { key: chain!, value: undefined },
    { key: movedChain, value: chainValue },
    { key: block!, value: flipped },
  ]);
  try {
    const r = await verify();
    expect([r.status, r.stderr]).toEqual([1, '']);
    const damaged = r.stdout.split('\n').filter((l) => l.startsWith('damaged: '));
    // Each moved entry: its seal fails at the key it moved to, and the key it left is missing.
    expect(damaged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^damaged: outputIndex ${hex(movedEntry)}: .*checksum`)),
        expect.stringMatching(new RegExp(`^damaged: outputIndex ${hex(entry!)}: missing: output 0x`)),
        expect.stringMatching(new RegExp(`^damaged: outputIndex ${hex(movedEntry)}: it names no unspent output`)),
        expect.stringMatching(new RegExp(`^damaged: chain ${hex(movedChain)}: .*checksum`)),
        expect.stringMatching(new RegExp(`^damaged: chain ${hex(chain!)}: missing: output 0x`)),
        expect.stringMatching(new RegExp(`^damaged: blockIndex ${hex(block!)}: .*checksum`)),
      ]),
    );
  } finally {
    write([
      { key: movedEntry, value: undefined },
      { key: entry!, value: entryValue },
      { key: movedChain, value: undefined },
      { key: chain!, value: chainValue },
      { key: block!, value: blockValue },
    ]);
  }
  expect((await verify()).status).toBe(0);
});

it('a store of an older layout: refused with the upgrade command (exit 2)', async () => {
  const store = new LmdbStore(path, { readOnly: true });
  const meta = store.get(keys.meta)!.slice();
  store.close();
  write([
    { key: keys.layout, value: sealedValue(u32, keys.layout, 6) },
    { key: keys.meta, value: meta.slice(0, -4) },
  ]);
  try {
    const r = await verify();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: .*STORE_OUTDATED.*tangle-core upgrade --db DIR/);
  } finally {
    write([
      { key: keys.layout, value: sealedValue(u32, keys.layout, 7) },
      { key: keys.meta, value: meta },
    ]);
  }
});
