import { PayloadType } from '../../stardust/type-codes.js';
import type { Analytic, ConeBlock, Measurements } from './analytic.js';

// analytics.block_activity: the cone's blocks by payload and by white flag's verdict.

const PAYLOADS: Record<number, string> = {
  [PayloadType.Milestone]: 'milestone_count',
  [PayloadType.TaggedData]: 'tagged_data_count',
  [PayloadType.Transaction]: 'transaction_count',
  [PayloadType.TreasuryTransaction]: 'treasury_transaction_count',
};
const VERDICTS = {
  included: 'confirmed_count',
  conflicting: 'conflicting_count',
  noTransaction: 'no_transaction_count',
};

export class BlockActivity implements Analytic {
  private counts = new Map<string, number>();

  block(b: ConeBlock): void {
    const payload = b.payloadType === undefined ? 'no_payload_count' : PAYLOADS[b.payloadType]!;
    for (const name of [payload, VERDICTS[b.inclusion]]) this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  take(): Measurements {
    const names = [...Object.values(PAYLOADS), 'no_payload_count', ...Object.values(VERDICTS)];
    const m = Object.fromEntries(names.map((n) => [`analytics.block_activity.${n}`, this.counts.get(n) ?? 0]));
    this.counts = new Map();
    return m;
  }
}
