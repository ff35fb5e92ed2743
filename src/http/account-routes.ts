import { toHex } from '../codec/hex.js';
import { accountBalance, addressBytes, holdsAnything } from '../ledger/archive/index.js';
import type { LedgerReader } from '../ledger/core/index.js';
import { accountRange, accountsOf, pointOf, timeOf } from './account-points.js';
import { HttpProblem } from './problem.js';
import { JSON_TYPE, parseBech32, type Reply } from './route-kit.js';

// An address's balance at any milestone or time (issue 61): inx-chronicle's balance answer (its api-explorer.yml
// BalanceResponse: totalBalance, availableBalance, ledgerIndex), with the native tokens and NFTs held beside, from
// the one account record at or before the milestone (ledger/archive/account-history.ts): one seek however far back.

/** Whether a balance request asks for a point of the history (else the explorer's latest answers it). */
export const asksPoint = (query: URLSearchParams): boolean => query.has('ledgerIndex') || query.has('at');

export async function balanceAtPoint(ledger: LedgerReader, param: string, query: URLSearchParams): Promise<Reply> {
  const address = addressBytes(parseBech32(param, ledger.params.bech32Hrp));
  const range = await accountRange(ledger);
  const at = (await pointOf(ledger, query, { index: 'ledgerIndex', time: 'at' }, range)) ?? range.latest;
  const found = await accountsOf(ledger).stateAt(address, at);
  if (found === undefined || !holdsAnything(found.state)) throw new HttpProblem(404, 'no results returned');
  const timestamp = await timeOf(ledger, at);
  const b = accountBalance(found.state, timestamp);
  const body = {
    totalBalance: String(b.total),
    availableBalance: String(b.available),
    ledgerIndex: at,
    milestoneTimestamp: timestamp,
    nativeTokens: found.state.tokens.map((t) => ({ id: toHex(t.id), amount: `0x${t.amount.toString(16)}` })),
    nfts: found.state.nfts.map((id) => toHex(id)),
  };
  return { body: JSON.stringify(body), contentType: JSON_TYPE };
}
