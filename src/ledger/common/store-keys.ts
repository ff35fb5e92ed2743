// The keys of the ledger's store: a one-byte table prefix, then the record's id (slots big-endian, so that they sort).
// The records stored under them are declared in stardust/ledger-records.ts.

const TABLE = {
  block: 0x42,
  blockIndex: 0x49,
  transaction: 0x54,
  output: 0x4f,
  diff: 0x44,
  commitment: 0x43,
  account: 0x41,
  chain: 0x63,
  meta: 0x4d,
  recent: 0x52,
  outputIndex: 0x58,
  milestoneTime: 0x5a,
  spentBy: 0x53,
  importedMilestone: 0x4c,
  solidEntryPoints: 0x45,
  milestone: 0x50,
  milestoneSlot: 0x69,
  whiteFlag: 0x57,
  analytics: 0x6d,
  address: 0x61,
  milestoneUpdate: 0x76,
  richest: 0x72,
  analyticsColumn: 0x6e,
  accountsOfMilestone: 0x68,
  holding: 0x6b,
  holdingsOfMilestone: 0x6a,
  richestCheckpoint: 0x71,
} as const;

const prefixed = (table: number, body: Uint8Array) => {
  const k = new Uint8Array(1 + body.length);
  k[0] = table;
  k.set(body, 1);
  return k;
};
/** A key of a table keyed by slot first: the table byte, the slot big-endian (so that keys sort by slot), an id. */
function writeSlotKey(target: Uint8Array, at: number, table: number, slot: number, id: Uint8Array): number {
  target[at] = table;
  target[at + 1] = slot >>> 24;
  target[at + 2] = (slot >>> 16) & 0xff;
  target[at + 3] = (slot >>> 8) & 0xff;
  target[at + 4] = slot & 0xff;
  target.set(id, at + 5);
  return 5 + id.length;
}
/** The slot of a key of a table keyed by slot first (the big-endian u32 after the table byte). */
export const slotOfKey = (key: Uint8Array): number => new DataView(key.buffer, key.byteOffset + 1, 4).getUint32(0);

/** The kinds of an address's records, in key order. */
const ADDRESS_KIND = { held: 1, update: 2, balance: 3, account: 4 } as const;
const be32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
function concat(...parts: (ArrayLike<number> | undefined)[]): Uint8Array {
  const k = new Uint8Array(parts.reduce((n, p) => n + (p?.length ?? 0), 0));
  let at = 0;
  for (const p of parts) {
    if (p === undefined) continue;
    k.set(p, at);
    at += p.length;
  }
  return k;
}

const slotKey = (table: number, slot: number, id: Uint8Array = new Uint8Array(0)) => {
  const k = new Uint8Array(5 + id.length);
  writeSlotKey(k, 0, table, slot, id);
  return k;
};

