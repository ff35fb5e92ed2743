import { toHex } from '../codec/index.js';
import type { Ledger } from '../ledger/index.js';
import { Simulation } from '../sim/index.js';
import { addressToBech32 } from '../stardust/address-bech32.js';
import type { ProtocolParameters } from '../stardust/protocol-parameters.js';
import { AddressType } from '../stardust/type-codes.js';
import { type Demo, FOUNDRY_STEP, foundryTransaction } from './demo.js';
import { redactUrl } from './flags.js';
import type { WriterProcess } from './writer-process.js';

// What `serve` says once it listens: where, which processes, which store, the warnings an operator needs, and for
// the demo a few requests to try (tested by the README's and docs' examples).

export interface Greeting {
  origin: string;
  /** The event API's line (events.ts: eventsLine). */
  eventsLine: string;
  ledger: Ledger;
  params: ProtocolParameters;
  genesisUnixTime: number;
  values: {
    db?: string | undefined;
    store?: string | undefined;
    follow?: string | undefined;
    demo?: boolean | undefined;
    'public-routes'?: string | undefined;
    'jwt-secret'?: string | undefined;
  };
  temporary: string | undefined;
  pool: { pids(): number[] } | undefined;
  workers: number;
  writer: WriterProcess | undefined;
  demo: Demo | undefined;
}

export function greet(g: Greeting): void {
  const { origin, ledger, params, values, pool, writer, temporary } = g;
  const latest = ledger.latestCommitment().slot;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`tangle-core listening on ${origin}${pool === undefined ? '' : ` (${g.workers} workers)`}`);
  say(`${g.eventsLine}explorer (in a browser): ${origin}/explorer/`);
  if (pool !== undefined) {
    say(
      `processes: supervisor ${process.pid}` +
        `${writer === undefined ? '' : `, writer ${writer.pid()}`}, HTTP workers ${pool.pids().join(' ')}`,
    );
  }
  say(
    `store: ${values.db ?? temporary ?? 'in memory'} (${temporary ? 'temporary, removed on exit; ' : ''}` +
      `${params.networkName}, genesis ${new Date(g.genesisUnixTime * 1000).toISOString()}, latest slot ${latest}, ` +
      `${ledger.isSynced() ? 'synced' : 'not synced'})`,
  );
  if (values.store !== undefined) say(`database: ${redactUrl(values.store)}, where each committed slot is published`);
  if (latest <= params.genesisSlot && values.follow === undefined) {
    process.stderr.write(
      'warning: the store is empty (no slot committed after genesis): every query answers 404 until an import ' +
        'or an embedding node fills it\n',
    );
  }
  if (values['public-routes'] !== undefined && values['jwt-secret'] === undefined) {
    process.stderr.write(
      'warning: --public-routes without --jwt-secret: every route not listed answers 403 to everyone\n',
    );
  }
  if (values.demo) demoExamples(g, latest);
}

/** Requests to try on the demo: an included block, a foundry's creation, a slot's changes, an account's congestion. */
function demoExamples({ origin, ledger, params, writer, demo }: Greeting, latest: number): void {
  let txId: Uint8Array | undefined;
  for (let s = latest; s > 0 && txId === undefined; s--) {
    const created = ledger.utxoChanges(s).createdOutputs.at(0);
    if (created !== undefined) txId = created.subarray(0, 32);
  }
  const simulation = demo?.simulation ?? new Simulation({ params, seed: 1 });
  const account = addressToBech32({ type: AddressType.Alias, aliasId: simulation.accounts.worker }, params.bech32Hrp);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`demo network: ${latest} milestones, a new one every ${params.slotDurationSeconds} s (a slot each). Try:`);
  say(`  curl ${origin}/api/core/v2/transactions/${toHex(txId!)}/included-block`);
  // The latest chain transaction that created a foundry (an alias state transition minting native tokens).
  const chain = demo === undefined ? writer?.ready.chainTransaction : foundryTransaction(demo.simulation);
  if (chain !== undefined) say(`  curl ${origin}/api/core/v2/transactions/${chain}/included-block   # ${FOUNDRY_STEP}`);
  say(`  curl ${origin}/api/core/v3/commitments/by-slot/${latest}/utxo-changes`);
  say(`  curl ${origin}/api/core/v3/accounts/${account}/congestion`);
}
