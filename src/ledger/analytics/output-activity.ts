import { outputChainId } from '../../stardust/ids.js';
import type { AliasOutput, Output } from '../../stardust/output.js';
import { OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import { bytesKey } from '../../util/bytes.js';
import type { Analytic, AppliedTransaction, LedgerOutput, Measurements } from './analytic.js';
import { addressKey } from './owning-address.js';

// analytics.output_activity: per transaction, the NFT, alias and foundry chains it created (on the output side only),
// destroyed (on the input side only) or carried on (both sides: NFTs and foundries "transferred"; aliases counted when
// their state index or their governor changed).

type Chains = Map<string, Output>;

function chainsOf(outputs: readonly LedgerOutput[], type: number): Chains {
  const found: Chains = new Map();
  for (const o of outputs) {
    if (o.output.type === type) found.set(bytesKey(outputChainId(o.output, o.outputId)!), o.output);
  }
  return found;
}

const governorOf = (o: AliasOutput) =>
  addressKey(o.unlockConditions.find((u) => u.type === UnlockConditionType.GovernorAddress)!.address);

const KINDS = {
  nft: ['created_count', 'transferred_count', 'destroyed_count'],
  alias: ['created_count', 'governor_changed_count', 'state_changed_count', 'destroyed_count'],
  foundry: ['created_count', 'transferred_count', 'destroyed_count'],
} as const;

export class OutputActivity implements Analytic {
  private counts = new Map<string, number>();

  private add(name: string, n: number): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + n);
  }

  transaction(t: AppliedTransaction): void {
    for (const [kind, type] of [
      ['nft', OutputType.Nft],
      ['alias', OutputType.Alias],
      ['foundry', OutputType.Foundry],
    ] as const) {
      const before = chainsOf(t.consumed, type);
      const after = chainsOf(t.created, type);
      const kept = [...after.keys()].filter((k) => before.has(k));
      this.add(`${kind}.created_count`, after.size - kept.length);
      this.add(`${kind}.destroyed_count`, before.size - kept.length);
      if (kind !== 'alias') {
        this.add(`${kind}.transferred_count`, kept.length);
        continue;
      }
      for (const k of kept) {
        const [was, is] = [before.get(k) as AliasOutput, after.get(k) as AliasOutput];
        if (was.stateIndex !== is.stateIndex) this.add('alias.state_changed_count', 1);
        if (governorOf(was) !== governorOf(is)) this.add('alias.governor_changed_count', 1);
      }
    }
  }

  take(): Measurements {
    const m: Measurements = {};
    for (const [kind, names] of Object.entries(KINDS)) {
      for (const n of names) m[`analytics.output_activity.${kind}.${n}`] = this.counts.get(`${kind}.${n}`) ?? 0;
    }
    this.counts = new Map();
    return m;
  }
}
