// The analytics paths real milestones never take (issue 57), each on milestones a test network's coordinator issued
// and measured as applied, against a plain scan written here: over the outputs the ledger holds (their bookings and
// spends as it reports them) and the blocks of each cone (their bytes and verdicts as it reports them). What the scan
// counts is inx-chronicle's (src/analytics/: unclaimed_tokens.rs counts outputs booked at milestone 0; a spent
// output's owning address is the expiration's return address once `spent_timestamp >= expiration.timestamp`
// (model/…/output/mod.rs:149-170, LedgerSpent::owning_address); milestone_size.rs counts every block's bytes and a
// payload's beside it; analytics/mod.rs:248-287 hands a transaction over only if its block is included).
// - a spend of a genesis output, and a spend of a later output (it is no genesis output: unclaimed tokens stay);
// - a spend of an output whose expiration falls on the milestone's very second, by its return address;
// - blocks without a payload;
// - a conflicting transaction whose inputs exist (not measured: its inputs stay unspent, its outputs are not made);
// - a chunk of milestones (1000 to 1999) closed, its first milestone measured: the range read from its columns.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Address,
  blockId,
  buildBlock,
  buildTransaction,
  createServer,
  decodeBlock,
  decodeOutput,
  encodeBlock,
  genesisSnapshot,
  issueMilestone,
  type Ledger,
  type Output,
  outputId,
  signTransaction,
  TESTNET_COORDINATOR_SECRET,
  type TransactionPayload,
  transactionId,
} from '../../../src/index.js';
import {
  CHUNK,
  MEASUREMENT_NAMES,
  measuredRange,
  measurementsFromRecord,
} from '../../../src/ledger/analytics/index.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import * as net from '../../helpers/test-network.js';
import { expectWholeAnswer } from '../../helpers/whole-answer.js';

const { basicOutput, carrying, genesisLedger, SEP, T0, tempDir, testAddress, testnet, testSecret } = net;

const dir = tempDir('tangle-analytics-plain-');
const MI = 1_000_000n;
const secret = testSecret;
const addr = testAddress;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const basic = basicOutput;
const keys = [TESTNET_COORDINATOR_SECRET];
const noPayload = (parents: Uint8Array[]) => encodeBlock(buildBlock({ parents, params: testnet }));
const spending = (parents: Uint8Array[], inputs: { outputId: Uint8Array; output: Output }[], to: Output[], k: number) =>
  encodeBlock(
    buildBlock({
      parents,
      payload: signTransaction(
        buildTransaction({ inputs, outputs: to, params: testnet }),
        inputs.map(() => secret(k)),
      ),
      params: testnet,
    }),
  );
const txOf = (block: Uint8Array) => decodeBlock(block).payload as TransactionPayload;
const record = (ledger: Ledger, index: number) => {
  const [r] = ledger.analytics(index, index);
  expect(r?.index, `milestone ${index} measured`).toBe(index);
  return measurementsFromRecord(r!.record);
};

