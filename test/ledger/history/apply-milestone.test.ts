// Real Shimmer milestones 17339 and 17340 applied as hornet applied them (issue 45), to a test ledger at 17338 built
// from the outputs they consume (helpers/chronicle.ts). The answers are the data's: hornet's white-flag metadata of
// every block, the outputs each milestone created and consumed with their bookings, the milestone IDs. Then the ways
// a milestone is refused, each leaving the ledger as it was.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressToBech32,
  applyMilestone,
  blockId,
  createServer,
  decodeBlock,
  encodeMilestonePayload,
  exportSnapshot,
  importedParams,
  importSnapshot,
  inputsCommitment,
  inspectStore,
  type Ledger,
  milestonePayloadToJson,
  openLedger,
  outputId,
  slotEvents,
  type TransactionPayload,
  transactionId,
} from '../../../src/index.js';
import {
  type Bin,
  bin,
  chronicleMilestone,
  chronicleSnapshot,
  coneOf,
  milestonePayloadOf,
  outputOf,
} from '../../helpers/chronicle.js';
import { importedLedger } from '../../helpers/imported-ledger.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'tangle-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STATE = { included: 'included', conflicting: 'conflicting', no_transaction: 'noTransaction' } as const;
const input = (index: 17339 | 17340) => ({
  milestone: milestonePayloadOf(index),
  blocks: coneOf(index).map((b) => bin(b.raw)),
});

/** A writable ledger on a fresh import of the test snapshot. */
async function freshLedger(name: string): Promise<Ledger> {
  return importedLedger(join(dir, name), await chronicleSnapshot());
}

/** A fresh ledger with both milestones applied. */
async function bothApplied(name: string): Promise<Ledger> {
  const ledger = await freshLedger(name);
  for (const index of [17339, 17340] as const) applyMilestone(ledger, input(index));
  return ledger;
}

describe('the test ledger is right', () => {
  it('the consumed outputs, turned into Stardust outputs, hash to every cone transaction’s inputs commitment', () => {
    let checked = 0;
    for (const index of [17339, 17340] as const) {
      const consumed = new Map<string, Uint8Array | ReturnType<typeof outputOf>>();
      for (const c of chronicleMilestone(index).consumed) {
        const id = outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index);
        consumed.set(hex(id), outputOf(c.output.output));
      }
      for (const b of coneOf(index)) {
        const p = decodeBlock(bin(b.raw)).payload;
        if (p?.type !== 6) continue;
        const tx = p as TransactionPayload;
        const ins = tx.essence.inputs.map((i) =>
          consumed.get(hex(outputId(i.transactionId, i.transactionOutputIndex))),
        );
        expect(ins.every((o) => o !== undefined)).toBe(true);
        expect(hex(inputsCommitment(ins as never))).toBe(hex(tx.essence.inputsCommitment));
        checked++;
      }
    }
    expect(checked).toBe(12); // 5 transactions in 17339's cone, 7 in 17340's
  });
});

