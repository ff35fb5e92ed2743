import { PayloadType } from '../../stardust/type-codes.js';
import type { Analytic, ConeBlock, Measurements } from './analytic.js';

// analytics.milestone_size: the bytes of the cone's blocks, all of them and by payload (each block's whole bytes).

const PAYLOADS: Record<number, string> = {
  [PayloadType.Milestone]: 'total_milestone_payload_bytes',
  [PayloadType.TaggedData]: 'total_tagged_data_payload_bytes',
  [PayloadType.Transaction]: 'total_transaction_payload_bytes',
  [PayloadType.TreasuryTransaction]: 'total_treasury_transaction_payload_bytes',
};

export class MilestoneSize implements Analytic {
  private bytes = new Map<string, number>();

  block(b: ConeBlock): void {
    const add = (name: string) => this.bytes.set(name, (this.bytes.get(name) ?? 0) + b.bytes.length);
    add('total_milestone_bytes');
    if (b.payloadType !== undefined) add(PAYLOADS[b.payloadType]!);
  }

  take(): Measurements {
    const names = [...Object.values(PAYLOADS), 'total_milestone_bytes'];
    const m = Object.fromEntries(names.map((n) => [`analytics.milestone_size.${n}`, this.bytes.get(n) ?? 0]));
    this.bytes = new Map();
    return m;
  }
}
