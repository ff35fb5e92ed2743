// hornet's conflict reason for every rule a referenced transaction can break (issue 57), judged in a milestone: a
// test network (its coordinator a test key), milestone 1 spending one output, then milestone 2 whose cone holds one
// block per case, each spending outputs of its own. The expected reasons are read from hornet v2.0.1 (iota.go
// v3.0.0-rc.3), not from the code under test: hornet maps iota.go's errors in pkg/model/storage/block_metadata.go
// (errorToConflictMapping, lines 71-100; ConflictFromSemanticValidationError, 102-115: a ChainTransitionError is 12
// before any other), and iota.go's Transaction.SemanticallyValidate runs its rules in this order (transaction.go:
// 330-337): TxSemanticTimelock (every input, 677) → TxSemanticInputUnlocks (the inputs commitment first, 465-472;
// then input by input, 474) → TxSemanticOutputsSender (601) → TxSemanticDeposit (the sum of amounts, 661; then the
// returns, 665) → TxSemanticNativeTokens (721) → TxSemanticSTVFOnChains (689). The first rule broken is the reason.
// The milestone is signed with the Merkle roots these expectations give (the applied root over the applied blocks
// only): applyMilestone refuses it whole if any verdict differs, and every block's recorded reason is checked too.
// The same transactions posted (validateTransaction) break the same first rule.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Address,
  type AliasOutput,
  applyMilestone,
  type BasicOutput,
  blockId,
  buildBlock,
  buildMilestone,
  buildTransaction,
  encodeBlock,
  type Ledger,
  merkleRoot,
  milestoneId,
  type NftOutput,
  nextNft,
  type Output,
  outputId,
  signTransaction,
  type TransactionPayload,
  ValidationError,
  validateTransaction,
} from '../../../src/index.js';
import { semanticConflict } from '../../../src/ledger/core/conflict-reason.js';
import * as net from '../../helpers/test-network.js';

const { basicOutput, carrying, genesisLedger, SEP, signedMilestone, T0, tempDir, testAddress, testnet } = net;
const { testSecret, ZERO } = net;

const dir = tempDir('tangle-conflict-reasons-');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const COORDINATOR = new Uint8Array(32).fill(0xc0);
/** Milestone 2's time: every timelock and expiration below is judged at it. */
const T = T0 + 20;
const secret = testSecret;
const addr = testAddress;
const [A, B, C] = [addr(1), addr(2), addr(3)];
const MI = 1_000_000n;

const basic = (owner: Address, amount = MI, more: Partial<BasicOutput> = {}): BasicOutput => ({
  ...basicOutput(owner, amount),
  ...more,
});
/** `basic` with more unlock conditions after its Address one (they are sorted by type). */
const withUcs = (owner: Address, ucs: BasicOutput['unlockConditions'], amount = MI): BasicOutput =>
  basic(owner, amount, { unlockConditions: [{ type: 0, address: owner }, ...ucs] });
/** A token id no foundry of this network has (a foundry id: alias address, serial number, scheme). */
const STRAY_TOKEN = Uint8Array.of(8, ...new Uint8Array(32).fill(0x77), 1, 0, 0, 0, 0);

// ---- the genesis outputs, each case's own --------------------------------------------------------------------------
const genesis: { outputId: Uint8Array; output: Output }[] = [];
/** An output of the genesis snapshot, held for one case. */
function held<T extends Output>(output: T) {
  const n = genesis.length + 1;
  const id = outputId(Uint8Array.of(0xa0, n >> 8, n & 0xff, ...new Uint8Array(29)), 0);
  genesis.push({ outputId: id, output });
  return { outputId: id, output };
}
let nfts = 0;
/** A genesis NFT of A with an id of its own and metadata 1 as its immutable feature. */
function heldNft(more: Partial<NftOutput> = {}) {
  nfts++;
  return held<NftOutput>({
    type: 6,
    amount: MI,
    nativeTokens: [],
    nftId: new Uint8Array(32).fill(0x40 + nfts),
    unlockConditions: [{ type: 0, address: A }],
    features: [],
    immutableFeatures: [{ type: 2, data: Uint8Array.of(1) }],
    ...more,
  });
}
const changedImmutable = (nft: ReturnType<typeof heldNft>): NftOutput => ({
  ...nextNft(nft),
  immutableFeatures: [{ type: 2, data: Uint8Array.of(2) }],
});

