// Determinism (issue 4): the same random sequence of operations on the LMDB store and on the in-memory store gives
// the same commitment IDs, the same refusals, and the same answer to every query. A ledger that publishes to
// PostgreSQL, read back through a PostgresReader, answers every query of the API as the LMDB ledger does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeBlock,
  type Ledger,
  type Output,
  openLedger,
  outputChainId,
  outputId,
  PROTOCOL_PARAMETERS,
  protocolParameters,
  toHex,
  transactionId,
} from '../../../src/index.js';
import type { LedgerReader } from '../../../src/ledger/core/ledger-reader.js';
import { ChainActor } from '../../../src/sim/chains.js';
import { databaseUrl, privatePostgres } from '../../helpers/postgres.js';
import {
  basic,
  genesisOutputs,
  owner,
  parent,
  type Spendable,
  secret,
  taggedBlock,
  transferBlock,
} from '../../helpers/wallet.js';

// The same property over PostgreSQL (issue 15): needs a private cluster; skipped, with the reason, without one.
const pg = await privatePostgres();

const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, {
  genesisUnixTime: 1_700_000_000,
  maxCommittableAge: 4,
});
const genesis = genesisOutputs([1, 2, 3, 4]);
// The chain actor's wallets (controller 5, governor 6, NFT holders 7 and 8) and its fund, a genesis output of key 5.
const secrets = Array.from({ length: 9 }, (_, k) => secret(k + 5));
const addresses = secrets.map((_, k) => owner(k + 5));
const chainFund = genesisOutputs([5])[0]!;
genesis.push(chainFund);
const accounts = [0xa1, 0xa2, 0xa3].map((b) => new Uint8Array(32).fill(b));

type Op =
  | { kind: 'transfer'; pick: number; to: number; split: boolean; ahead: number }
  | { kind: 'tagged'; text: number; issuer: number; ahead: number }
  | { kind: 'chain'; ahead: 0 }
  | { kind: 'create'; account: number; credits: number; ahead: number }
  | { kind: 'allot'; account: number; mana: number; ahead: number }
  | { kind: 'destroy'; account: number; ahead: number }
  | { kind: 'commit' }
  | { kind: 'prune'; back: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      pick: fc.nat(),
      to: fc.integer({ min: 1, max: 4 }),
      split: fc.boolean(),
      ahead: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tagged' as const),
      text: fc.nat(1000),
      issuer: fc.integer({ min: -1, max: 2 }),
      ahead: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      account: fc.integer({ min: 0, max: 2 }),
      credits: fc.integer({ min: -5, max: 2_000_000 }),
      ahead: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('allot' as const),
      account: fc.integer({ min: 0, max: 2 }),
      mana: fc.nat(1_000_000),
      ahead: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('destroy' as const),
      account: fc.integer({ min: 0, max: 2 }),
      ahead: fc.integer({ min: 0, max: 1 }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'chain' as const, ahead: 0 as const }) },
  { weight: 4, arbitrary: fc.constant({ kind: 'commit' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), back: fc.integer({ min: 1, max: 6 }) }) },
);

/** Runs `fn` and describes its outcome: a value (as text) or the error code. */
function outcome(fn: () => unknown): string {
  try {
    const value = fn();
    return value === undefined
      ? 'ok'
      : JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? toHex(v) : v));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === undefined) throw e;
    return `error ${code}`;
  }
}

/** Everything the queries can say about the ledger now, chain state included. */
function snapshot(l: Ledger, txIds: Uint8Array[], chainIds: Uint8Array[]): string[] {
  const latest = l.latestCommitment().slot;
  const out = [outcome(() => l.latestCommitment())];
  for (let s = 0; s <= latest + 1; s++) out.push(outcome(() => l.utxoChanges(s)));
  for (const t of txIds) out.push(outcome(() => l.includedBlock(t)));
  for (const a of accounts) {
    out.push(outcome(() => l.congestion(a)));
    for (let s = Math.max(0, latest - 4); s <= latest; s++)
      out.push(outcome(() => l.congestion(a, { commitmentId: l.commitmentOf(s)?.commitmentId ?? new Uint8Array(36) })));
  }
  out.push(outcome(() => [...l.unspentOutputs()].map(([id, r]) => [id, r.createdSlot])));
  for (const c of chainIds) out.push(outcome(() => l.chainOutput(c)?.outputId));
  return out;
}

