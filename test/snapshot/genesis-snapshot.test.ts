// genesisSnapshot (issue 45): a new network's full snapshot at milestone 0, read back record by record (an independent
// reader: the TIP-35 records), imported as any snapshot is (outputs and treasury add up to the supply), and refused
// when its outputs hold more than the supply.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  ed25519AddressOf,
  ed25519PublicKey,
  genesisSnapshot,
  importSnapshot,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
} from '../../src/index.js';
import { records } from '../helpers/snapshots.js';

const dir = mkdtempSync(join(tmpdir(), 'tangle-genesis-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const testnet = PROTOCOL_PARAMETERS.testnet;
const address = ed25519AddressOf(ed25519PublicKey(new Uint8Array(32).fill(1)));
const basic = (amount: bigint) => ({
  type: 3 as const,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0 as const, address }],
  features: [],
});
const outputs = [1, 2].map((n) => ({
  outputId: outputId(new Uint8Array(32).fill(n), 0),
  output: basic(1_000_000n * BigInt(n)),
}));

it('a snapshot at milestone 0: its outputs booked there, the rest of the supply in the treasury; it imports', async () => {
  const sep = new Uint8Array(32).fill(9);
  const file = await genesisSnapshot(testnet, { outputs, timestamp: 1_700_000_000, solidEntryPoints: [sep] });
  const rs = await records(file);
  const header = rs[0]!.kind === 'header' ? rs[0]!.header : undefined;
  expect(header).toMatchObject({
    type: 0,
    genesisMilestoneIndex: 0,
    targetMilestoneIndex: 0,
    ledgerMilestoneIndex: 0,
    targetMilestoneTimestamp: 1_700_000_000,
    targetMilestoneId: new Uint8Array(32),
    treasuryOutput: { amount: testnet.tokenSupply - 3_000_000n },
  });
  expect(header && 'protocolParameters' in header ? header.protocolParameters.params.networkName : '').toBe('testnet');
  const kept = rs.flatMap((r) => (r.kind === 'output' ? [r.output] : []));
  expect(kept.map((o) => [o.output.amount, o.milestoneIndexBooked, o.milestoneTimestampBooked])).toEqual([
    [1_000_000n, 0, 1_700_000_000],
    [2_000_000n, 0, 1_700_000_000],
  ]);
  expect(rs.flatMap((r) => (r.kind === 'solidEntryPoint' ? [r.blockId] : []))).toEqual([sep]);
  const result = await importSnapshot({ path: join(dir, 'genesis'), full: file });
  expect(result.unspentOutputs).toBe(2);
  expect(result.latestSlot).toBe(0);
});

it('a snapshot at a later milestone: everything of it at that index, and the ledger imported there', async () => {
  const file = await genesisSnapshot(testnet, { outputs, timestamp: 1_700_000_000, milestoneIndex: 995 });
  const rs = await records(file);
  const header = rs[0]!.kind === 'header' ? rs[0]!.header : undefined;
  expect(header).toMatchObject({ genesisMilestoneIndex: 995, targetMilestoneIndex: 995, ledgerMilestoneIndex: 995 });
  expect(header && 'protocolParameters' in header ? header.protocolParameters.targetMilestoneIndex : -1).toBe(995);
  const booked = rs.flatMap((r) => (r.kind === 'output' ? [r.output.milestoneIndexBooked] : []));
  expect(booked).toEqual([995, 995]);
  expect((await importSnapshot({ path: join(dir, 'genesis-995'), full: file })).latestSlot).toBe(995);
});

it('refuses outputs that hold more than the token supply', () => {
  const small = protocolParameters(testnet, { tokenSupply: 2_999_999n });
  expect(() => genesisSnapshot(small, { outputs, timestamp: 1 })).toThrow(
    /hold 3000000, more than the token supply 2999999/,
  );
});
