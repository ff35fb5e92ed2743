// Statements against a plain scan (issue 61): over generated histories (helpers/account-history.ts: every output kind,
// storage deposit returns, expirations and timelocks passing and not, native tokens, NFTs), every address's statement
// over every range of milestones opens and closes at the balances a scan of every output finds there
// (helpers/plain-archive.ts), adds up (opening + Σ net = closing, the available part likewise), and its transaction
// rows are the transactions the scan finds moving the address's outputs. The ledger the statement reads is the
// generated history's own (its outputs' bytes and spenders, its milestones' times) over the store the writers filled.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encode } from '../../../src/codec/index.js';
import { statementPage } from '../../../src/http/accounts/account-statement.js';
import { Slices } from '../../../src/http/kit/csv-gate.js';
import { StoreAccounts, StoreExplorer } from '../../../src/ledger/archive/index.js';
import { LedgerError } from '../../../src/ledger/common/index.js';
import type { LedgerReader } from '../../../src/ledger/core/index.js';
import { output as outputCodec } from '../../../src/stardust/output.js';
import { runAccounts, tokenHistory } from '../../helpers/account-history.js';
import { ADDRESSES, addressBytes, BASE, TIME } from '../../helpers/archive-history.js';
import { addressHex, balanceOf, updatesOf } from '../../helpers/plain-archive.js';

const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** The history as the reader a statement asks. */
function readerOf(run: ReturnType<typeof runAccounts>): LedgerReader {
  const byId = new Map(run.outs.map((o) => [hex(o.outputId), o]));
  return {
    params: { bech32Hrp: 'smr' },
    milestone: (i: number) =>
      i >= BASE && i <= run.latest ? { index: i, milestoneId: new Uint8Array(32), timestamp: TIME(i) } : undefined,
    latestCommitment: () => ({ slot: run.latest }),
    outputWithMetadata: (id: Uint8Array) => {
      const o = byId.get(hex(id))!;
      const spent = o.spent === undefined ? undefined : { slot: o.spent, transactionId: o.spentBy! };
      return { outputId: id, output: encode(outputCodec, o.output), createdSlot: o.booked, spent };
    },
    includedBlock: () => {
      throw new LedgerError('NOT_FOUND', 'no blocks in a generated history');
    },
    explorer: () => new StoreExplorer(run.store),
    accounts: () => new StoreAccounts(run.store),
  } as unknown as LedgerReader;
}

describe('statements, against a plain scan of every output', () => {
  it('open and close at the scan’s balances, add up, and name the scan’s transactions', async () => {
    await fc.assert(
      fc.asyncProperty(tokenHistory, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 3 }), async (h, x, y, perPage) => {
        const run = runAccounts(h);
        const reader = readerOf(run);
        const [from, to] = [BASE + 1 + (x % h.milestones.length), BASE + 1 + (y % h.milestones.length)].sort();
        for (const a of ADDRESSES) {
          const who = { bytes: addressBytes(a), model: a as never };
          const zero = { total: 0n, available: 0n };
          let start: number | undefined = from!;
          let first = true;
          const txs = new Set<string>();
          while (start !== undefined) {
            const page = await statementPage(reader, who, { from: start, to: to! }, new Slices(), perPage);
            if (first) expect(page.opening).toEqual(balanceOf(run.outs, from!, TIME(from!), addressHex(a)) ?? zero);
            first = false;
            const sum = (k: 'net' | 'availableNet') => page.rows.reduce((n, r) => n + r[k], 0n);
            expect(page.opening.total + sum('net')).toBe(page.closing.total);
            expect(page.opening.available + sum('availableNet')).toBe(page.closing.available);
            expect(page.closing).toEqual(balanceOf(run.outs, page.to, TIME(page.to), addressHex(a)) ?? zero);
            for (const r of page.rows) if (r.kind === 'transaction') txs.add(hex(r.transactionId!));
            start = page.next;
          }
          const byId = new Map(run.outs.map((o) => [hex(o.outputId), o]));
          const want = updatesOf(run.outs)
            .filter((u) => u.address === addressHex(a) && u.index > from! && u.index <= to!)
            .map((u) => (u.spent ? hex(byId.get(u.outputId)!.spentBy!) : u.outputId.slice(0, 66)));
          expect(txs).toEqual(new Set(want));
        }
      }),
      { numRuns: 20 },
    );
  });
});
