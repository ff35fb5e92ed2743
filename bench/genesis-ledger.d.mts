// Types of genesis-ledger.mjs, for test/proofs/network.ts.
import type { BasicOutput, Ledger, MilestoneKeys, Output } from '../src/index.js';

type Tangle = typeof import('../src/index.js');
export declare function genesisLedger(
  tc: Tangle,
  options: {
    dir: string;
    outputs: { outputId: Uint8Array; output: Output }[];
    timestamp: number;
    solidEntryPoint: Uint8Array;
    milestoneKeys: MilestoneKeys;
  },
): Promise<Ledger>;
export declare function basicOutput(tc: Tangle, secret: Uint8Array, amount: bigint): BasicOutput;
