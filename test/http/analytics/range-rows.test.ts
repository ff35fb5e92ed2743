// The analytics range over HTTP from rows kept once rendered (http/analytics/range-fragments.ts), on a network whose
// first milestone lies inside a chunk: milestone 1500 (genesis 1499), so chunk 1 holds no row before it and keeps
// its rows from there. Each answer is checked against the plain sum of the milestone's cone bytes, cold and warm,
// sent whole, as HEAD and gzipped, while milestones are still coming and with answers asked at once.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockId,
  buildBlock,
  createServer,
  encodeBlock,
  genesisSnapshot,
  issueMilestone,
  type Ledger,
  outputId,
  TESTNET_COORDINATOR_SECRET,
} from '../../../src/index.js';
import { importedLedger } from '../../helpers/imported-ledger.js';
import * as net from '../../helpers/test-network.js';
import { expectWholeAnswer } from '../../helpers/whole-answer.js';

const { basicOutput, carrying, SEP, T0, tempDir, testAddress, testnet } = net;
const dir = tempDir('tangle-range-rows-');
const NAME = 'analytics.milestone_size.total_milestone_bytes';
const FIRST = 1500;
let ledger: Ledger;
let origin: string;
let close: () => Promise<unknown>;
let next = FIRST;
let previous: Uint8Array | undefined;
/** The plain sum of each issued milestone's cone bytes, by index. */
const plain = new Map<number, number>();

function issueTo(end: number) {
  for (; next <= end; next++) {
    const tagged = encodeBlock(
      buildBlock({
        parents: [previous === undefined ? SEP : blockId(previous)],
        payload: { type: 5, tag: Uint8Array.of(next & 0xff), data: new Uint8Array(next % 17) },
        params: testnet,
      }),
    );
    const blocks = previous === undefined ? [tagged] : [previous, tagged];
    const issued = issueMilestone(ledger, {
      parents: [blockId(tagged)],
      blocks,
      timestamp: T0 + next,
      secretKeys: [TESTNET_COORDINATOR_SECRET],
    });
    previous = carrying(issued.milestone);
    const ids = ledger.blockIdsOfSlot(next, 10);
    plain.set(
      next,
      ids.reduce((s, id) => s + ledger.block(id).bytes.length, 0),
    );
  }
}

beforeAll(async () => {
  const full = await genesisSnapshot(testnet, {
    outputs: [
      { outputId: outputId(new Uint8Array(32).fill(0xb2), 0), output: basicOutput(testAddress(1), 1_000_000n) },
    ],
    timestamp: T0,
    solidEntryPoints: [SEP],
    milestoneIndex: FIRST - 1,
  });
  ledger = await importedLedger(join(dir, 'store'), full);
  const server = createServer({ ledger });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(resolve));
}, 60_000);

afterAll(async () => {
  await close?.();
  ledger?.close();
});

async function ask(from: number, to: number) {
  const url = `${origin}/api/analytics/v1/milestones?from=${from}&to=${to}&names=${NAME}`;
  const rows = [...plain].filter(([i]) => i >= from && i <= to).sort(([a], [b]) => a - b);
  const want = `{"from":${from},"to":${to},"milestones":[${rows
    .map(([i, bytes]) => `{"milestoneIndex":${i},"measurements":{"${NAME}":${bytes}}}`)
    .join(',')}]}`;
  await expectWholeAnswer(url, want, `${from}..${to}`);
  return rows.length;
}

describe('a range over kept rows, the first milestone inside a chunk', () => {
  it('answers the plain sums, cold and warm, before and after the first milestone', async () => {
    issueTo(2020);
    expect(plain.get(FIRST)).toBeGreaterThan(0);
    for (const [from, to] of [
      [1000, 1999],
      [1400, 1600],
      [FIRST, FIRST],
      [1, 2100],
      [1998, 2005],
      [1000, 1999],
      [1499, 1499],
      [1600, 1700],
    ] as const)
      await ask(from, to);
    expect(await ask(1, 2100)).toBe(2020 - FIRST + 1);
  });

  it('holds the milestones committed since, with answers asked at once', async () => {
    issueTo(2040);
    const counts = await Promise.all([ask(1490, 2040), ask(2010, 2039), ask(2000, 2999), ask(1501, 1502)]);
    expect(counts).toEqual([2040 - FIRST + 1, 30, 41, 2]);
    issueTo(2060);
    expect(await ask(2000, 2999)).toBe(61);
  });
});
