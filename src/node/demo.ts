import { toHex } from '../codec/index.js';
import { blake2b256 } from '../crypto/index.js';
import {
  closeSlot,
  type GenesisState,
  type IssuedMilestone,
  importedParams,
  importSnapshot,
  inspectStore,
  type Ledger,
  type OpenLedgerOptions,
  slotAt,
} from '../ledger/index.js';
import { applyEvent, type Simulation } from '../sim/index.js';
import { genesisSnapshot } from '../snapshot/index.js';
import { outputId } from '../stardust/ids.js';
import type { BasicOutput } from '../stardust/output.js';
import { type ProtocolParameters, TESTNET_COORDINATOR_SECRET } from '../stardust/protocol-parameters.js';
import { OutputType, UnlockConditionType } from '../stardust/type-codes.js';
import { sortedUnique } from '../util/bytes.js';
import { faucetAddress } from './faucet.js';
import { describeError } from './flags.js';

/** The demo's flags (serve --demo): its seeded slots, its slot length, a new store's genesis time. */
export const DEMO_FLAGS = {
  demo: { type: 'boolean', default: false },
  'demo-slots': { type: 'string', default: '120' },
  'slot-seconds': { type: 'string' },
  'genesis-time': { type: 'string' },
} as const;

/** serve's usage lines of the demo's flags. */
export const DEMO_USAGE = [
  `  --demo                  a live simulated network: seeds a new store, then commits a slot every 10 s
  --demo-slots N          slots the demo seeds before it listens (default 120)
  --slot-seconds N        the demo's slot length (default the network's, 10): 1 makes a wallet's steps quick
  --genesis-time UNIX     genesis time of a new store, unix seconds (default: now; for --demo, so that the
                          seeded slots end now)`,
].join('');

/** Every fifth milestone of the demo references two conflicting transactions (a double spend, an uncreated input). */
const CONFLICTS_EVERY = 5;

const conflictsOf = (simulation: Simulation, slot: number) =>
  slot % CONFLICTS_EVERY === 0 ? simulation.conflicts(slot) : [];

/** A slot of the demo made and applied to the ledger's open slot: its milestone is issued over it and `extra`. */
interface MadeSlot {
  slot: number;
  extra: Uint8Array[];
}

/** The simulation's blocks and account events for the ledger's next slot, applied to it, and its conflicts. */
function makeSlot(ledger: Ledger, simulation: Simulation): MadeSlot {
  const slot = ledger.latestCommitment().slot + 1;
  for (const e of simulation.slot(slot)) if (e.type !== 'commit') applyEvent(ledger, e);
  return { slot, extra: conflictsOf(simulation, slot) };
}

const closeMade = (ledger: Ledger, made: MadeSlot) =>
  closeSlot(ledger, { extra: made.extra, secretKeys: [TESTNET_COORDINATOR_SECRET] });

/**
 * The demo's next slot: the simulation's blocks and account events for it, then its milestone over them and what was
 * posted meanwhile (with conflicting transactions every fifth), signed by the testnet preset's coordinator.
 */
export function demoSlot(ledger: Ledger, simulation: Simulation): IssuedMilestone {
  return closeMade(ledger, makeSlot(ledger, simulation));
}

/**
 * The live demo network, a Stardust network: `seedSlots` slots of the simulation applied at once, then one new slot
 * every slot duration, each slot's blocks (and those posted meanwhile) referenced by the slot's milestone, signed by
 * the testnet preset's coordinator (closeSlot: white flag, Merkle roots). On a store the demo wrote before (a writer
 * restarted), the simulation first runs through the committed slots without applying them (it is deterministic: it
 * makes the same transactions), then catches up with the clock.
 *
 * A slot whose milestone is not committed (a full disk: the store refuses the write) stays open as it was, and the
 * simulation does not move on: each tick tries the same slot again (one line on stderr per failure), and once it is
 * committed (a line saying so) the demo makes up the slots it owes, one per tick missed. Each tick that leaves no slot
 * owed records the store current (Ledger.markCurrent: its readers' /health judges by it). Returns a stop function.
 */
