// Crash safety of applying a real milestone (issue 45): a child applies Shimmer milestones 17339 and 17340 to the test
// ledger on LMDB and kills itself with SIGKILL at chosen points of a milestone's commit (before its store write,
// inside it with every put applied and the LMDB transaction not committed, after it). Each reopen finds every
// milestone whole or not at all: its payload, white-flag record, created outputs and spends all there, or none of
// them. A resumed child then ends at the same store as a run never interrupted, answer for answer.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  blockId,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  LedgerError,
  openLedger,
  outputId,
  toHex,
} from '../../../src/index.js';
import { bin, chronicleMilestone, chronicleNdjson, chronicleSnapshot, coneOf } from '../../helpers/chronicle.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tangle-history-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ndjson = join(dir, 'milestones.ndjson');
let snapshot: Uint8Array;

beforeAll(async () => {
  snapshot = await chronicleSnapshot();
  writeFileSync(ndjson, chronicleNdjson());
});

/** A new store at milestone 17338 (imported each time: LMDB's file is sparse, and a copy would write all of it). */
async function fresh(name: string): Promise<string> {
  const db = join(dir, name);
  await importSnapshot({ path: db, full: snapshot });
  return db;
}

/** Runs the child on `db` (to the end, or to its kill point); resolves with what it reported and how it ended. */
function runChild(db: string, point?: string): Promise<{ applied: number[]; killed: boolean; out: string }> {
  return new Promise((done, fail) => {
    const args = [resolve(here, '../fixtures/milestone-crash-child.mjs'), db, ndjson, ...(point ? [point] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      const applied = [...out.matchAll(/^applied (\d+)$/gm)].map((m) => Number(m[1]));
      if (signal === 'SIGKILL' || code === 0) done({ applied, killed: signal === 'SIGKILL', out });
      else fail(new Error(`child exited ${code}: ${err}`));
    });
  });
}

const open = (db: string) =>
  openLedger({ path: db, params: importedParams(inspectStore(db)!.imported!), readOnly: true });
const idOf = (o: { output_id: { transaction_id: never; index: number } }) =>
  outputId(bin(o.output_id.transaction_id), o.output_id.index);
const absent = (read: () => unknown) => {
  try {
    read();
  } catch (e) {
    return e instanceof LedgerError && e.code === 'NOT_FOUND';
  }
  return false;
};

/** Every milestone up to the latest is whole; every one after it left no trace. */
function expectWholeOrNothing(ledger: Ledger): number {
  const latest = ledger.latestCommitment().slot;
  expect([17338, 17339, 17340]).toContain(latest);
  for (const index of [17339, 17340] as const) {
    const r = chronicleMilestone(index);
    const held = index <= latest;
    expect(ledger.milestone(index) !== undefined, `milestone ${index}`).toBe(held);
    for (const b of coneOf(index)) {
      const id = blockId(bin(b.raw));
      if (held) expect(ledger.block(id).whiteFlag?.index).toBe(b.metadata.white_flag_index);
      else expect(absent(() => ledger.block(id))).toBe(true);
    }
    for (const o of r.created) {
      if (held) expect(ledger.outputWithMetadata(idOf(o)).createdSlot).toBe(index);
      else expect(absent(() => ledger.outputWithMetadata(idOf(o)))).toBe(true);
    }
    for (const c of r.consumed)
      expect(ledger.outputWithMetadata(idOf(c.output)).spent?.slot).toBe(held ? index : undefined);
  }
  return latest;
}

/** What the store answers of the two milestones, to compare an interrupted run with an uninterrupted one. */
function answers(ledger: Ledger): string {
  const lines: string[] = [];
  for (const index of [17339, 17340] as const) {
    lines.push(
      `${index} ${toHex(ledger.commitmentOf(index)!.commitmentId)} ${toHex(ledger.milestone(index)!.payload!)}`,
    );
    for (const b of coneOf(index)) lines.push(JSON.stringify(ledger.block(blockId(bin(b.raw))).whiteFlag));
  }
  lines.push(...[...ledger.unspentOutputs()].map(([id]) => toHex(id)));
  return lines.join('\n');
}

it('killed before, inside and after each milestone’s write: whole or nothing, and resumed to the same store', async () => {
  const straight = await fresh('straight');
  expect((await runChild(straight)).applied).toEqual([17339, 17340]);
  const wanted = (() => {
    const l = open(straight);
    try {
      return answers(l);
    } finally {
      l.close();
    }
  })();
  let n = 0;
  for (const index of [17339, 17340]) {
    for (const phase of ['before', 'inside', 'after']) {
      const db = await fresh(`killed-${++n}`);
      const run = await runChild(db, `${index}:1:${phase}`);
      expect(run.killed, `${index} ${phase}: ${run.out}`).toBe(true);
      let ledger = open(db);
      try {
        const latest = expectWholeOrNothing(ledger);
        // Before or inside the write: the milestone is not there; after it: it is.
        expect(latest).toBe(phase === 'after' ? index : index - 1);
      } finally {
        ledger.close();
      }
      expect((await runChild(db)).applied).toEqual(
        [17339, 17340].filter((i) => i > (phase === 'after' ? index : index - 1)),
      );
      ledger = open(db);
      try {
        expectWholeOrNothing(ledger);
        expect(answers(ledger)).toBe(wanted);
      } finally {
        ledger.close();
      }
    }
  }
});