export const keys = {
  /**
   * Blocks are keyed by slot first: they are written in slot order, so LMDB appends them to full pages instead of
   * splitting pages at random hash positions (which left them half empty). Transaction records hold the slot.
   */
  block: (slot: number, blockId: Uint8Array) => slotKey(TABLE.block, slot, blockId),
  /** Prefix of every block of a slot. */
  blocksOfSlot: (slot: number) => slotKey(TABLE.block, slot),
  /**
   * blockId → slot (u32): written at commit for a block without a transaction, and when the transaction index merges
   * for one with (until then the index keeps it in memory: transaction-index.ts).
   */
  blockIndex: (blockId: Uint8Array) => prefixed(TABLE.blockIndex, blockId),
  transaction: (txId: Uint8Array) => prefixed(TABLE.transaction, txId),
  /**
   * The transaction key of an output's creator (the output ID's first 32 bytes), copied byte by byte: a subarray of
   * an ID would move it out of V8's heap (a malloc'd backing store per lookup).
   */
  transactionOfOutput: (outputId: Uint8Array) => {
    const k = new Uint8Array(33);
    k[0] = TABLE.transaction;
    for (let i = 0; i < 32; i++) k[i + 1] = outputId[i]!;
    return k;
  },
  /**
   * Outputs are keyed by their creating slot first, for the same reason as blocks: written in slot order, they fill
   * LMDB pages densely. The slot is found through the transaction record (genesis outputs: the genesis slot).
   */
  output: (createdSlot: number, outputId: Uint8Array) => slotKey(TABLE.output, createdSlot, outputId),
  diff: (slot: number) => slotKey(TABLE.diff, slot),
  commitment: (slot: number) => slotKey(TABLE.commitment, slot),
  account: (accountId: Uint8Array) => prefixed(TABLE.account, accountId),
  /** Chain id (an alias's or NFT's 32 bytes, a foundry's 38) → the 34-byte id of the chain's current output. */
  chain: (chainId: Uint8Array) => prefixed(TABLE.chain, chainId),
  meta: Uint8Array.of(TABLE.meta, 0), // LMDB keys cannot be empty
  /**
   * The first slot whose transactions are not merged into the index yet (u32); absent in a store written before
   * there were recent records: all of its transactions are in the index.
   */
  recentFrom: Uint8Array.of(TABLE.meta, 1),
  /** Present once the output index (the indexer's, output-index.ts) holds every unspent output and is kept. */
  outputIndexBuilt: Uint8Array.of(TABLE.meta, 2),
  /** A ledger imported from a TIP-35 snapshot: its network and target milestone (snapshot-import.ts). */
  importedNetwork: Uint8Array.of(TABLE.meta, 3),
  /** The treasury output of an imported ledger (TIP-34). */
  treasury: Uint8Array.of(TABLE.meta, 4),
  /** Present once every output record carries its checksum (output-checksums.ts): from genesis, or an upgrade. */
  outputChecksums: Uint8Array.of(TABLE.meta, 5),
  /**
   * When the store's writer last knew it current with its network (u32 unix seconds, Ledger.markCurrent): heard its
   * source stand where the store stands (a follower), or committed a slot (the demo, a slot clock).
   */
  currentAt: Uint8Array.of(TABLE.meta, 6),
  /** The store's layout (u32, core/upgrade.ts); absent in a store written before there was one (layout 1). */
  layout: Uint8Array.of(TABLE.meta, 7),
  /** Where an upgrade step that stopped got to (core/upgrade.ts), while it has not finished. */
  upgradeAt: Uint8Array.of(TABLE.meta, 8),
  /** While the output index is built in the background (indexer/index-build.ts): how far the build has come. */
  outputIndexBuilding: Uint8Array.of(TABLE.meta, 9),
  /**
   * The first slot of an imported ledger committed without a milestone (u32): a testnet writer's slot clock over a
   * demo's store. From it on a slot is not presumed an applied milestone's (core/applied-records.ts).
   */
  plainSlotsFrom: Uint8Array.of(TABLE.meta, 10),
  /**
   * While the archive's base is built before a ledger's first measured milestone (archive/archive-base.ts): the
   * milestone it stands at and how far the build has come. That milestone's commit deletes it.
   */
  archiveBase: Uint8Array.of(TABLE.meta, 11),
  /** The solid entry points an imported snapshot gave for its target milestone. */
  solidEntryPoints: (slot: number) => slotKey(TABLE.solidEntryPoints, slot),
  /** The timestamp (u32) of a milestone an imported ledger's outputs were booked at, where it is not the slot's end. */
  milestoneTime: (slot: number) => slotKey(TABLE.milestoneTime, slot),
  /** A milestone imported from a delta snapshot: its payload and treasury input (ImportedMilestone). */
  importedMilestone: (slot: number) => slotKey(TABLE.importedMilestone, slot),
  /** A milestone history/ applied: its payload's bytes (TIP-29), as the network issued it. */
  milestone: (slot: number) => slotKey(TABLE.milestone, slot),
  /** A milestone ID → the slot (u32) of the milestone history/ applied with it. */
  milestoneSlot: (milestoneId: Uint8Array) => prefixed(TABLE.milestoneSlot, milestoneId),
  /** The cone of a milestone history/ applied, in white-flag order, with each block's verdict (WhiteFlagEntry). */
  whiteFlag: (slot: number) => slotKey(TABLE.whiteFlag, slot),
  /** The analytics of a milestone history/ applied (measurementsRecord), written in its commit. */
  analytics: (slot: number) => slotKey(TABLE.analytics, slot),
  /**
   * One measurement's values over a whole chunk of milestones (ledger/analytics/columns.ts), by the measurement's
   * place (u16) then the chunk (u32), both big-endian; without a chunk, the prefix of the measurement's columns.
   */
  analyticsColumn: (place: number, chunk?: number) =>
    chunk === undefined
      ? Uint8Array.of(TABLE.analyticsColumn, place >>> 8, place & 0xff)
      : Uint8Array.of(TABLE.analyticsColumn, place >>> 8, place & 0xff, ...be32(chunk)),
  // An address's records (ledger/archive/) share one table, under its serialized bytes (type and 32 bytes), then a
  // kind: a commit that changes an address rewrites its balance and adds its updates on the same page, mostly.
  /**
   * An unspent output whose part of an address's balance depends on the time (HeldOutput): held by its owner
   * (`role` 0) under an expiration or a timelock, or by an expiration's return address (1).
   */
  heldOutput: (address: Uint8Array, outputId: Uint8Array, role: number) =>
    prefixed(TABLE.address, concat(address, [ADDRESS_KIND.held], outputId, [role])),
  heldOutputsOf: (address: Uint8Array) => prefixed(TABLE.address, concat(address, [ADDRESS_KIND.held])),
  /** An address's ledger update (inx-chronicle's): an output created or spent at a milestone; the value its time. */
  addressUpdate: (address: Uint8Array, milestone: number, outputId?: Uint8Array, spent?: boolean) =>
    prefixed(
      TABLE.address,
      concat(address, [ADDRESS_KIND.update], be32(milestone), outputId, spent === undefined ? undefined : [+spent]),
    ),
  addressUpdatesOf: (address: Uint8Array) => prefixed(TABLE.address, concat(address, [ADDRESS_KIND.update])),
  /** An address's holdings (AddressBalance): after its updates, beside the newest of them. */
  addressBalance: (address: Uint8Array) => prefixed(TABLE.address, concat(address, [ADDRESS_KIND.balance])),
  /**
   * An address's whole account (AccountState, archive/account-state.ts) after milestone `milestone` changed it; the
   * state at any milestone is the last key at or below it (issue 61). Without a milestone, the prefix of them all.
   */
  accountState: (address: Uint8Array, milestone?: number) =>
    prefixed(TABLE.address, concat(address, [ADDRESS_KIND.account], milestone === undefined ? [] : be32(milestone))),
  /** The addresses whose account a milestone's commit wrote (33 bytes each, in order): what a mirror copies. */
  accountsOfMilestone: (milestone: number) => slotKey(TABLE.accountsOfMilestone, milestone),
  /** A milestone's ledger update (MilestoneUpdate: the address, the owner, the amount), in output ID order. */
  milestoneUpdate: (milestone: number, outputId?: Uint8Array, spent?: boolean) =>
    slotKey(TABLE.milestoneUpdate, milestone, concat(outputId, spent === undefined ? undefined : [+spent])),
  /** An address holding tokens, by its balance richest first (the amount's bits inverted, big-endian); no value. */
  richest: (amount: bigint, address: Uint8Array) => {
    const k = new Uint8Array(9 + address.length);
    k[0] = TABLE.richest;
    new DataView(k.buffer).setBigUint64(1, ~amount & 0xffff_ffff_ffff_ffffn);
    k.set(address, 9);
    return k;
  },
  /**
   * Who holds what (archive/holdings.ts, issue 61): a kind, its subject (a token, an issuer, a controller, an alias),
   * a member (a holder, an NFT, an alias, a foundry), and the milestone that changed it; the value (sealed) is the
   * member's holding from there on. Its state at milestone N: each member's last key at or below N.
   */
  holding: (kind: number, subject: Uint8Array, member?: Uint8Array, milestone?: number) =>
    prefixed(
      TABLE.holding,
      concat([kind, subject.length], subject, member, milestone === undefined ? undefined : be32(milestone)),
    ),
  /** The holding keys a milestone's commit wrote (each after its length byte): what a mirror copies. */
  holdingsOfMilestone: (milestone: number) => slotKey(TABLE.holdingsOfMilestone, milestone),
  /** The richest addresses a milestone left (every RICHEST_EVERY milestones: archive/richest-checkpoint.ts). */
  richestCheckpoint: (milestone: number) => slotKey(TABLE.richestCheckpoint, milestone),
  /** The transaction that spent an output in an imported milestone (its slot has no blocks to find it in). */
  spentBy: (outputId: Uint8Array) => prefixed(TABLE.spentBy, outputId),
  /** An entry of the output index (its key: output-index.ts; no value). */
  outputIndex: (entry: Uint8Array) => prefixed(TABLE.outputIndex, entry),
  /** The transactions a committed slot applied, until they are merged into the index. */
  recent: (slot: number) => slotKey(TABLE.recent, slot),
  tables: TABLE,
};

/**
 * Some of the keys above, written into a buffer at an offset (a commit packs thousands into its batch): their length.
 */
export const keysInto = {
  block: (target: Uint8Array, at: number, slot: number, blockId: Uint8Array) =>
    writeSlotKey(target, at, TABLE.block, slot, blockId),
  output: (target: Uint8Array, at: number, createdSlot: number, outputId: Uint8Array) =>
    writeSlotKey(target, at, TABLE.output, createdSlot, outputId),
};