/**
 * Plays `ops` on every ledger, checking after each that they all answer alike; counts what succeeded. Ends with every
 * slot committed that any op touched (nothing left pending).
 */
function play(ops: Op[], ledgers: Ledger[], succeeded: Record<string, number>) {
  // The test's own view of what is spendable (the same for both: their answers are compared at every step).
  let spendable: Spendable[] = genesis.filter((g) => g !== chainFund).map((g) => ({ ...g }));
  const txIds: Uint8Array[] = [];
  // The simulation's chain actor: each 'chain' op is its next step (alias, foundry, tokens, NFT); a refused
  // step would leave it out of step with the ledger, so every one must be accepted.
  const actor = new ChainActor(params, secrets, addresses, chainFund, () => 0.5);
  const chainIds: Uint8Array[] = [];
  let nonce = 0n;
  for (const o of ops) {
    const slot = ledgers[0]!.latestCommitment().slot + 1 + ('ahead' in o ? o.ahead : 0);
    let results: string[];
    switch (o.kind) {
      case 'transfer': {
        if (spendable.length === 0) continue;
        const input = spendable[o.pick % spendable.length]!;
        const amount = input.output.amount;
        const outputs: Output[] =
          o.split && amount >= 200_000n
            ? [basic(owner(o.to), amount / 2n), basic(owner(input.key), amount - amount / 2n)]
            : [basic(owner(o.to), amount)];
        const bytes = transferBlock(params, [input], outputs, nonce++);
        results = ledgers.map((l) => outcome(() => l.acceptBlock(bytes, { slot })));
        if (!results[0]!.startsWith('error')) {
          const txId = ledgers[0]!.acceptBlock.length ? JSON.parse(results[0]!).transactionId : undefined;
          const id = Uint8Array.from(Buffer.from(String(txId).slice(2), 'hex'));
          txIds.push(id);
          spendable = spendable.filter((s) => s !== input);
          outputs.forEach((output, i) =>
            spendable.push({
              outputId: outputId(id, i),
              output,
              key: o.to === 0 ? 1 : i === 0 ? o.to : input.key,
            }),
          );
        }
        break;
      }
      case 'tagged': {
        const bytes = taggedBlock(`t${o.text}-${nonce++}`);
        const issuerId = o.issuer >= 0 ? accounts[o.issuer] : undefined;
        results = ledgers.map((l) =>
          outcome(() => l.acceptBlock(bytes, issuerId === undefined ? { slot } : { slot, issuerId })),
        );
        break;
      }
      case 'create':
        results = ledgers.map((l) =>
          outcome(() => l.createAccount(accounts[o.account]!, { blockIssuanceCredits: BigInt(o.credits), slot })),
        );
        break;
      case 'allot':
        results = ledgers.map((l) => outcome(() => l.allot(accounts[o.account]!, BigInt(o.mana), slot)));
        break;
      case 'destroy':
        results = ledgers.map((l) => outcome(() => l.destroyAccount(accounts[o.account]!, slot)));
        break;
      case 'chain': {
        const payload = actor.next();
        const bytes = encodeBlock({ protocolVersion: 2, parents: [parent(9)], payload, nonce: nonce++ });
        results = ledgers.map((l) => outcome(() => l.acceptBlock(bytes, { slot })));
        expect(results[0], 'every chain step is valid where the actor runs it').not.toMatch(/^error/);
        const txId = transactionId(payload);
        txIds.push(txId);
        payload.essence.outputs.forEach((output, i) => {
          const chain = outputChainId(output, outputId(txId, i));
          if (chain !== undefined) chainIds.push(chain);
        });
        break;
      }
      case 'commit':
        results = ledgers.map((l) => outcome(() => l.commitSlot(l.latestCommitment().slot + 1)));
        break;
      case 'prune':
        results = ledgers.map((l) => outcome(() => l.prune(Math.max(0, l.latestCommitment().slot - o.back))));
        break;
    }
    for (const r of results.slice(1)) expect(r, `${o.kind}`).toBe(results[0]);
    if (!results[0]!.startsWith('error')) succeeded[o.kind] = (succeeded[o.kind] ?? 0) + 1;
  }
  for (const l of ledgers) {
    l.commitSlot(l.latestCommitment().slot + 1);
    l.commitSlot(l.latestCommitment().slot + 1);
  }
  return { txIds, chainIds };
}

