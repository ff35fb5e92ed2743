import { outputChainId } from '../../stardust/ids.js';
import type { Output } from '../../stardust/output.js';
import { FeatureType, OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import { bytesKey, compareBytes, equalBytes } from '../../util/bytes.js';
import type { Analytic, AppliedTransaction, LedgerOutput } from '../analytics/index.js';
import { owningAddress } from '../analytics/index.js';
import { checkedRecord, keys, LedgerError, sealRecord } from '../common/index.js';
import { addressBytes } from './archive-writer.js';
import { EMPTY, HOLDING_KIND, irc27Names, NO_NFT, nftHolding, tokenAmount, tokenHolding } from './holding-values.js';

// Who holds what at any milestone (issue 61): a native token's holders, the NFTs an issuer (or a collection: the
// NFTs an NFT issued, as IRC-27 keys them) minted and who owns each, the aliases an address controls, the foundries
// an alias holds. Each member's holding is written under (kind, subject, member, milestone) when a milestone changes
// it, the whole value and not a change (a token's amount, an NFT's owner, a controller's roles, a foundry held or
// not; none is written as the kind's empty value), so that the state at milestone N is each member's last record at
// or below N: a seek per member, however far back N lies. An analytic of the milestone's transactions, written in its
// commit beside the accounts (accounts-writer.ts), with the list of the keys it wrote (what a mirror copies).

type Write = [key: Uint8Array, value: Uint8Array | undefined];

interface Entry {
  /** The record's key without its milestone: kind, subject, member. */
  prefix: Uint8Array;
  kind: number;
  before: Uint8Array;
  now: Uint8Array;
}

/**
 * A member's holding that the last milestone at or below `at` wrote, checked against its key; undefined: none.
 * `last`: the store's last entry under a prefix at or below a key (one seek down).
 */
export function holdingAt(
  last: (prefix: Uint8Array, start: Uint8Array) => [Uint8Array, Uint8Array] | undefined,
  prefix: Uint8Array,
  at: number,
): { index: number; value: Uint8Array } | undefined {
  const found = last(prefix, atMilestone(prefix, at));
  if (found === undefined) return undefined;
  const [k, v] = found;
  const index = new DataView(k.buffer, k.byteOffset + k.length - 4, 4).getUint32(0);
  return { index, value: checkedRecord(k, v, 'holding') };
}

/** A holding's key: its prefix (kind, subject, member) and the milestone, big-endian. */
export function atMilestone(prefix: Uint8Array, index: number): Uint8Array {
  const k = new Uint8Array(prefix.length + 4);
  k.set(prefix);
  new DataView(k.buffer).setUint32(prefix.length, index);
  return k;
}

export class HoldingsWriter implements Analytic {
  private readonly touched = new Map<string, Entry>();

  /** `previous`: a member's holding before the milestone (its prefix: kind, subject, member); undefined: none. */
  constructor(private readonly previous: (prefix: Uint8Array) => Uint8Array | undefined) {}

  /** The holdings of a ledger that kept none yet, from its unspent outputs: what the milestone goes on from. */
  holdAll(unspent: Iterable<LedgerOutput>): void {
    for (const o of unspent) this.move(o.outputId, o.output, 1);
  }

  transaction(t: AppliedTransaction): void {
    for (const o of t.consumed) this.move(o.outputId, o.output, -1);
    for (const o of t.created) this.move(o.outputId, o.output, 1);
  }

  take() {
    return {};
  }

  /** The milestone's writes: each changed holding under its milestone, sealed, and the list of their keys. */
  records(index: number): Write[] {
    const out: Write[] = [];
    const changed = [...this.touched.values()]
      .filter((e) => !equalBytes(e.before, e.now))
      .sort((a, b) => compareBytes(a.prefix, b.prefix));
    const list = new Uint8Array(changed.reduce((n, e) => n + 1 + e.prefix.length, 0));
    let at = 0;
    for (const e of changed) {
      const key = atMilestone(e.prefix, index);
      out.push([key, sealRecord(key, e.now)]);
      list[at] = e.prefix.length;
      list.set(e.prefix, at + 1);
      at += 1 + e.prefix.length;
    }
    const key = keys.holdingsOfMilestone(index);
    out.push([key, sealRecord(key, list)]);
    return out;
  }

  private entry(kind: number, subject: Uint8Array, member: Uint8Array): Entry {
    const prefix = keys.holding(kind, subject, member);
    const id = bytesKey(prefix);
    let e = this.touched.get(id);
    if (e === undefined) {
      const before = this.previous(prefix) ?? EMPTY[kind]!;
      e = { prefix, kind, before, now: before };
      this.touched.set(id, e);
    }
    return e;
  }

  /** An output booked (+1) or spent (−1): what it adds to or takes from each kind's holdings. */
  private move(outputId: Uint8Array, output: Output, sign: 1 | -1): void {
    const owner = owningAddress(output);
    if (owner === undefined) return; // a treasury output: no one's
    const ownerBytes = addressBytes(owner);
    if ('nativeTokens' in output)
      for (const t of output.nativeTokens) {
        const e = this.entry(HOLDING_KIND.token, t.id, ownerBytes);
        const amount = tokenAmount(e.now) + BigInt(sign) * t.amount;
        if (amount < 0n) throw new LedgerError('STORE_CORRUPT', 'a holder would hold less than none of a token');
        e.now = tokenHolding(amount);
      }
    if (output.type === OutputType.Nft) {
      const issuer = output.immutableFeatures.find((f) => f.type === FeatureType.Issuer);
      if (issuer === undefined) return;
      const e = this.entry(HOLDING_KIND.nft, addressBytes(issuer.address), outputChainId(output, outputId)!);
      const metadata = output.immutableFeatures.find((f) => f.type === FeatureType.Metadata)?.data;
      e.now = sign > 0 ? nftHolding(ownerBytes, irc27Names(metadata)) : NO_NFT;
    } else if (output.type === OutputType.Alias) {
      const aliasId = outputChainId(output, outputId)!;
      for (const u of output.unlockConditions) {
        const role = u.type === UnlockConditionType.StateControllerAddress ? 1 : 2;
        const e = this.entry(HOLDING_KIND.alias, addressBytes(u.address), aliasId);
        e.now = Uint8Array.of(sign > 0 ? e.now[0]! | role : e.now[0]! & ~role);
      }
    } else if (output.type === OutputType.Foundry) {
      const e = this.entry(HOLDING_KIND.foundry, ownerBytes, outputChainId(output, outputId)!);
      e.now = Uint8Array.of(sign > 0 ? 1 : 0);
    }
  }
}