describe('milestones 17339 and 17340 applied', () => {
  let ledger: Ledger;
  let origin: string;
  let close: () => Promise<void>;
  const get = async (route: string, accept?: string) => {
    const res = await fetch(`${origin}${route}`, accept === undefined ? {} : { headers: { accept } });
    const body = accept === undefined ? await res.json() : new Uint8Array(await res.arrayBuffer());
    return { status: res.status, body: body as any };
  };

  beforeAll(async () => {
    ledger = await freshLedger('applied');
    ledger.setSynced(true);
    const server = createServer({ ledger });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise<void>((done) => server.close(() => done())).then(() => ledger.close());
  });
  afterAll(() => close());

  it('each applies, with the data’s milestone ID and counts', () => {
    for (const index of [17339, 17340] as const) {
      const a = applyMilestone(ledger, input(index));
      const cone = coneOf(index);
      expect(a.index).toBe(index);
      expect(hex(a.milestoneId)).toBe(hex(bin(chronicleMilestone(index).milestone_data.milestone_id)));
      expect(a.referenced).toBe(cone.length);
      expect(a.included).toBe(cone.filter((b) => b.metadata.inclusion_state === 'included').length);
      expect(a.conflicting).toBe(0);
      expect(ledger.latestCommitment().slot).toBe(index);
    }
  });

  it('every block’s metadata is hornet’s, field by field and in its order', async () => {
    for (const index of [17339, 17340] as const) {
      for (const b of coneOf(index)) {
        const m = b.metadata;
        const id = hex(blockId(bin(b.raw)));
        const want: Record<string, unknown> = {
          blockId: id,
          parents: m.parents.map((p) => hex(bin(p))),
          isSolid: true,
          referencedByMilestoneIndex: m.referenced_by_milestone_index,
          ...(m.milestone_index ? { milestoneIndex: m.milestone_index } : {}),
          ledgerInclusionState: STATE[m.inclusion_state],
          whiteFlagIndex: m.white_flag_index,
        };
        const { status, body } = await get(`/api/core/v2/blocks/${id}/metadata`);
        expect(status).toBe(200);
        expect(JSON.stringify(body)).toBe(JSON.stringify(want));
      }
    }
  });

  it('the milestones by index and by ID: the payload as issued, JSON and bytes', async () => {
    for (const index of [17339, 17340] as const) {
      const payload = milestonePayloadOf(index);
      const id = hex(bin(chronicleMilestone(index).milestone_data.milestone_id));
      const json = JSON.parse(JSON.stringify(milestonePayloadToJson(payload)));
      for (const route of [`/api/core/v2/milestones/by-index/${index}`, `/api/core/v2/milestones/${id}`]) {
        const { status, body } = await get(route);
        expect(status).toBe(200);
        expect(body).toEqual(json);
      }
      const raw = await get(`/api/core/v2/milestones/${id}`, 'application/vnd.iota.serializer-v1');
      expect(raw.status).toBe(200);
      expect(hex(raw.body)).toBe(hex(encodeMilestonePayload(payload)));
    }
  });

  it('the UTXO changes are the data’s created and consumed outputs', async () => {
    for (const index of [17339, 17340] as const) {
      const r = chronicleMilestone(index);
      const ids = (list: any[]) =>
        list.map((o) => hex(outputId(bin(o.output_id.transaction_id), o.output_id.index))).sort();
      const { body } = await get(`/api/core/v2/milestones/by-index/${index}/utxo-changes`);
      expect(body.index).toBe(index);
      expect([...body.createdOutputs].sort()).toEqual(ids(r.created));
      expect([...body.consumedOutputs].sort()).toEqual(ids(r.consumed.map((c: any) => c.output)));
    }
  });

  it('every output’s booking and spend are the data’s', async () => {
    for (const index of [17339, 17340] as const) {
      const r = chronicleMilestone(index);
      for (const o of r.created) {
        const id = hex(outputId(bin(o.output_id.transaction_id), o.output_id.index));
        const { body } = await get(`/api/core/v2/outputs/${id}/metadata`);
        expect(body).toMatchObject({
          blockId: hex(bin(o.block_id)),
          milestoneIndexBooked: o.booked.milestone_index,
          milestoneTimestampBooked: o.booked.milestone_timestamp,
        });
      }
      for (const c of r.consumed) {
        const o = c.output;
        const id = hex(outputId(bin(o.output_id.transaction_id), o.output_id.index));
        const { body } = await get(`/api/core/v2/outputs/${id}/metadata`);
        expect(body).toMatchObject({
          blockId: hex(bin(o.block_id)),
          isSpent: true,
          milestoneIndexSpent: c.spent_metadata.spent.milestone_index,
          milestoneTimestampSpent: c.spent_metadata.spent.milestone_timestamp,
          transactionIdSpent: hex(bin(c.spent_metadata.transaction_id)),
          milestoneIndexBooked: o.booked.milestone_index,
          milestoneTimestampBooked: o.booked.milestone_timestamp,
        });
      }
    }
  });

  it('the indexer holds each created basic output under its address; the v3 routes answer for the slots', async () => {
    for (const index of [17339, 17340] as const) {
      const r = chronicleMilestone(index);
      for (const o of r.created.filter((x: any) => x.output.kind === 'basic')) {
        const id = hex(outputId(bin(o.output_id.transaction_id), o.output_id.index));
        const address = addressToBech32(
          (outputOf(o.output).unlockConditions[0] as unknown as { address: never }).address,
          'smr',
        );
        const { status, body } = await get(`/api/indexer/v1/outputs/basic?address=${address}`);
        expect(status).toBe(200);
        expect(body.items).toContain(id);
        expect(body.ledgerIndex).toBe(17340);
      }
      const { status, body } = await get(`/api/core/v3/commitments/by-slot/${index}/utxo-changes`);
      expect(status).toBe(200);
      // Nova ids: the Stardust id's transaction, the creating slot (u32 LE), the index (u16 LE).
      const nova = r.created.map((o: any) => {
        const tail = Buffer.alloc(6);
        tail.writeUInt32LE(index, 0);
        tail.writeUInt16LE(o.output_id.index, 4);
        return `${hex(bin(o.output_id.transaction_id))}${tail.toString('hex')}`;
      });
      expect([...body.createdOutputs].sort()).toEqual(nova.sort());
    }
  });

  it('the indexer’s creation times are the milestones’ timestamps (inx-indexer’s created_at), in filters and cursors', async () => {
    const [t17339, t17340] = [milestonePayloadOf(17339).timestamp, milestonePayloadOf(17340).timestamp];
    const basicOf = (index: 17339 | 17340) =>
      chronicleMilestone(index)
        .created.filter((x: any) => x.output.kind === 'basic')
        .map((o: any) => hex(outputId(bin(o.output_id.transaction_id), o.output_id.index)));
    const consumed = new Set(
      chronicleMilestone(17340).consumed.map((c: any) =>
        hex(outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index)),
      ),
    );
    const after17339 = (await get(`/api/indexer/v1/outputs/basic?createdAfter=${t17339}`)).body;
    expect([...after17339.items].sort()).toEqual(basicOf(17340).sort());
    const between = (await get(`/api/indexer/v1/outputs/basic?createdAfter=${t17339 - 1}&createdBefore=${t17340}`))
      .body;
    expect([...between.items].sort()).toEqual(
      basicOf(17339)
        .filter((id: string) => !consumed.has(id))
        .sort(),
    );
    // Paged one at a time from just before 17339: each cursor names the next output's milestone time.
    let cursor = '';
    const seen: string[] = [];
    for (;;) {
      const q = cursor === '' ? `createdAfter=${t17339 - 1}&pageSize=1` : `cursor=${cursor}`;
      const { body } = await get(`/api/indexer/v1/outputs/basic?${q}`);
      seen.push(...body.items);
      if (body.cursor === undefined) break;
      cursor = body.cursor;
      expect([t17339, t17340]).toContain(Number.parseInt(cursor.slice(0, 8), 16));
    }
    expect(seen.sort()).toEqual([...between.items, ...after17339.items].sort());
  });

  it('each included transaction’s block, and /info’s milestones, are the data’s', async () => {
    for (const index of [17339, 17340] as const) {
      for (const b of coneOf(index).filter((x) => x.metadata.inclusion_state === 'included')) {
        const tx = decodeBlock(bin(b.raw)).payload as TransactionPayload;
        const { status, body } = await get(`/api/core/v2/transactions/${hex(transactionIdOf(b))}/included-block`);
        expect(status).toBe(200);
        expect(body.nonce).toBe(decodeBlock(bin(b.raw)).nonce.toString());
        expect(tx.type).toBe(6);
      }
    }
    const { body } = await get('/api/core/v2/info');
    const latest = {
      index: 17340,
      timestamp: 1664385906,
      milestoneId: hex(bin(chronicleMilestone(17340).milestone_data.milestone_id)),
    };
    expect(body.status.latestMilestone).toEqual(latest);
    expect(body.status.confirmedMilestone).toEqual(latest);
  });
});