describe('a genesis output spent, an expired output spent by its return address, blocks without a payload, a conflicting transaction whose inputs exist', () => {
  const [A, B, C, D, O, R, X, Y, E] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(addr) as Address[] as [Address, ...Address[]];
  /** Milestone 1's time: the expiration below falls on it. */
  const T1 = T0 + 100;
  const T2 = T0 + 200;
  const genesis = [
    basic(A, 2n * MI), // spent by A in milestone 1
    basic(O!, MI, [{ type: 3, returnAddress: R!, unixTime: T1 }]), // spent by R in milestone 1, at its expiration
    basic(X!, MI), // "spent" by a transaction signed with Y's key: conflicting
    basic(C!, 3n * MI), // spent by C in milestone 2
    basic(E!, 5n * MI), // never spent
  ].map((output, i) => ({ outputId: outputId(new Uint8Array(32).fill(0xa0 + i), 0), output }));
  const [g1, g2, g3, g4] = genesis as [(typeof genesis)[0], ...typeof genesis];
  let ledger: Ledger;
  const cones = new Map<number, Uint8Array[]>();
  const times = new Map([
    [1, T1],
    [2, T2],
  ]);
  let conflicting: Uint8Array;

  beforeAll(async () => {
    ledger = await genesisLedger(join(dir, 'paths'), genesis);
    const toB = spending([SEP], [g1], [basic(B!, 2n * MI)], 1);
    const expired = spending([SEP], [g2!], [basic(R!, MI)], 6);
    conflicting = spending([SEP], [g3!], [basic(Y!, MI)], 8);
    const bare = [noPayload([SEP]), noPayload([blockId(toB)])];
    const cone1 = [toB, expired, conflicting, ...bare];
    const m1 = issueMilestone(ledger, {
      parents: cone1.map((b) => blockId(b)),
      blocks: cone1,
      timestamp: T1,
      secretKeys: keys,
    });
    const fromB = { outputId: outputId(transactionId(txOf(toB)), 0), output: basic(B!, 2n * MI) };
    const m1Block = carrying(m1.milestone);
    const cone2 = [
      m1Block,
      spending([blockId(m1Block)], [g4!], [basic(D!, 3n * MI)], 3),
      spending([blockId(m1Block)], [fromB], [basic(C!, 2n * MI)], 2),
      noPayload([blockId(m1Block)]),
    ];
    issueMilestone(ledger, { parents: cone2.map((b) => blockId(b)), blocks: cone2, timestamp: T2, secretKeys: keys });
    cones.set(1, cone1);
    cones.set(2, cone2);
  });
  afterAll(() => ledger?.close());

  it('the cones take the paths: verdicts as meant, the conflicting transaction’s input still unspent', () => {
    const verdicts = (index: number) => cones.get(index)!.map((b) => ledger.block(blockId(b)).whiteFlag!.inclusion);
    expect(verdicts(1)).toEqual([1, 1, 2, 0, 0]);
    expect(verdicts(2)).toEqual([0, 1, 1, 0]);
    expect(ledger.outputWithMetadata(g3!.outputId).spent).toBeUndefined();
    expect(ledger.outputWithMetadata(g2!.outputId).spent?.slot).toBe(1);
    expect(cones.get(1)!.filter((b) => decodeBlock(b).payload === undefined)).toHaveLength(2);
  });

  /** Every output the ledger holds of these milestones: the genesis outputs and each transaction's it made. */
  function outputs() {
    const ids = genesis.map((g) => g.outputId);
    for (const cone of cones.values())
      for (const b of cone) {
        const p = decodeBlock(b).payload;
        if (p?.type !== 6) continue;
        p.essence.outputs.forEach((_, i) => ids.push(outputId(transactionId(p), i)));
      }
    const held = [];
    for (const id of ids) {
      try {
        held.push(ledger.outputWithMetadata(id));
      } catch (e) {
        expect((e as { code: string }).code).toBe('NOT_FOUND'); // a conflicting transaction's output: never made
      }
    }
    return held;
  }
  /** inx-chronicle's owner: the address, or from its expiration's second on the return address. */
  function owner(o: Output, at?: number): string {
    if (o.type !== 3) throw new Error('only basic outputs here');
    const address = o.unlockConditions.find((u) => u.type === 0)!.address as Address & { pubKeyHash: Uint8Array };
    const expiration = o.unlockConditions.find((u) => u.type === 3);
    if (at !== undefined && expiration !== undefined && at >= expiration.unixTime)
      return hex((expiration.returnAddress as { pubKeyHash: Uint8Array }).pubKeyHash);
    return hex(address.pubKeyHash);
  }

  /** The measurements of milestone `index` a plain scan of the ledger gives. */
  function scanned(index: number) {
    const at = times.get(index)!;
    const all = outputs().map((o) => ({ ...o, decoded: decodeOutput(o.output) }));
    const unspent = all.filter((o) => o.createdSlot <= index && !(o.spent !== undefined && o.spent.slot <= index));
    const unclaimed = unspent.filter((o) => o.createdSlot === 0);
    const active = new Set<string>();
    for (const o of all) {
      if (o.spent?.slot === index) active.add(owner(o.decoded, at));
      if (o.createdSlot === index) active.add(owner(o.decoded));
    }
    const sum = (os: typeof all) => os.reduce((s, o) => s + o.decoded.amount, 0n);
    const blocks = ledger.blockIdsOfSlot(index, 100).map((id) => ledger.block(id).bytes);
    const bytesOf = (type: number | undefined) =>
      blocks.filter((b) => decodeBlock(b).payload?.type === type).reduce((s, b) => s + b.length, 0);
    return {
      'analytics.unclaimed_tokens.unclaimed_count': unclaimed.length,
      'analytics.unclaimed_tokens.unclaimed_amount.0': sum(unclaimed),
      'analytics.active_addresses.count': active.size,
      'analytics.ledger_outputs.basic.count': unspent.length,
      'analytics.ledger_outputs.basic.amount.0': sum(unspent),
      'analytics.base_tokens.booked_amount.0': sum(all.filter((o) => o.createdSlot === index)),
      'analytics.block_activity.no_payload_count': blocks.filter((b) => decodeBlock(b).payload === undefined).length,
      'analytics.milestone_size.total_milestone_bytes': blocks.reduce((s, b) => s + b.length, 0),
      'analytics.milestone_size.total_milestone_payload_bytes': bytesOf(7),
      'analytics.milestone_size.total_tagged_data_payload_bytes': bytesOf(5),
      'analytics.milestone_size.total_transaction_payload_bytes': bytesOf(6),
    };
  }

  for (const index of [1, 2])
    it(`milestone ${index}: the stored measurements are the plain scan’s`, () => {
      const want = scanned(index);
      const got = record(ledger, index);
      expect(Object.fromEntries(Object.keys(want).map((n) => [n, String(got[n])]))).toEqual(
        Object.fromEntries(Object.entries(want).map(([n, v]) => [n, String(v)])),
      );
    });

  it('the scan is not trivially met: the paths move the measurements', () => {
    const [one, two] = [scanned(1), scanned(2)];
    // Genesis: five outputs, 12 Mi. Milestone 1 spends two of them (3 Mi); milestone 2 one more (3 Mi) and B's output.
    expect(one['analytics.unclaimed_tokens.unclaimed_count']).toBe(3);
    expect(two['analytics.unclaimed_tokens.unclaimed_amount.0']).toBe(6n * MI);
    // Milestone 1: A, R (the expired output's), B; not O (its owner before), X or Y (the conflicting transaction's).
    expect(one['analytics.active_addresses.count']).toBe(3);
    expect(one['analytics.block_activity.no_payload_count']).toBe(2);
    expect(one['analytics.milestone_size.total_milestone_bytes']).toBeGreaterThan(
      one['analytics.milestone_size.total_transaction_payload_bytes'],
    );
  });
});

