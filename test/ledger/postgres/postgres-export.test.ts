import { describe, expect, it } from 'vitest';
import { blockId, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';
import { exportGenesis, exportSlot } from '../../../src/ledger/postgres/export.js';
import { errorCode } from '../../helpers/failure.js';
import { basic, genesisOutputs, owner, taggedBlock, transferBlock } from '../../helpers/wallet.js';

// exportSlot and exportGenesis (ledger/postgres/export.ts), the rows the PostgreSQL mirror writes: checked here against what the ledger's
// own queries say, without a database (the mirror test checks them through PostgreSQL).

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: 1_700_000_000 });
const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);

describe('exportSlot', () => {
  it('a slot whole: its commitment, blocks with transaction ids, created and spent outputs, credits', () => {
    const genesis = genesisOutputs([1, 2]);
    const ledger = openLedger({
      params,
      genesis: { outputs: genesis, accounts: [{ accountId: A, blockIssuanceCredits: 1_000n }] },
      clock: () => 1_700_000_000,
    });
    const g = exportGenesis(ledger.committedReads());
    expect(g.created.map((o) => toHex(o.outputId)).sort()).toEqual(genesis.map((o) => toHex(o.outputId)).sort());
    expect(g.credits).toEqual([{ accountId: A, blockIssuanceCredits: 1_000n, destroyed: false }]);

    const transfer = transferBlock(params, [genesis[0]!], [basic(owner(2), 1_000_000_000n)]);
    const tagged = taggedBlock('export');
    const { transactionId } = ledger.acceptBlock(transfer, { slot: 1 });
    ledger.acceptBlock(tagged, { slot: 1 });
    ledger.createAccount(B, { blockIssuanceCredits: 5n, slot: 1 });
    ledger.commitSlot(1);
    ledger.destroyAccount(A, 2);
    ledger.commitSlot(2);

    const x = exportSlot(ledger.committedReads(), 1);
    expect(toHex(x.commitmentId)).toBe(toHex(ledger.commitmentOf(1)!.commitmentId));
    const blocks = x.blocks.map((b) => [toHex(b.blockId), b.transactionId && toHex(b.transactionId), toHex(b.bytes!)]);
    expect(blocks.sort()).toEqual(
      [
        [toHex(blockId(transfer)), toHex(transactionId!), toHex(transfer)],
        [toHex(blockId(tagged)), undefined, toHex(tagged)],
      ].sort(),
    );
    const changes = ledger.utxoChanges(1);
    expect(x.created.map((o) => toHex(o.outputId))).toEqual(changes.createdOutputs.map(toHex));
    expect(x.consumed.map(toHex)).toEqual(changes.consumedOutputs.map(toHex));
    expect(x.credits.map((c) => [toHex(c.accountId), c.destroyed])).toContainEqual([toHex(B), false]);
    // Slot 2 destroyed A: its row says so.
    expect(exportSlot(ledger.committedReads(), 2).credits).toContainEqual({
      accountId: A,
      blockIssuanceCredits: 1_000n,
      destroyed: true,
    });
    // A slot not committed has no rows to give.
    expect(errorCode(() => exportSlot(ledger.committedReads(), 3))).toBe('NOT_FOUND');
  });
});