const transactionIdOf = (b: { raw: Bin }) => transactionId(decodeBlock(bin(b.raw)).payload as TransactionPayload);

describe('a milestone is refused whole, and the ledger stays as it was', () => {
  /** The refusal's message (MILESTONE_INVALID), after which the ledger still stands at 17338 with nothing pending. */
  const refusal = (ledger: Ledger, given: ReturnType<typeof input>) => {
    let message = '';
    try {
      applyMilestone(ledger, given);
    } catch (e) {
      expect((e as { code: string }).code).toBe('MILESTONE_INVALID');
      message = (e as Error).message;
    }
    expect(ledger.latestCommitment().slot).toBe(17338);
    return message;
  };

  it('a gap, a forged signature, a block missing, one not of the cone, one given twice: then the real one applies', async () => {
    const ledger = await freshLedger('refusals');
    try {
      expect(refusal(ledger, input(17340))).toMatch(/milestone 17340: the ledger stands at milestone 17338: a gap/);
      const forged = input(17339);
      forged.milestone.signatures[3]!.signature[7]! ^= 1;
      expect(refusal(ledger, forged)).toMatch(/MILESTONE_SIGNATURE_INVALID at signatures\[3\]\.signature/);
      const later = input(17339);
      later.milestone.timestamp = 1; // signed no more, and before its predecessor: the time is the first rule broken
      expect(refusal(ledger, later)).toMatch(/its time 1 is not after milestone 17338/);
      const missing = input(17339);
      const dropped = missing.blocks.splice(5, 1)[0]!;
      expect(refusal(ledger, missing)).toMatch(
        new RegExp(`: milestone 17339: block ${hex(blockId(dropped))} of the cone is missing`),
      );
      const extra = input(17339);
      extra.blocks.push(bin(coneOf(17340)[3]!.raw));
      expect(refusal(ledger, extra)).toMatch(/is not in its cone/);
      const twice = input(17339);
      twice.blocks.push(twice.blocks[0]!);
      expect(refusal(ledger, twice)).toMatch(/is given twice/);
      // A lying source's bytes for an ID are another block: the block asked for is missing.
      const lying = input(17339);
      lying.blocks[2] = lying.blocks[2]!.slice();
      lying.blocks[2]![lying.blocks[2]!.length - 1]! ^= 1;
      expect(refusal(ledger, lying)).toMatch(/of the cone is missing|is not in its cone/);
      // None of it left a trace: the real milestone applies, as on a fresh ledger.
      expect(applyMilestone(ledger, input(17339)).referenced).toBe(coneOf(17339).length);
    } finally {
      ledger.close();
    }
  });

  it('a cone that is not the one the milestone signed: its inclusion Merkle root differs', async () => {
    // A block of the cone taken as a solid entry point: the walk stops there, and the cone is smaller.
    const inner = coneOf(17339).find((b) => b.metadata.white_flag_index === 3)!;
    const path = join(dir, 'short-cone');
    await importSnapshot({ path, full: await chronicleSnapshot({ extraSeps: [blockId(bin(inner.raw))] }) });
    const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    try {
      const given = input(17339);
      given.blocks = given.blocks.filter((b) => hex(blockId(b)) !== hex(blockId(bin(inner.raw))));
      expect(refusal(ledger, given)).toMatch(/inclusion Merkle root is not the cone's/);
    } finally {
      ledger.close();
    }
  });

  it('a transaction that conflicts here but was applied on the network: the applied Merkle root differs', async () => {
    const spent = chronicleMilestone(17339).consumed[0].output;
    const id = hex(outputId(bin(spent.output_id.transaction_id), spent.output_id.index));
    const path = join(dir, 'missing-output');
    await importSnapshot({ path, full: await chronicleSnapshot({ omit: id }) });
    const ledger = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
    try {
      expect(refusal(ledger, input(17339))).toMatch(/applied Merkle root is not that of the transactions applied/);
      // The transactions applied before the refusal are undone: what they spent is unspent.
      for (const c of chronicleMilestone(17339).consumed.slice(1)) {
        const other = outputId(bin(c.output.output_id.transaction_id), c.output.output_id.index);
        expect(ledger.outputWithMetadata(other).spent).toBeUndefined();
      }
    } finally {
      ledger.close();
    }
  });
});

describe('pruning a real milestone', () => {
  it('drops its blocks and their verdicts, keeps its payload; the next milestone is untouched', async () => {
    const ledger = await bothApplied('pruned');
    try {
      ledger.prune(17340);
      const gone = blockId(bin(coneOf(17339)[0]!.raw));
      expect(() => ledger.block(gone)).toThrow(/block not found/);
      expect(hex(ledger.milestone(17339)!.payload!)).toBe(hex(encodeMilestonePayload(milestonePayloadOf(17339))));
      for (const b of coneOf(17340))
        expect(ledger.block(blockId(bin(b.raw))).whiteFlag?.index).toBe(b.metadata.white_flag_index);
    } finally {
      ledger.close();
    }
  });
});

describe('the events of a real milestone (TIP-28)', () => {
  it('the milestone as issued, its real info, each block’s white-flag metadata, each applied transaction', async () => {
    const ledger = await bothApplied('events');
    try {
      const messages = await slotEvents(ledger, 17340);
      const one = (topic: string) => messages.filter((m) => m.topic === topic).map((m) => m.payload);
      expect(one('milestones').map(hex)).toEqual([hex(encodeMilestonePayload(milestonePayloadOf(17340)))]);
      const info = JSON.parse(Buffer.from(one('milestone-info/latest')[0]!).toString());
      expect(info).toEqual({
        index: 17340,
        timestamp: 1664385906,
        milestoneId: hex(bin(chronicleMilestone(17340).milestone_data.milestone_id)),
      });
      for (const b of coneOf(17340)) {
        const id = hex(blockId(bin(b.raw)));
        const [metadata] = one(`block-metadata/${id}`);
        expect(JSON.parse(Buffer.from(metadata!).toString()).whiteFlagIndex).toBe(b.metadata.white_flag_index);
        if (b.metadata.inclusion_state === 'included')
          expect(one(`transactions/${hex(transactionIdOf(b))}/included-block`)).toHaveLength(1);
      }
    } finally {
      ledger.close();
    }
  });
});

describe('a snapshot exported from real milestones', () => {
  it('names the real milestone and its payloads; a ledger imported from it applies the next milestone as the first did', async () => {
    const first = await freshLedger('exporter');
    try {
      applyMilestone(first, input(17339));
      const full = join(dir, 'at-17339.snapshot');
      const { full: header } = await exportSnapshot(first, full);
      expect(header.targetMilestoneIndex).toBe(17339);
      expect(hex(header.targetMilestoneId)).toBe(hex(bin(chronicleMilestone(17339).milestone_data.milestone_id)));
      expect(header.targetMilestoneTimestamp).toBe(milestonePayloadOf(17339).timestamp);
      const path = join(dir, 'imported-from-export');
      await importSnapshot({ path, full: readFileSync(full) });
      const second = openLedger({ path, params: importedParams(inspectStore(path)!.imported!) });
      try {
        applyMilestone(first, input(17340));
        applyMilestone(second, input(17340)); // its cone stops at the exported entry points
        for (const b of coneOf(17340)) {
          const id = blockId(bin(b.raw));
          expect(second.block(id).whiteFlag).toEqual(first.block(id).whiteFlag);
        }
        const ids = (l: Ledger) => [...l.unspentOutputs()].map(([id]) => hex(id)).sort();
        expect(ids(second)).toEqual(ids(first));
        expect(hex(second.milestone(17340)!.milestoneId)).toBe(hex(first.milestone(17340)!.milestoneId));
      } finally {
        second.close();
      }
    } finally {
      first.close();
    }
  });
});
