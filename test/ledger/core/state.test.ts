// The state view (src/ledger/core/state.ts): one answer about an output or a transaction, wherever it stands (pending in
// memory, committed in the store), as a block of a given slot sees it. Checked through a ledger's own transitions
// against what was done to it, by hand.
import { describe, expect, it } from 'vitest';
import {
  type Ledger,
  openLedger,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
} from '../../../src/index.js';
import type { LedgerState } from '../../../src/ledger/core/state.js';
import { bytesKey } from '../../../src/util/bytes.js';
import { basic, genesisOutputs, owner, transferBlock } from '../../helpers/wallet.js';

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const stateOf = (l: Ledger) => (l as unknown as { state: LedgerState }).state;

describe('LedgerState', () => {
  const genesis = genesisOutputs([1]);
  const g = genesis[0]!;
  const ledger = openLedger({ params, genesis: { outputs: genesis } });
  const state = stateOf(ledger);
  const sent = basic(owner(2), 1_000_000_000n);

  it('a genesis output: committed in the genesis slot, unspent, with its stored record', () => {
    const o = state.output(g.outputId)!;
    expect(o).toMatchObject({ createdSlot: 0, createdPending: false, spentSlot: undefined, spentPending: false });
    expect(o.stored?.slot).toBe(0);
    expect(state.output(outputId(new Uint8Array(32).fill(0xee), 0))).toBeUndefined();
  });

  it('spent and created by a pending block, then by its committed slot', () => {
    const bytes = transferBlock(params, [g], [sent]);
    const { transactionId, blockId } = ledger.acceptBlock(bytes, { slot: 2 });
    const created = outputId(transactionId!, 0);
    expect(state.output(g.outputId)).toMatchObject({ spentSlot: 2, spentPending: true });
    expect(state.output(created)).toMatchObject({ createdSlot: 2, createdPending: true, spentSlot: undefined });
    expect(state.output(created)!.stored).toBeUndefined();
    // A block of slot 1 does not see what a block of slot 2 created.
    expect(state.outputs([created], [bytesKey(created)], 1)).toEqual([undefined]);
    expect(state.transaction(transactionId!)).toMatchObject({ slot: 2, pending: true, storedOutputs: 1 });
    expect(toHex(state.transaction(transactionId!)!.blockId)).toBe(toHex(blockId));
    // The including block of a pending transaction: copies, so that a caller cannot change what the commit writes.
    const pendingBlock = state.includingBlock(transactionId!)!;
    expect({ ...pendingBlock, blockId: toHex(pendingBlock.blockId), bytes: toHex(pendingBlock.bytes!) }).toEqual({
      blockId: toHex(blockId),
      slot: 2,
      bytes: toHex(bytes),
    });
    pendingBlock.bytes!.fill(0);
    pendingBlock.blockId.fill(0);
    expect(toHex(state.includingBlock(transactionId!)!.bytes!)).toBe(toHex(bytes));
    expect(toHex(state.transaction(transactionId!)!.blockId)).toBe(toHex(blockId));

    ledger.commitSlot(1);
    ledger.commitSlot(2);
    expect(state.output(g.outputId)).toMatchObject({ spentSlot: 2, spentPending: false, createdPending: false });
    expect(state.output(created)).toMatchObject({ createdSlot: 2, createdPending: false, spentSlot: undefined });
    expect(state.output(created)!.stored?.slot).toBe(2);
    expect(state.transaction(transactionId!)).toMatchObject({ slot: 2, pending: false, bytes: undefined });
    expect(state.transaction(new Uint8Array(32))).toBeUndefined();
    // Committed: the same block, now read from the store.
    const stored = state.includingBlock(transactionId!)!;
    expect([toHex(stored.blockId), stored.slot, toHex(stored.bytes!)]).toEqual([toHex(blockId), 2, toHex(bytes)]);
    expect(state.includingBlock(new Uint8Array(32))).toBeUndefined();
  });
});