describe('a chunk closed whose first milestone was measured', () => {
  it('milestones 1000 to 1999 read from the chunk’s columns are the plain sums of their cones’ bytes', async () => {
    // A network whose genesis is milestone 999: its first milestone, 1000, opens chunk 1; 1999 closes it.
    const full = await genesisSnapshot(testnet, {
      outputs: [{ outputId: outputId(new Uint8Array(32).fill(0xb1), 0), output: basic(addr(1), MI) }],
      timestamp: T0,
      solidEntryPoints: [SEP],
      milestoneIndex: CHUNK - 1,
    });
    const ledger = await importedLedger(join(dir, 'chunk'), full);
    try {
      let previous: Uint8Array | undefined; // the block carrying the milestone before (none before the first)
      let next = CHUNK;
      const issueOne = (index: number) => {
        // A tagged block whose size varies with the index, on the previous milestone's block.
        const data = new Uint8Array(index % 13);
        const parents = [previous === undefined ? SEP : blockId(previous)];
        const tagged = encodeBlock(
          buildBlock({ parents, payload: { type: 5, tag: Uint8Array.of(index & 0xff), data }, params: testnet }),
        );
        const blocks = previous === undefined ? [tagged] : [previous, tagged];
        const issued = issueMilestone(ledger, {
          parents: [blockId(tagged)],
          blocks,
          timestamp: T0 + index,
          secretKeys: keys,
        });
        previous = carrying(issued.milestone);
      };
      const issueTo = (end: number) => {
        for (; next <= end; next++) issueOne(next);
      };
      issueTo(2 * CHUNK - 1);
      const name = 'analytics.milestone_size.total_milestone_bytes';
      const explorer = ledger.explorer();
      // Chunk 1 is closed: its columns are there, and the range is read from them.
      expect(explorer.columns([MEASUREMENT_NAMES.indexOf(name)], 1, 1)).toHaveLength(1);
      const fromColumns = await measuredRange(explorer, CHUNK - 1, 2 * CHUNK - 1, [name]);
      const plainOf = (index: number) => ({
        index,
        measurements: {
          [name]: ledger.blockIdsOfSlot(index, 10).reduce((s, id) => s + ledger.block(id).bytes.length, 0),
        },
      });
      const plain: ReturnType<typeof plainOf>[] = [];
      for (let index = CHUNK; index < 2 * CHUNK; index++) plain.push(plainOf(index));
      expect(plain[0]!.measurements[name]).toBeGreaterThan(0);
      expect(fromColumns).toEqual(plain);

      // Over HTTP, ranges cold and again (a committed milestone's row is kept once rendered: range-fragments.ts),
      // each the plain scan's rows as the route's JSON, byte for byte.
      const server = createServer({ ledger });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const ask = async (from: number, to: number) => {
          const url = `http://127.0.0.1:${port}/api/analytics/v1/milestones?from=${from}&to=${to}&names=${name}`;
          const rows = plain.filter((p) => p.index >= from && p.index <= to);
          const want = `{"from":${from},"to":${to},"milestones":[${rows
            .map((p) => `{"milestoneIndex":${p.index},"measurements":{"${name}":${p.measurements[name]}}}`)
            .join(',')}]}`;
          await expectWholeAnswer(url, want, `${from}..${to}`);
        };
        for (const [from, to] of [
          [CHUNK, 2 * CHUNK - 1],
          [CHUNK - 1, 2 * CHUNK - 1],
          [CHUNK + 500, 2 * CHUNK - 1],
          [CHUNK, 2 * CHUNK - 1],
          [CHUNK - 5, CHUNK + 3],
          [2 * CHUNK - 10, 2 * CHUNK + 10],
          [CHUNK - 1, 2 * CHUNK - 1],
        ] as const)
          await ask(from, to);
        // A chunk asked whole while its milestones are still coming (2000 to 2999 at 2029, then at 2059): its rows
        // are kept as far as committed, so the later answer must hold the milestones committed since.
        issueTo(2 * CHUNK + 29);
        for (let index = 2 * CHUNK; index <= 2 * CHUNK + 29; index++) plain.push(plainOf(index));
        await ask(2 * CHUNK, 3 * CHUNK - 1);
        issueTo(2 * CHUNK + 59);
        for (let index = 2 * CHUNK + 30; index <= 2 * CHUNK + 59; index++) plain.push(plainOf(index));
        await ask(2 * CHUNK, 3 * CHUNK - 1);
        await ask(CHUNK, 3 * CHUNK - 1);
        // Inside the kept rows; then, concurrently, across the kept and the newly committed, and past the latest.
        await ask(2 * CHUNK + 5, 2 * CHUNK + 20);
        issueTo(2 * CHUNK + 89);
        for (let index = 2 * CHUNK + 60; index <= 2 * CHUNK + 89; index++) plain.push(plainOf(index));
        await Promise.all([
          ask(2 * CHUNK + 50, 2 * CHUNK + 70),
          ask(2 * CHUNK + 80, 3 * CHUNK - 1),
          ask(2 * CHUNK - 1, 2 * CHUNK + 89),
          ask(2 * CHUNK + 59, 2 * CHUNK + 60),
        ]);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      ledger.close();
    }
  }, 300_000);
});