export function runDemo(ledger: Ledger, simulation: Simulation, seedSlots: number): { stop: () => void } {
  const { genesisSlot } = simulation.params;
  const committed = ledger.latestCommitment().slot;
  for (let s = genesisSlot + 1; s <= committed; s++) {
    simulation.slot(s);
    conflictsOf(simulation, s);
  }
  // Those blocks were made again, not taken by this ledger: the next one attaches to the ledger's tips.
  simulation.attachToTipsOnly();
  const now = slotAt(Math.floor(Date.now() / 1000), simulation.params);
  const seed = committed === genesisSlot ? seedSlots : Math.max(0, now - 1 - committed);
  for (let i = 0; i < seed; i++) demoSlot(ledger, simulation);
  // A writer restarted says at once that the store it resumed is current again (its readers judge by it); a new
  // demo, from its first tick on.
  if (committed !== genesisSlot) ledger.markCurrent();

  /** The slot made and not yet committed, and how often committing it failed. */
  let open: (MadeSlot & { failures: number }) | undefined;
  /** Slots due (one a tick) and not committed yet: more than one after a failure. */
  let owed = 0;
  const tick = () => {
    owed++;
    while (owed > 0) {
      try {
        open ??= { ...makeSlot(ledger, simulation), failures: 0 };
        closeMade(ledger, open);
      } catch (e) {
        if (open === undefined) {
          // The simulation's own events refused (no store failure does that: accepting writes nothing).
          process.stderr.write(`demo: slot failed: ${describeError(e)}\n`);
          owed--;
          return;
        }
        open.failures++;
        process.stderr.write(
          `demo: slot ${open.slot} not committed (try ${open.failures}): ${describeError(e)}; it is tried again ` +
            `in ${simulation.params.slotDurationSeconds} s, with the same blocks\n`,
        );
        return;
      }
      if (open.failures > 0) {
        process.stderr.write(
          `demo: slot ${open.slot} committed after ${open.failures} failed ${open.failures === 1 ? 'try' : 'tries'}` +
            `${owed > 1 ? `; making up ${owed - 1} more` : ''}\n`,
        );
      }
      open = undefined;
      owed--;
    }
    try {
      ledger.markCurrent(); // the network is where the clock says: readers of the store may say they are healthy
    } catch (e) {
      process.stderr.write(`demo: ${describeError(e)}\n`);
    }
  };
  const timer = setInterval(tick, simulation.params.slotDurationSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

const utf8 = new TextEncoder();

/** What the demo's blocks reference: the ledger's tips, sorted (TIP-24), or on a new network its genesis. */
export function demoTips(ledger: Ledger): Uint8Array[] {
  const tips = ledger.tips();
  return tips.length > 0 ? sortedUnique(tips) : [new Uint8Array(32)];
}

/** The demo network's genesis: a TIP-35 snapshot at milestone 0, the all-zero block its solid entry point. */
export function demoSnapshot(params: ProtocolParameters, genesis: GenesisState): Promise<Uint8Array> {
  return genesisSnapshot(params, {
    outputs: genesis.outputs ?? [],
    timestamp: params.genesisUnixTime + params.slotDurationSeconds,
    solidEntryPoints: [new Uint8Array(32)],
  });
}

/**
 * The demo's ledger: on a new store, a genesis snapshot of `genesis` (milestone 0, the all-zero block as its solid
 * entry point) imported as a real network's would be, its accounts (the v3 model's, beside Stardust's) created in
 * slot 1; an existing store (a writer restarted) as it is. `open` opens the store (a writer's: with its database).
 */
export async function openDemoLedger(
  path: string,
  params: ProtocolParameters,
  genesis: GenesisState,
  open: (at: OpenLedgerOptions) => Ledger | Promise<Ledger>,
): Promise<Ledger> {
  const fresh = inspectStore(path) === undefined;
  if (fresh) {
    const full = await demoSnapshot(params, genesis);
    await importSnapshot({ path, full, slotDurationSeconds: params.slotDurationSeconds });
  }
  const ledger = await open({ path, params: importedParams(inspectStore(path)!.imported!) });
  if (fresh) {
    for (const a of genesis.accounts ?? [])
      ledger.createAccount(a.accountId, { blockIssuanceCredits: a.blockIssuanceCredits, slot: params.genesisSlot + 1 });
  }
  return ledger;
}

/**
 * The demo faucet's key: BLAKE2b-256 of a fixed text, so anyone can reproduce it (a test network's faucet guards
 * nothing of value). Its genesis output holds 100 million SMR; each request sends `DEMO_FAUCET_AMOUNT`.
 */
export const DEMO_FAUCET_SECRET = blake2b256(utf8.encode('tangle-core demo faucet'));
export const DEMO_FAUCET_AMOUNT = 1_000_000_000n; // 1,000 SMR, inx-faucet's default

/** The simulation's genesis with the faucet's output beside it (the simulation never spends it). */
export function demoGenesis(simulation: Simulation): GenesisState {
  const genesis = simulation.genesis();
  const output: BasicOutput = {
    type: OutputType.Basic,
    amount: 100_000_000_000_000n,
    nativeTokens: [],
    unlockConditions: [{ type: UnlockConditionType.Address, address: faucetAddress(DEMO_FAUCET_SECRET) }],
    features: [],
  };
  const faucet = { outputId: outputId(blake2b256(utf8.encode('genesis output faucet')), 0), output };
  return { ...genesis, outputs: [...(genesis.outputs ?? []), faucet] };
}

/** A running demo and its simulation (the greeting's examples come from it). */
export type Demo = ReturnType<typeof runDemo> & { simulation: Simulation };

/** The demo step that creates a foundry: an alias state transition minting native tokens. */
export const FOUNDRY_STEP = 'create foundry, mint tokens';

/** The latest demo transaction that created a foundry, for the greeting's example request. */
export function foundryTransaction(simulation: Simulation): string | undefined {
  const t = simulation.chainTransactions.filter((c) => c.step === FOUNDRY_STEP).at(-1);
  return t === undefined ? undefined : toHex(t.transactionId);
}
