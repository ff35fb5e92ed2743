// The ledger API at its edges (SPEC B3), for the rules mutation testing found unpinned: every argument check, who may
// issue in which slot, blocks and inputs seen before a commit, the last slot a ledger can hold, prune's bookkeeping,
// the default work of `ready` at its exact boundary, and the parameters a store keeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger, PROTOCOL_PARAMETERS, protocolParameters, toHex } from '../../../src/index.js';
import { errorCode } from '../../helpers/failure.js';
import { MINIMAL_TRANSACTION_WORK } from '../../helpers/reference-ledger.js';
import { basic, genesisOutputs, owner, taggedBlock, transferBlock } from '../../helpers/wallet.js';

const G = 1_700_000_000;
const params = protocolParameters(PROTOCOL_PARAMETERS.testnet, { genesisUnixTime: G });
const genesis = genesisOutputs([1, 2, 3]);
const A = new Uint8Array(32).fill(0xaa);
const X = new Uint8Array(32).fill(0x0b);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const fresh = (credits = 10_000_000_000n): Ledger =>
  openLedger({
    params,
    genesis: { outputs: genesis, accounts: [{ accountId: A, blockIssuanceCredits: credits }] },
    clock: () => G,
  });

const code = errorCode;

describe('arguments', () => {
  const l = fresh();
  const bad: [string, () => unknown][] = [
    ['a 31-byte transaction id', () => l.includedBlock(new Uint8Array(31))],
    ['a transaction id that is not bytes', () => l.includedBlock('0xab' as never)],
    ['a negative slot', () => l.utxoChanges(-1)],
    ['a fractional slot', () => l.utxoChanges(1.5)],
    ['a slot past uint32', () => l.utxoChanges(2 ** 32)],
    ['a commitment slot past uint32', () => l.commitmentOf(2 ** 32)],
    ['block bytes that are not bytes', () => l.acceptBlock([1, 2] as never, { slot: 1 })],
    ['an issuer id of 31 bytes', () => l.acceptBlock(taggedBlock('x'), { slot: 1, issuerId: new Uint8Array(31) })],
    ['credits that are not a bigint', () => l.createAccount(X, { blockIssuanceCredits: 5 as never, slot: 1 })],
    ['negative mana', () => l.allot(A, -1n, 1)],
    ['mana that is not a bigint', () => l.allot(A, 1 as never, 1)],
    ['setSynced with a string', () => l.setSynced('yes' as never)],
    ['a negative work score', () => l.congestion(A, { workScore: -1 })],
    ['a fractional work score', () => l.congestion(A, { workScore: 1.5 })],
    ['a work score past uint32', () => l.congestion(A, { workScore: 2 ** 32 })],
    ['a 35-byte commitment id', () => l.congestion(A, { commitmentId: new Uint8Array(35) })],
    ['prune before slot 0', () => l.prune(-1)],
  ];
  l.setSynced(true);
  for (const [what, call] of bad) it(`${what}: INVALID_ARGUMENT`, () => expect(code(call)).toBe('INVALID_ARGUMENT'));

  it('openLedger without parameters, or with something else: INVALID_ARGUMENT', () => {
    for (const options of [undefined, null, {}, { params: {} }, { params: { networkId: 1 } }])
      expect(code(() => openLedger(options as never))).toBe('INVALID_ARGUMENT');
  });

  it('mana 0 is an allotment; work 0 and the largest uint32 are work scores', () => {
    expect(code(() => l.allot(A, 0n, 1))).toBe('accepted');
    expect(code(() => l.congestion(A, { workScore: 0 }))).toBe('accepted');
    expect(code(() => l.congestion(A, { workScore: 2 ** 32 - 1 }))).toBe('accepted');
  });
});

