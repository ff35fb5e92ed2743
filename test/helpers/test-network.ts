// A test network of the testnet preset, as the history, analytics and snapshot tests build one: its genesis time and
// solid entry point, keys and addresses made of one byte, basic outputs, tagged blocks, milestones signed by its
// coordinator (the testnet's, whose secret is public, or a test key of the file's own), and stores at its genesis
// milestone 0. What the tests then assert is theirs; this is only where they start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Address, BasicOutput, Ledger, MilestoneOption, MilestonePayload, Output } from '../../src/index.js';
import * as tangle from '../../src/index.js';
import { importedLedger } from './imported-ledger.js';

export const testnet = tangle.PROTOCOL_PARAMETERS.testnet;
/** The genesis time of the test networks. */
export const T0 = 1_700_000_000;
/** The solid entry point of a test network's genesis snapshot. */
export const SEP = new Uint8Array(32).fill(0xe1);
/** All zeros: milestone 1's previous milestone ID, and the demo's entry point. */
export const ZERO = new Uint8Array(32);

/** A test key: 32 bytes of `k`. */
export const testSecret = (k: number) => new Uint8Array(32).fill(k);
/** The Ed25519 address of test key `k`. */
export const testAddress = (k: number): Address => tangle.ed25519AddressOf(tangle.ed25519PublicKey(testSecret(k)));
/** A basic output of `amount` owned by `owner`: its Address unlock condition, then `more`. */
export const basicOutput = (
  owner: Address,
  amount: bigint,
  more: BasicOutput['unlockConditions'] = [],
): BasicOutput => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address: owner }, ...more],
  features: [],
});

/** A temporary directory for the file, removed after it. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A tagged-data block on `parents`, its tag and data the byte `i`. */
export const tagged = (parents: Uint8Array[], i: number) =>
  tangle.encodeBlock(
    tangle.buildBlock({
      parents,
      payload: { type: 5, tag: Uint8Array.of(i), data: Uint8Array.of(i) },
      params: testnet,
    }),
  );
/** The block carrying milestone `m`, on its parents. */
export const carrying = (m: MilestonePayload) =>
  tangle.encodeBlock(tangle.buildBlock({ parents: m.parents, payload: m, params: testnet }));

export interface MilestoneSpec {
  index: number;
  previous: Uint8Array;
  parents: Uint8Array[];
  /** The cone's blocks in white-flag order (the inclusion root), and those whose transactions apply. */
  order: Uint8Array[];
  applied?: Uint8Array[];
  timestamp: number;
  options?: MilestoneOption[];
}
/** A milestone with the Merkle roots of `order` and `applied`, signed by `keys` (the testnet's coordinator). */
export const signedMilestone = (s: MilestoneSpec, keys = [tangle.TESTNET_COORDINATOR_SECRET]) =>
  tangle.buildMilestone(
    {
      index: s.index,
      timestamp: s.timestamp,
      previousMilestoneId: s.previous,
      parents: s.parents,
      inclusionMerkleRoot: tangle.merkleRoot(s.order.map((b) => tangle.blockId(b))),
      appliedMerkleRoot: tangle.merkleRoot((s.applied ?? []).map((b) => tangle.blockId(b))),
      ...(s.options === undefined ? {} : { options: s.options }),
      params: testnet,
    },
    keys,
  );

/**
 * A new store at `path` of a test network at its genesis milestone 0 (`outputs` at T0 on `entryPoints`), its
 * milestones signed by the testnet's coordinator or, given `coordinator`, by that key alone.
 */
export async function genesisLedger(
  path: string,
  outputs: { outputId: Uint8Array; output: Output }[],
  { entryPoints = [SEP], coordinator }: { entryPoints?: Uint8Array[]; coordinator?: Uint8Array } = {},
): Promise<Ledger> {
  const full = await tangle.genesisSnapshot(testnet, { outputs, timestamp: T0, solidEntryPoints: entryPoints });
  if (coordinator === undefined) return importedLedger(path, full);
  await tangle.importSnapshot({ path, full });
  const keyRanges = [{ publicKey: tangle.ed25519PublicKey(coordinator), startIndex: 0, endIndex: 0 }];
  return tangle.openLedger({
    path,
    params: tangle.protocolParameters(tangle.importedParams(tangle.inspectStore(path)!.imported!), {
      milestoneKeys: { threshold: 1, keyRanges },
    }),
  });
}