interface Case {
  name: string;
  /** hornet's reason (0: applied), and where it is read. */
  reason: number;
  why: string;
  inputs: { outputId: Uint8Array; output: Output }[];
  outputs: Output[];
  /** The secret key of each input (an Ed25519 owner's; the builder writes reference unlocks for repeats). */
  keys: number[];
  /** The outputs the inputs commitment is made of, when not the inputs' own (to break it). */
  committed?: Output[];
}

const spentByMilestone1 = held(basic(A));
const spentTwice = held(basic(A));
const aliasId = new Uint8Array(32).fill(0x33);
const alias: AliasOutput = {
  type: 4,
  amount: MI,
  nativeTokens: [],
  aliasId,
  stateIndex: 3,
  stateMetadata: new Uint8Array(0),
  foundryCounter: 0,
  unlockConditions: [
    { type: 4, address: A },
    { type: 5, address: A },
  ],
  features: [],
  immutableFeatures: [],
};

const one = (name: string, reason: number, why: string, o: Omit<Case, 'name' | 'reason' | 'why'>): Case => ({
  name,
  reason,
  why,
  ...o,
});
const cases: Case[] = (() => {
  const list: Case[] = [];
  const add = (c: Case) => list.push(c);
  // One rule broken at a time: every code 1-12.
  add(
    one('spends an output milestone 1 spent', 1, 'white_flag.go:270-276', {
      inputs: [spentByMilestone1],
      outputs: [basic(B)],
      keys: [1],
    }),
  );
  add(
    one('spends an output an earlier block of this milestone spent (first)', 0, 'applied', {
      inputs: [spentTwice],
      outputs: [basic(B)],
      keys: [1],
    }),
  );
  add(
    one('spends it again (after it in the order)', 2, 'white_flag.go:241-247', {
      inputs: [spentTwice],
      outputs: [basic(C)],
      keys: [1],
    }),
  );
  add(
    one('spends an output that does not exist', 3, 'white_flag.go:258-266', {
      inputs: [{ outputId: outputId(new Uint8Array(32).fill(0x99), 0), output: basic(A) }],
      outputs: [basic(B)],
      keys: [1],
    }),
  );
  add(
    one('unbalanced', 4, 'ErrInputOutputSumMismatch: block_metadata.go:74', {
      inputs: [held(basic(A))],
      outputs: [basic(B, MI + 1n)],
      keys: [1],
    }),
  );
  add(
    one('signed by a key that does not own the input', 5, 'ErrEd25519PubKeyAndAddrMismatch: block_metadata.go:82', {
      inputs: [held(basic(A))],
      outputs: [basic(B)],
      keys: [2],
    }),
  );
  add(
    one('timelocked past the milestone', 6, 'ErrTimelockNotExpired: block_metadata.go:85', {
      inputs: [held(withUcs(A, [{ type: 2, unixTime: T + 1 }]))],
      outputs: [basic(B)],
      keys: [1],
    }),
  );
  add(
    one('tokens from nothing (no foundry)', 7, 'ErrNativeTokenSumUnbalanced: block_metadata.go:91', {
      inputs: [held(basic(A))],
      outputs: [basic(B, MI, { nativeTokens: [{ id: STRAY_TOKEN, amount: 10n }] })],
      keys: [1],
    }),
  );
  add(
    one('a storage deposit return not paid', 8, 'ErrReturnAmountNotFulFilled: block_metadata.go:78', {
      inputs: [held(withUcs(A, [{ type: 1, returnAddress: B, amount: 100_000n }]))],
      outputs: [basic(C)],
      keys: [1],
    }),
  );
  const aliasOwned = held(basic({ type: 8, aliasId: new Uint8Array(32).fill(0x55) }));
  add(
    one('an input an alias owns, unlocked by a reference', 9, 'ErrInvalidInputUnlock: block_metadata.go:97', {
      inputs: [held(basic(A)), aliasOwned],
      outputs: [basic(B, 2n * MI)],
      keys: [1, 1],
    }),
  );
  add(
    one('an inputs commitment of other outputs', 10, 'ErrInvalidInputsCommitment: block_metadata.go:75', {
      inputs: [held(basic(A))],
      outputs: [basic(B)],
      keys: [1],
      committed: [basic(A, MI - 1n)],
    }),
  );
  add(
    one('a sender not unlocked', 11, 'ErrSenderFeatureNotUnlocked: block_metadata.go:94', {
      inputs: [held(basic(A))],
      outputs: [basic(B, MI, { features: [{ type: 0, address: C }] })],
      keys: [1],
    }),
  );
  const nft12 = heldNft();
  add(
    one("an NFT's immutable feature changed", 12, 'ChainTransitionError: block_metadata.go:103-106', {
      inputs: [nft12],
      outputs: [changedImmutable(nft12)],
      keys: [1],
    }),
  );

  // Two rules broken: hornet's order decides (the pairs issue 57's audit tried).
  add(
    one('timelocked and signed by the wrong key', 6, 'TxSemanticTimelock before TxSemanticInputUnlocks', {
      inputs: [held(withUcs(A, [{ type: 2, unixTime: T + 1 }]))],
      outputs: [basic(B)],
      keys: [2],
    }),
  );
  add(
    one('inputs commitment wrong and timelocked', 6, 'TxSemanticTimelock before the commitment (transaction.go:465)', {
      inputs: [held(withUcs(A, [{ type: 2, unixTime: T + 1 }]))],
      outputs: [basic(B)],
      keys: [1],
      committed: [basic(A)],
    }),
  );
  add(
    one('unbalanced and a return not paid', 4, 'the sum (transaction.go:661) before the returns (665)', {
      inputs: [held(withUcs(A, [{ type: 1, returnAddress: B, amount: 100_000n }]))],
      outputs: [basic(C, MI + 1n)],
      keys: [1],
    }),
  );
  const nftU = heldNft();
  add(
    one('a chain transition and unbalanced', 4, 'TxSemanticDeposit before TxSemanticSTVFOnChains', {
      inputs: [nftU],
      outputs: [{ ...changedImmutable(nftU), amount: MI + 1n }],
      keys: [1],
    }),
  );
  const nftS = heldNft();
  add(
    one('a chain transition and a sender not unlocked', 11, 'TxSemanticOutputsSender before the chains', {
      inputs: [nftS],
      outputs: [{ ...changedImmutable(nftS), features: [{ type: 0, address: C }] }],
      keys: [1],
    }),
  );
  const nftT = heldNft();
  add(
    one('an immutable feature changed and tokens from nothing', 7, 'TxSemanticNativeTokens before the chains', {
      inputs: [nftT],
      outputs: [{ ...changedImmutable(nftT), nativeTokens: [{ id: STRAY_TOKEN, amount: 1n }] }],
      keys: [1],
    }),
  );

  // iota.go's own conditions where they are not iota-sdk's.
  add(
    one('a return owed to the input’s own owner: owed nothing', 0, 'UnlockedBy(inputIndex, returnIdent): 634-638', {
      inputs: [held(withUcs(A, [{ type: 1, returnAddress: A, amount: 100_000n }]))],
      outputs: [basic(C)],
      keys: [1],
    }),
  );
  const selfId = new Uint8Array(32).fill(0x3f);
  const nftReturningToItself = heldNft({
    nftId: selfId,
    unlockConditions: [
      { type: 0, address: A },
      { type: 1, returnAddress: { type: 16, nftId: selfId }, amount: 100_000n },
    ],
  });
  add(
    one(
      'an NFT whose return address is its own: owed nothing',
      0,
      'its chain is unlocked at its index (AddUnlockedChain, 497): UnlockedBy is true',
      { inputs: [nftReturningToItself], outputs: [nextNft(nftReturningToItself, C)], keys: [1] },
    ),
  );
  add(
    one(
      'expired, the return owed to another address than the expiration’s',
      8,
      'expiration does not waive a return: only UnlockedBy does (transaction.go:629-641)',
      {
        inputs: [
          held(
            withUcs(A, [
              { type: 1, returnAddress: B, amount: 100_000n },
              { type: 3, returnAddress: C, unixTime: T0 },
            ]),
          ),
        ],
        outputs: [basic(C)],
        keys: [3],
      },
    ),
  );
  add(
    one('expired, the return owed to the expiration’s return address: owed nothing', 0, 'UnlockedBy: 634-638', {
      inputs: [
        held(
          withUcs(A, [
            { type: 1, returnAddress: B, amount: 100_000n },
            { type: 3, returnAddress: B, unixTime: T0 },
          ]),
        ),
      ],
      outputs: [basic(C)],
      keys: [2],
    }),
  );
  add(
    one('a timelock ending at the milestone’s very second', 0, 'unlock_cond.go:211: locked while time < its time', {
      inputs: [held(withUcs(A, [{ type: 2, unixTime: T }]))],
      outputs: [basic(B)],
      keys: [1],
    }),
  );
  const expiringNow = withUcs(A, [{ type: 3, returnAddress: B, unixTime: T }]);
  add(
    one('an expiration at the milestone’s very second: the return address unlocks', 0, 'unlock_cond.go:195 (<=)', {
      inputs: [held(expiringNow)],
      outputs: [basic(C)],
      keys: [2],
    }),
  );
  add(
    one('an expiration at the milestone’s very second: the owner no longer does', 5, 'unlock_cond.go:195', {
      inputs: [held(expiringNow)],
      outputs: [basic(C)],
      keys: [1],
    }),
  );
  // An alias whose successor skips a state index is refused at its own unlock (AliasOutput.Ident,
  // output_alias.go:352-354: ErrTransDepIdentOutputNextInvalid, block_metadata.go:99), before a later input's key.
  const heldAlias = held(alias);
  add(
    one('an alias skipping a state index, then an input signed by the wrong key', 12, 'output_alias.go:353', {
      inputs: [heldAlias, held(basic(B))],
      outputs: [{ ...alias, stateIndex: 5 }, basic(C)],
      keys: [1, 3],
    }),
  );
  // A new NFT's issuer is checked among the chains (chain.go:82 from genesisValid, output_nft.go:245): after the sum.
  add(
    one('a new NFT whose issuer is not unlocked, and unbalanced', 4, 'IsIssuerOnOutputUnlocked in the STVF', {
      inputs: [held(basic(A))],
      outputs: [
        {
          type: 6,
          amount: MI + 1n,
          nativeTokens: [],
          nftId: new Uint8Array(32),
          unlockConditions: [{ type: 0, address: A }],
          features: [],
          immutableFeatures: [{ type: 1, address: C }],
        },
      ],
      keys: [1],
    }),
  );
  add(
    one('a new NFT whose issuer is not unlocked', 12, 'ChainTransitionError (output_nft.go:238)', {
      inputs: [held(basic(A))],
      outputs: [
        {
          type: 6,
          amount: MI,
          nativeTokens: [],
          nftId: new Uint8Array(32),
          unlockConditions: [{ type: 0, address: A }],
          features: [],
          immutableFeatures: [{ type: 1, address: C }],
        },
      ],
      keys: [1],
    }),
  );
  return list;
})();