describe('slots a ledger can hold', () => {
  it('4294967294 is the last slot a block may name; 4294967295 marks "never" in the records', () => {
    const l = fresh();
    expect(code(() => l.acceptBlock(taggedBlock('last'), { slot: 4_294_967_294 }))).toBe('accepted');
    expect(code(() => l.acceptBlock(taggedBlock('past'), { slot: 4_294_967_295 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => l.createAccount(X, { blockIssuanceCredits: 1n, slot: 4_294_967_295 }))).toBe('INVALID_ARGUMENT');
    // Reads take every uint32: a future slot is not found, not invalid.
    expect(code(() => l.utxoChanges(4_294_967_295))).toBe('NOT_FOUND');
    expect(l.commitmentOf(4_294_967_295)).toBeUndefined();
  });
  it('commits only the next slot: not the latest again, not one further', () => {
    const l = fresh();
    l.commitSlot(1);
    expect(code(() => l.commitSlot(1))).toBe('SLOT_NOT_NEXT');
    expect(code(() => l.commitSlot(3))).toBe('SLOT_NOT_NEXT');
    expect(code(() => l.commitSlot(0))).toBe('SLOT_NOT_NEXT');
    expect(l.commitSlot(2).slot).toBe(2);
    expect(l.commitmentOf(3)).toBeUndefined();
    expect(l.commitmentOf(2)!.commitmentId).toEqual(l.latestCommitment().commitmentId);
  });
});

describe('accounts over pending slots', () => {
  it('an account issues from the slot it is created in, and not from the slot it is destroyed in', () => {
    const l = fresh();
    l.createAccount(X, { blockIssuanceCredits: 1_000_000_000n, slot: 5 });
    expect(code(() => l.acceptBlock(taggedBlock('early', 3), { slot: 4, issuerId: X }))).toBe('ISSUER_NOT_FOUND');
    expect(code(() => l.acceptBlock(taggedBlock('on time', 3), { slot: 5, issuerId: X }))).toBe('accepted');
    l.destroyAccount(X, 7);
    expect(code(() => l.acceptBlock(taggedBlock('still', 3), { slot: 6, issuerId: X }))).toBe('accepted');
    expect(code(() => l.acceptBlock(taggedBlock('gone', 3), { slot: 7, issuerId: X }))).toBe('ISSUER_NOT_FOUND');
    expect(code(() => l.acceptBlock(taggedBlock('later', 3), { slot: 8, issuerId: X }))).toBe('ISSUER_NOT_FOUND');
    // Events of other accounts do not change X's life.
    l.createAccount(new Uint8Array(32).fill(0x0c), { blockIssuanceCredits: 1n, slot: 9 });
    expect(code(() => l.acceptBlock(taggedBlock('other', 3), { slot: 9, issuerId: X }))).toBe('ISSUER_NOT_FOUND');
  });
  it('an account cannot be created twice (pending or committed), nor destroyed before it exists', () => {
    const l = fresh();
    l.createAccount(X, { blockIssuanceCredits: 1n, slot: 2 });
    expect(code(() => l.createAccount(X, { blockIssuanceCredits: 1n, slot: 3 }))).toBe('ACCOUNT_EXISTS');
    expect(code(() => l.createAccount(A, { blockIssuanceCredits: 1n, slot: 3 }))).toBe('ACCOUNT_EXISTS');
    expect(code(() => l.destroyAccount(new Uint8Array(32).fill(0x0d), 3))).toBe('ACCOUNT_NOT_FOUND');
    expect(code(() => l.destroyAccount(X, 1))).toBe('ACCOUNT_NOT_FOUND');
    // Mana allotted to an account that does not exist is burned (iota-core): accepted, and no account appears.
    l.setSynced(true);
    expect(code(() => l.allot(new Uint8Array(32).fill(0x0d), 1n, 3))).toBe('accepted');
    for (let s = 1; s <= 3; s++) l.commitSlot(s);
    expect(code(() => l.congestion(new Uint8Array(32).fill(0x0d)))).toBe('NOT_FOUND');
  });
  it('an account destroyed in two pending slots is destroyed at the first: it does not live again in between', () => {
    // Accepted in this order, both destructions are valid when made (slot 1's is not yet there when slot 2's comes).
    // At slot 2's commit the account is already gone: its destruction is nothing, as in the reference ledger.
    const l = fresh();
    l.setSynced(true);
    l.destroyAccount(A, 2);
    l.destroyAccount(A, 1);
    const at1 = l.commitSlot(1).commitmentId;
    l.commitSlot(2);
    expect(code(() => l.congestion(A, { commitmentId: at1 }))).toBe('NOT_FOUND');
    expect(code(() => l.congestion(A))).toBe('NOT_FOUND');
  });
  it('an issuer with exactly zero credits may issue; below zero it may not', () => {
    expect(code(() => fresh(0n).acceptBlock(taggedBlock('zero'), { slot: 1, issuerId: A }))).toBe('accepted');
    expect(code(() => fresh(-1n).acceptBlock(taggedBlock('minus'), { slot: 1, issuerId: A }))).toBe('ISSUER_LOCKED');
  });
});

describe('blocks and inputs seen before', () => {
  it('the same block again: refused while pending and after its slot is committed, tagged data or transaction', () => {
    const l = fresh();
    const tagged = taggedBlock('once');
    const transfer = transferBlock(params, [genesis[0]!], [basic(owner(2), genesis[0]!.output.amount)]);
    l.acceptBlock(tagged, { slot: 1 });
    l.acceptBlock(transfer, { slot: 1 });
    expect(code(() => l.acceptBlock(tagged, { slot: 1 }))).toBe('BLOCK_ALREADY_ACCEPTED');
    expect(code(() => l.acceptBlock(transfer, { slot: 1 }))).toBe('BLOCK_ALREADY_ACCEPTED');
    l.commitSlot(1);
    expect(code(() => l.acceptBlock(tagged, { slot: 2 }))).toBe('BLOCK_ALREADY_ACCEPTED');
    expect(code(() => l.acceptBlock(transfer, { slot: 2 }))).toBe('BLOCK_ALREADY_ACCEPTED');
    // Another block with the same transaction: the transaction is applied already.
    expect(
      code(() =>
        l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), genesis[0]!.output.amount)], 7n), {
          slot: 2,
        }),
      ),
    ).toBe('TRANSACTION_ALREADY_APPLIED');
  });
  it('an output spent in a committed slot cannot be spent again', () => {
    const l = fresh();
    l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(2), genesis[0]!.output.amount)]), { slot: 1 });
    l.commitSlot(1);
    expect(
      code(() =>
        l.acceptBlock(transferBlock(params, [genesis[0]!], [basic(owner(3), genesis[0]!.output.amount)]), { slot: 2 }),
      ),
    ).toBe('INPUT_ALREADY_SPENT');
  });
});

