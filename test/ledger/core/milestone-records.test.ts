// A milestone's own records go into its slot's one commit however many there are (issue 58): the first milestone
// applied after a snapshot of 100,000 outputs carries the archive built from every one of them, and passing them to
// push as a spread of arguments overflowed V8's stack ("Maximum call stack size exceeded", past about 120,000).
import { expect, it } from 'vitest';
import { type MilestonePayload, openLedger, PROTOCOL_PARAMETERS } from '../../../src/index.js';
import { keys } from '../../../src/ledger/common/index.js';

const N = 160_000;
const be32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);

it(`commits a milestone's ${N.toLocaleString('en')} records in its slot's one write`, () => {
  const ledger = openLedger({ params: PROTOCOL_PARAMETERS.testnet, genesis: { outputs: [] } });
  try {
    const writer = ledger.milestoneWriter();
    const table = keys.tables.holding;
    const records: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < N; i++) records.push([Uint8Array.of(table, ...be32(i)), be32(i * 7)]);
    const milestone = { index: 1, timestamp: 1_700_000_005 } as MilestonePayload;
    writer.commit(milestone, new Uint8Array(32).fill(7), Uint8Array.of(1), records);
    let count = 0;
    let wrong = 0;
    for (const [k, v] of writer.records(Uint8Array.of(table))) {
      const i = new DataView(k.buffer, k.byteOffset + 1, 4).getUint32(0);
      if (i !== count || new DataView(v.buffer, v.byteOffset, 4).getUint32(0) !== i * 7) wrong++;
      count++;
    }
    expect({ count, wrong }).toEqual({ count: N, wrong: 0 });
    expect(writer.record(keys.milestone(1))).toBeDefined();
  } finally {
    ledger.close();
  }
});
