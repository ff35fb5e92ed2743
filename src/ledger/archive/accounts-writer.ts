import { encode } from '../../codec/index.js';
import { outputChainId } from '../../stardust/ids.js';
import type { Output } from '../../stardust/output.js';
import { OutputType } from '../../stardust/type-codes.js';
import { bytesKey, compareBytes, equalBytes } from '../../util/bytes.js';
import type { Analytic, AnalyticsContext, AppliedTransaction, LedgerOutput } from '../analytics/index.js';
import { owningAddress } from '../analytics/index.js';
import { checkedRecord, keys, LedgerError, readRecord, sealRecord } from '../common/index.js';
import { type AccountState, accountStateRecord, canonical, emptyAccount } from './account-state.js';
import { addressBytes } from './archive-writer.js';
import { holdingOf } from './output-balance.js';

// Each address's account (account-state.ts) as a milestone leaves it, kept in the milestone's commit beside the
// archive (archive-writer.ts counts the same outputs for the same addresses; the balance it answers at the latest
// milestone is this state's at it). An analytic of the milestone's transactions: an address the milestone touches
// starts from its last state (one seek), takes the milestone's outputs, and is written under the milestone.

type Write = [key: Uint8Array, value: Uint8Array | undefined];
const ADDRESS = 33;

/**
 * The state of `address` that the last milestone at or below `at` wrote, checked against its key; undefined: none.
 * `last`: the store's last entry under a prefix at or below a key (one seek down).
 */
export function accountStateAt(
  last: (prefix: Uint8Array, start: Uint8Array) => [Uint8Array, Uint8Array] | undefined,
  address: Uint8Array,
  at: number,
): { index: number; state: AccountState } | undefined {
  const found = last(keys.accountState(address), keys.accountState(address, at));
  if (found === undefined) return undefined;
  const [k, v] = found;
  const index = new DataView(k.buffer, k.byteOffset + k.length - 4, 4).getUint32(0);
  const state = readRecord(accountStateRecord, checkedRecord(k, v, 'account state'), 'account state');
  return { index, state };
}

export class AccountsWriter implements Analytic {
  private readonly touched = new Map<string, { address: Uint8Array; state: AccountState }>();

  /** `previous`: an address's state before the milestone (the last one written; undefined: it held nothing yet). */
  constructor(private readonly previous: (address: Uint8Array) => AccountState | undefined) {}

  /** The accounts of a ledger that kept none yet, from its unspent outputs: what the milestone goes on from. */
  holdAll(unspent: Iterable<LedgerOutput>): void {
    for (const o of unspent) this.move(o.outputId, o.output, 1);
  }

  transaction(t: AppliedTransaction, _ctx: AnalyticsContext): void {
    for (const o of t.consumed) this.move(o.outputId, o.output, -1);
    for (const o of t.created) this.move(o.outputId, o.output, 1);
  }

  take() {
    return {};
  }

  /** The milestone's writes: each touched address's state under (address, `index`), sealed, and their list. */
  records(index: number): Write[] {
    const out: Write[] = [];
    const touched = [...this.touched.values()].sort((a, b) => compareBytes(a.address, b.address));
    const list = new Uint8Array(touched.length * ADDRESS);
    touched.forEach(({ address, state }, i) => {
      const s = canonical(state);
      if (s.amount < 0n || s.plain < 0n || s.outputs < 0 || s.returns < 0 || s.tokens.some((t) => t.amount < 0n))
        throw new LedgerError('STORE_CORRUPT', 'an account would hold less than nothing');
      const key = keys.accountState(address, index);
      out.push([key, sealRecord(key, encode(accountStateRecord, s))]);
      list.set(address, i * ADDRESS);
    });
    const key = keys.accountsOfMilestone(index);
    out.push([key, sealRecord(key, list)]);
    return out;
  }

  private stateOf(address: Uint8Array): AccountState {
    const key = bytesKey(address);
    let t = this.touched.get(key);
    if (t === undefined) {
      t = { address, state: this.previous(address) ?? emptyAccount() };
      this.touched.set(key, t);
    }
    return t.state;
  }

  /** An output booked (+1) or spent (−1), counted as the archive counts it (archive-writer.ts move). */
  private move(outputId: Uint8Array, output: Output, sign: 1 | -1): void {
    const owner = owningAddress(output);
    if (owner === undefined) return; // a treasury output: no one's
    const ownerBytes = addressBytes(owner);
    const s = this.stateOf(ownerBytes);
    const held = holdingOf(output);
    s.amount += BigInt(sign) * output.amount;
    s.outputs += sign;
    const entry = { outputId, value: held.value, expiration: held.expiration, timelock: held.timelock };
    if (held.expiration === 0 && held.timelock === 0) s.plain += BigInt(sign) * held.value;
    else hold(s, { ...entry, role: 0 }, sign);
    if ('nativeTokens' in output) for (const t of output.nativeTokens) addToken(s, t.id, sign, t.amount);
    if (output.type === OutputType.Nft) {
      const id = outputChainId(output, outputId)!;
      if (sign > 0) s.nfts.push(id);
      else s.nfts = s.nfts.filter((n) => !equalBytes(n, id));
    }
    const back = held.returnAddress && addressBytes(held.returnAddress);
    // An output whose return address is its owner's counts once, as the owner's (as the archive counts it).
    if (back !== undefined && !equalBytes(back, ownerBytes)) {
      const r = this.stateOf(back);
      r.returns += sign;
      hold(r, { ...entry, role: 1 }, sign);
    }
  }
}

function hold(s: AccountState, entry: AccountState['held'][number], sign: 1 | -1): void {
  if (sign > 0) s.held.push(entry);
  else s.held = s.held.filter((h) => !(h.role === entry.role && equalBytes(h.outputId, entry.outputId)));
}

function addToken(s: AccountState, id: Uint8Array, sign: 1 | -1, amount: bigint): void {
  const t = s.tokens.find((x) => equalBytes(x.id, id));
  if (t !== undefined) t.amount += BigInt(sign) * amount;
  else s.tokens.push({ id, amount: BigInt(sign) * amount });
}
