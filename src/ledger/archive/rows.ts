// A milestone's archive as rows (archive-rows.ts), for a store that keeps it in tables.

/** A ledger update: an output booked or spent at milestone `index`, listed under `address`, counted for `owner`. */
export interface UpdateRow {
  address: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
  index: number;
  outputId: Uint8Array;
  spent: boolean;
  time: number;
}

/** A held output's record (HeldOutput) under an address (`role` 0: its owner; 1: its return address). */
export interface HeldRow {
  address: Uint8Array;
  outputId: Uint8Array;
  role: number;
  /** Undefined: the output is spent, its record goes. */
  record: Uint8Array | undefined;
}

/** What a milestone changed of an address's balance record (AddressBalance's fields, each a change, maybe negative). */
export interface BalanceChange {
  address: Uint8Array;
  amount: bigint;
  plain: bigint;
  outputs: number;
  returns: number;
}

export interface ArchiveRows {
  updates: UpdateRow[];
  held: HeldRow[];
  balances: BalanceChange[];
}
