// `tangle-core verify --db DIR` on the built CLI (issue 57): a read-only walk of a whole store that finds what no
// read can. A milestone's ID index entry moved by a flipped bit of its key is, to the by-ID routes, a milestone that
// never was (404); the walk checks each index against what it indexes, both ways, and names the damage by table and
// key (exit 1). A sound store (real Shimmer milestones 17339 and 17340 on the ledger of what they consume) is sound
// (exit 0), each table listed as it is walked; a store of an older layout is refused with the upgrade (exit 2). A
// slot commitment or a slot's UTXO changes damaged, moved, or another slot's (which `serve` refuses or answers 500
// for) is named by the walk of the commitment chain and of every unpruned slot's changes.
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
  expect(lines).toContain('commitments: checked as a chain; UTXO changes: checked against their slots');
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

/** Runs verify with `writes` done to the store (undone after): its damaged lines, each of exit 1. */
async function damagedLines(writes: { key: Uint8Array; value: Uint8Array | undefined }[]) {
  const store = new LmdbStore(path, { readOnly: true });
  const undo = writes.map(({ key }) => ({ key, value: store.get(key)?.slice() }));
  store.close();
  write(writes);
  try {
    const r = await verify();
    expect([r.status, r.stderr]).toEqual([1, '']);
    return r.stdout.split('\n').filter((l) => l.startsWith('damaged: '));
  } finally {
    write(undo.reverse());
  }
}
const read = (key: Uint8Array) => {
  const store = new LmdbStore(path, { readOnly: true });
  const value = store.get(key)!.slice();
  store.close();
  return value;
};
const flipped = (value: Uint8Array, at: number) => {
  const v = value.slice();
  v[at]! ^= 0x10;
  return v;
};

it('a slot commitment damaged or moved (serve refuses the store): named by the chain, exit 1', async () => {
  const key = keys.commitment(17339);
  const value = read(key);
  // Its previous ID (byte 5, after version and slot): it changes its ID, which the commitment of 17340 names.
  expect(await damagedLines([{ key, value: flipped(value, 5) }])).toEqual([
    expect.stringMatching(
      new RegExp(
        `^damaged: commitment ${hex(key)}: its ID 0x\\w+ is not 0x\\w+, which the commitment of slot 17340 names$`,
      ),
    ),
  ]);
  // The latest, named by the store's metadata.
  const latest = keys.commitment(17340);
  expect(await damagedLines([{ key: latest, value: flipped(read(latest), 41) }])).toEqual([
    expect.stringMatching(new RegExp(`^damaged: commitment ${hex(latest)}: .*which the store's metadata names$`)),
  ]);
  // Moved by a flipped key bit: missing where the chain names it, and found where no slot's is.
  const moved = key.slice();
  moved[1]! ^= 0x01;
  expect(
    await damagedLines([
      { key, value: undefined },
      { key: moved, value },
    ]),
  ).toEqual([
    `damaged: commitment ${hex(key)}: missing: the commitment of slot 17340 names the commitment of slot 17339`,
    expect.stringMatching(new RegExp(`^damaged: commitment ${hex(moved)}: no slot of the chain \\(\\d+ to 17340\\)`)),
  ]);
});

it('a slot’s UTXO changes damaged, moved, or another slot’s: named with why, exit 1', async () => {
  const key = keys.diff(17340);
  const value = read(key);
  // 17340's checksum flipped, and 17339's moved by a flipped key bit (to a slot not committed).
  const earlier = keys.diff(17339);
  const moved = earlier.slice();
  moved[4]! ^= 0x40;
  expect(
    await damagedLines([
      { key, value: flipped(value, value.length - 1) },
      { key: earlier, value: undefined },
      { key: moved, value: read(earlier) },
    ]),
  ).toEqual([
    `damaged: diff ${hex(earlier)}: missing: slot 17339 is committed and not pruned`,
    `damaged: diff ${hex(key)}: STORE_CORRUPT at (root): the stored UTXO changes of slot 17340 (key 44000043bc): ` +
      'its checksum does not match',
    expect.stringMatching(new RegExp(`^damaged: diff ${hex(moved)}: no committed, unpruned slot \\(\\d+ to 17340\\)`)),
  ]);
  // Slot 17339's changes under 17340's key (its checksum holds): the outputs it names are not 17340's.
  expect(await damagedLines([{ key, value: read(keys.diff(17339)) }])).toEqual([
    expect.stringMatching(
      new RegExp(
        `^damaged: diff ${hex(key)}: it names output 0x\\w+ created in slot 17340, which holds no such output$`,
      ),
    ),
  ]);
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

it('the metadata, imported network or layout record flipped (serve refuses the store): one line, exit 1', async () => {
  for (const key of [keys.meta, keys.importedNetwork, keys.layout]) {
    const value = read(key);
    // The new user's check flipped the middle byte of each (a value byte of the layout, of the others too).
    expect(await damagedLines([{ key, value: flipped(value, value.length >> 1) }])).toEqual([
      expect.stringMatching(
        new RegExp(
          `^damaged: meta ${hex(key)}: STORE_CORRUPT .*key 0x${hex(key).slice(2)}\\).*checksum.*: the store cannot ` +
            'be walked further \\(every reader starts from this record: serve refuses the store\\)$',
        ),
      ),
    ]);
  }
  expect((await verify()).status).toBe(0);
});