/** A signed transaction of a case (its commitment over `committed` when it is to be wrong). */
function transactionOf(c: Case): TransactionPayload {
  const essence = buildTransaction({ inputs: c.inputs, outputs: c.outputs, params: testnet });
  if (c.committed !== undefined)
    essence.inputsCommitment = buildTransaction({
      inputs: c.committed.map((output, i) => ({ outputId: c.inputs[i]!.outputId, output })),
      outputs: c.outputs,
      params: testnet,
    }).inputsCommitment;
  return signTransaction(essence, c.keys.map(secret), { consumed: c.inputs.map((i) => i.output) });
}

/** TIP-2's order, written out: depth first over the parents in their order, a block after its parents. */
function whiteFlagOrder(parents: string[], parentsOf: Map<string, string[]>, confirmed: Set<string>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || confirmed.has(id) || !parentsOf.has(id)) return;
    seen.add(id);
    for (const p of parentsOf.get(id)!) visit(p);
    order.push(id);
  };
  for (const p of parents) visit(p);
  return order;
}

describe("hornet's conflict reason for each rule and each pair, judged in a milestone", () => {
  let ledger: Ledger;
  const blockOf = new Map<string, string>(); // case name → block id (hex)
  const parentsOf = new Map<string, string[]>();
  const bytesOf = new Map<string, Uint8Array>();

  beforeAll(async () => {
    ledger = await genesisLedger(join(dir, 'network'), genesis, { coordinator: COORDINATOR });
    // Milestone 1: one valid transaction, spending what case 1 spends again.
    const spend = encodeBlock(
      buildBlock({
        parents: [SEP],
        payload: signTransaction(
          buildTransaction({ inputs: [spentByMilestone1], outputs: [basic(B)], params: testnet }),
          [secret(1)],
        ),
        params: testnet,
      }),
    );
    const m1 = signedMilestone(
      { index: 1, timestamp: T0 + 10, previous: ZERO, parents: [blockId(spend)], order: [spend], applied: [spend] },
      [COORDINATOR],
    );
    expect(applyMilestone(ledger, { milestone: m1, blocks: [spend] }).included).toBe(1);
    const m1Block = carrying(m1);
    const m1Id = hex(blockId(m1Block));
    parentsOf.set(m1Id, [hex(blockId(spend))]);
    bytesOf.set(m1Id, m1Block);
    // The cases' blocks in a chain, each the parent of the next (a milestone has at most 8 parents): the white-flag
    // order is the cases' order.
    let previous = m1Id;
    for (const c of cases) {
      const parents = [previous];
      const bytes = encodeBlock(
        buildBlock({ parents: parents.map((p) => Buffer.from(p, 'hex')), payload: transactionOf(c), params: testnet }),
      );
      const id = hex(blockId(bytes));
      blockOf.set(c.name, id);
      parentsOf.set(id, parents);
      bytesOf.set(id, bytes);
      previous = id;
    }
    // Milestone 2 references the last case's block, and through it every other; its roots are the expectations'
    // (the applied one over the blocks applied only).
    const tips = [previous];
    const order = whiteFlagOrder(tips, parentsOf, new Set([hex(blockId(spend))]));
    expect(order).toEqual([m1Id, ...cases.map((c) => blockOf.get(c.name)!)]);
    const reasonOf = new Map(cases.map((c) => [blockOf.get(c.name)!, c.reason]));
    const applied = order.filter((id) => reasonOf.get(id) === 0);
    const unhex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
    const m2 = buildMilestone(
      {
        index: 2,
        timestamp: T,
        previousMilestoneId: milestoneId(m1),
        parents: tips.map(unhex),
        inclusionMerkleRoot: merkleRoot(order.map(unhex)),
        appliedMerkleRoot: merkleRoot(applied.map(unhex)),
        params: testnet,
      },
      [COORDINATOR],
    );
    const result = applyMilestone(ledger, { milestone: m2, blocks: order.map((id) => bytesOf.get(id)!).reverse() });
    expect(result.included).toBe(cases.filter((c) => c.reason === 0).length);
    expect(result.conflicting).toBe(cases.filter((c) => c.reason !== 0).length);
  });
  afterAll(() => ledger?.close());

  it('every code 1-12 has a case breaking that rule alone, and there are pairs', () => {
    for (let code = 1; code <= 12; code++) expect(cases.map((c) => c.reason)).toContain(code);
  });

  for (const c of cases) {
    it(`${c.name}: ${c.reason === 0 ? 'applied' : `conflicting, reason ${c.reason}`} (${c.why})`, () => {
      const wf = ledger.block(Buffer.from(blockOf.get(c.name)!, 'hex')).whiteFlag!;
      expect({ inclusion: wf.inclusion, conflict: wf.conflict }).toEqual(
        c.reason === 0 ? { inclusion: 1, conflict: 0 } : { inclusion: 2, conflict: c.reason },
      );
      if (c.reason <= 3) return; // the ledger's input rules, not the transaction's
      // Posted rather than referenced: the same first rule is broken.
      let thrown: unknown;
      try {
        validateTransaction(transactionOf(c), {
          consumedOutputs: c.inputs.map((i) => i.output),
          params: testnet,
          time: T,
        });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect(semanticConflict(thrown as ValidationError).reason).toBe(c.reason);
    });
  }
});
