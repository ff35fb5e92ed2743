import { fromHex, toHex } from '../json/hex.js';
import type { GenesisState, Ledger } from '../ledger/index.js';
import { output as outputCodec } from '../model/output.js';
import type { SimEvent } from './simulator.js';

// The history file of `simulate` and `import`: one JSON object per line. The first line is the genesis (network,
// genesis time, outputs, accounts); then blocks, account events and commits in the order a ledger applies them.

export interface GenesisHeader {
  network: string;
  genesisUnixTime: number;
  genesis: GenesisState;
}

export function genesisLine(h: GenesisHeader): string {
  return JSON.stringify({
    type: 'genesis',
    network: h.network,
    genesisUnixTime: h.genesisUnixTime,
    outputs: (h.genesis.outputs ?? []).map((o) => ({
      outputId: toHex(o.outputId),
      output: outputCodec.toJson(o.output),
    })),
    accounts: (h.genesis.accounts ?? []).map((a) => ({
      accountId: toHex(a.accountId),
      blockIssuanceCredits: a.blockIssuanceCredits.toString(),
    })),
  });
}

export function eventLine(e: SimEvent): string {
  switch (e.type) {
    case 'block':
      return JSON.stringify({
        type: 'block',
        slot: e.slot,
        bytes: toHex(e.bytes),
        ...(e.issuerId ? { issuerId: toHex(e.issuerId) } : {}),
      });
    case 'account':
      return JSON.stringify({
        type: 'account',
        slot: e.slot,
        accountId: toHex(e.accountId),
        blockIssuanceCredits: e.blockIssuanceCredits.toString(),
      });
    case 'allot':
      return JSON.stringify({ type: 'allot', slot: e.slot, accountId: toHex(e.accountId), mana: e.mana.toString() });
    case 'commit':
      return JSON.stringify({ type: 'commit', slot: e.slot });
  }
}

/** Parses one line; throws an Error naming what is wrong. */
export function parseLine(line: string): ({ type: 'genesis' } & GenesisHeader) | SimEvent {
  const j = JSON.parse(line) as Record<string, unknown>;
  const slot = Number(j.slot);
  switch (j.type) {
    case 'genesis': {
      const outputs = (j.outputs as { outputId: string; output: unknown }[]).map((o) => ({
        outputId: fromHex(o.outputId),
        output: outputCodec.fromJson(o.output),
      }));
      const accounts = (j.accounts as { accountId: string; blockIssuanceCredits: string }[]).map((a) => ({
        accountId: fromHex(a.accountId),
        blockIssuanceCredits: BigInt(a.blockIssuanceCredits),
      }));
      return {
        type: 'genesis',
        network: String(j.network),
        genesisUnixTime: Number(j.genesisUnixTime),
        genesis: { outputs, accounts },
      };
    }
    case 'block':
      return { type: 'block', slot, bytes: fromHex(j.bytes), ...(j.issuerId ? { issuerId: fromHex(j.issuerId) } : {}) };
    case 'account':
      return {
        type: 'account',
        slot,
        accountId: fromHex(j.accountId),
        blockIssuanceCredits: BigInt(String(j.blockIssuanceCredits)),
      };
    case 'allot':
      return { type: 'allot', slot, accountId: fromHex(j.accountId), mana: BigInt(String(j.mana)) };
    case 'commit':
      return { type: 'commit', slot };
    default:
      throw new Error(`unknown event type ${JSON.stringify(j.type)}`);
  }
}

/** Applies one event to a ledger (the same calls an embedding node makes). */
export function applyEvent(ledger: Ledger, e: SimEvent): void {
  switch (e.type) {
    case 'block':
      ledger.acceptBlock(e.bytes, e.issuerId === undefined ? { slot: e.slot } : { slot: e.slot, issuerId: e.issuerId });
      break;
    case 'account':
      ledger.createAccount(e.accountId, { blockIssuanceCredits: e.blockIssuanceCredits, slot: e.slot });
      break;
    case 'allot':
      ledger.allot(e.accountId, e.mana, e.slot);
      break;
    case 'commit':
      ledger.commitSlot(e.slot);
      break;
  }
}