const ledgerOptions = {
  params,
  genesis: { outputs: genesis, accounts: [{ accountId: accounts[0]!, blockIssuanceCredits: 1_000_000_000n }] },
  clock: () => 1_700_000_000,
};

it('LMDB and memory agree on every commitment ID and every answer', () => {
  const succeeded: Record<string, number> = {};
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 45 }), (ops) => {
      const dir = mkdtempSync(join(tmpdir(), 'tangle-det-'));
      const ledgers = [openLedger(ledgerOptions), openLedger({ ...ledgerOptions, path: dir })];
      try {
        const { txIds, chainIds } = play(ops, ledgers, succeeded);
        expect(snapshot(ledgers[1]!, txIds, chainIds)).toEqual(snapshot(ledgers[0]!, txIds, chainIds));
      } finally {
        for (const l of ledgers) l.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { seed: 4242, numRuns: 25 },
  );
  // Not vacuous: every kind of operation succeeded many times across the runs.
  for (const kind of ['transfer', 'tagged', 'chain', 'create', 'allot', 'destroy', 'commit'])
    expect(succeeded[kind] ?? 0, kind).toBeGreaterThan(5);
}, 120_000);

/** What the API can ask of any LedgerReader (the embedded ledger, or a reader of its database). */
async function readerSnapshot(l: LedgerReader, txIds: Uint8Array[]): Promise<string[]> {
  const awaited = async (fn: () => unknown) => {
    try {
      const value = await fn();
      return outcome(() => value);
    } catch (e) {
      return outcome(() => {
        throw e;
      });
    }
  };
  const latest = (await l.latestCommitment()).slot;
  const out = [await awaited(() => l.latestCommitment()), `pruned until ${l.prunedUntil}`];
  for (let s = 0; s <= latest + 1; s++) out.push(await awaited(() => l.utxoChanges(s)));
  for (const t of txIds) out.push(await awaited(async () => ({ ...(await l.includedBlock(t)), json: undefined })));
  for (const a of accounts) {
    out.push(await awaited(() => l.congestion(a)));
    for (let s = Math.max(0, latest - 4); s <= latest; s++) {
      const id = (await l.commitmentOf(s))?.commitmentId ?? new Uint8Array(36);
      out.push(await awaited(() => l.congestion(a, { commitmentId: id })));
    }
  }
  return out;
}

describe.skipIf(pg === undefined)('over PostgreSQL', () => {
  it('a ledger publishing to PostgreSQL, read back, answers as LMDB does', async () => {
    const succeeded: Record<string, number> = {};
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 45 }), async (ops) => {
        const database = `det${run++}`;
        pg!.primary.sql(`create database ${database}`);
        const store = databaseUrl(pg!.primary, database);
        const dir = mkdtempSync(join(tmpdir(), 'tangle-det-'));
        const ledgers = [openLedger({ ...ledgerOptions, path: dir }), await openLedger({ ...ledgerOptions, store })];
        const reader = await openLedger({ ...ledgerOptions, store, readOnly: true });
        try {
          const { txIds } = play(ops, ledgers, succeeded);
          await ledgers[1]!.published();
          expect(await readerSnapshot(reader, txIds)).toEqual(await readerSnapshot(ledgers[0]!, txIds));
        } finally {
          for (const l of ledgers) l.close();
          await reader.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { seed: 4242, numRuns: 25 },
    );
    for (const kind of ['transfer', 'tagged', 'chain', 'create', 'commit', 'prune'])
      expect(succeeded[kind] ?? 0, kind).toBeGreaterThan(3);
  }, 180_000);
});