describe('prune', () => {
  it('drops what lies below the slot, keeps the rest, and going back or repeating changes nothing', () => {
    const l = fresh();
    const txs: Uint8Array[] = [];
    for (let s = 1; s <= 4; s++) {
      const input =
        s === 1
          ? genesis[0]!
          : {
              outputId: new Uint8Array([...txs.at(-1)!, 0, 0]),
              output: basic(owner(1), genesis[0]!.output.amount),
              key: 1,
            };
      txs.push(
        l.acceptBlock(transferBlock(params, [input], [basic(owner(1), genesis[0]!.output.amount)]), { slot: s })
          .transactionId!,
      );
      l.acceptBlock(taggedBlock(`slot ${s}`), { slot: s });
      l.commitSlot(s);
    }
    const before = [3, 4].map((s) => l.utxoChanges(s));
    l.prune(3);
    expect(l.prunedUntil).toBe(3);
    for (const s of [1, 2]) expect(code(() => l.utxoChanges(s))).toBe('NOT_FOUND');
    expect([3, 4].map((s) => l.utxoChanges(s))).toEqual(before);
    for (const [i, id] of txs.entries())
      expect(
        code(() => l.includedBlock(id)),
        `transaction of slot ${i + 1}`,
      ).toBe(i < 2 ? 'NOT_FOUND' : 'accepted');
    // The last output of the chain is unspent: it stays, whatever the prune.
    expect(l.output(new Uint8Array([...txs[3]!, 0, 0]))?.spentSlot).toBe(0xffffffff);
    l.prune(2);
    l.prune(3);
    expect(l.prunedUntil).toBe(3);
    expect(code(() => l.includedBlock(txs[2]!))).toBe('accepted');
    // Pruning past the latest slot stops at it.
    l.prune(100);
    expect(l.prunedUntil).toBe(5);
    expect(code(() => l.utxoChanges(4))).toBe('NOT_FOUND');
  });
});

describe('congestion', () => {
  it('ready with the default work at exactly its credits × RMC 1 (work worked out by hand), not one credit less', () => {
    for (const [credits, ready] of [
      [MINIMAL_TRANSACTION_WORK, true],
      [MINIMAL_TRANSACTION_WORK - 1n, false],
    ] as const) {
      const l = fresh(credits);
      l.setSynced(true);
      expect(l.congestion(A).ready, String(credits)).toBe(ready);
    }
  });
  it('an account created after a commitment is not found as of that commitment', () => {
    const l = fresh();
    l.setSynced(true);
    l.commitSlot(1);
    l.createAccount(X, { blockIssuanceCredits: 5n, slot: 2 });
    l.commitSlot(2);
    expect(code(() => l.congestion(X, { commitmentId: l.commitmentOf(1)!.commitmentId }))).toBe('NOT_FOUND');
    expect(l.congestion(X, { commitmentId: l.commitmentOf(2)!.commitmentId }).blockIssuanceCredits).toBe(5n);
    // Destroyed in slot 3: found as of slot 2, with its credits then, but never ready again.
    l.destroyAccount(X, 3);
    l.commitSlot(3);
    expect(l.congestion(X, { commitmentId: l.commitmentOf(2)!.commitmentId, workScore: 1 })).toMatchObject({
      blockIssuanceCredits: 5n,
      ready: false,
    });
    expect(code(() => l.congestion(X))).toBe('NOT_FOUND');
  });
  it('the default clock is the wall clock: a ledger whose genesis is now is synced', () => {
    const now = Math.floor(Date.now() / 1000);
    const l = openLedger({ params: protocolParameters(params, { genesisUnixTime: now }) });
    expect(l.isSynced()).toBe(true);
    const old = openLedger({ params: protocolParameters(params, { genesisUnixTime: now - 22 * 10 }) });
    expect(old.isSynced()).toBe(false);
  });
});

describe('what a store keeps', () => {
  it('a store reopened with another network, genesis time or genesis slot is refused with PARAMETERS_MISMATCH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tangle-edges-'));
    dirs.push(dir);
    openLedger({ path: dir, params }).close();
    for (const other of [
      PROTOCOL_PARAMETERS.shimmer,
      protocolParameters(params, { genesisUnixTime: G + 1 }),
      protocolParameters(params, { genesisSlot: 1 }),
    ]) {
      expect(code(() => openLedger({ path: dir, params: other }))).toBe('PARAMETERS_MISMATCH');
    }
    const again = openLedger({ path: dir, params });
    expect(toHex(again.latestCommitment().commitmentId)).toMatch(/^0x[0-9a-f]{72}$/);
    again.close();
  });
});
