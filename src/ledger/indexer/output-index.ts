import { decode, encode } from '../../codec/index.js';
import { type Address, address as addressCodec } from '../../stardust/address.js';
import { outputChainId } from '../../stardust/ids.js';
import { type Output, output as outputCodec } from '../../stardust/output.js';
import { FeatureType, OutputType, UnlockConditionType } from '../../stardust/type-codes.js';

// The output index behind the indexer routes (TIP-26, as inx-indexer answers them): for every unspent output, one
// entry per field a query can select it by, keyed so that one field's value lists its outputs in the order the API
// pages them (creating slot, then output ID). The ledger writes the entries of the outputs a slot creates and deletes
// those of the outputs it spends, in the slot's own commit; the PostgreSQL store keeps the same keys in a table.
//
// Entry key: kind (the output type) ‖ field ‖ value ‖ creating slot (u32, big-endian) ‖ output ID (34 bytes). Values
// are serialized addresses (33 bytes), a chain ID (32, a foundry's 38), or a tag (u8 length ‖ bytes); ALL has none.

/** What an entry selects outputs by. */
export const IndexField = {
  /** Every output of the kind. */
  All: 0,
  /** The address unlock condition. */
  Address: 1,
  StorageDepositReturnAddress: 2,
  ExpirationReturnAddress: 3,
  Sender: 4,
  Tag: 5,
  /** The issuer feature among the immutable features. */
  Issuer: 6,
  StateController: 7,
  Governor: 8,
  /** A foundry's immutable alias address. */
  AliasAddress: 9,
  /** The chain (alias, NFT, foundry ID): what the by-ID routes find. */
  Chain: 10,
} as const;
export type IndexFieldCode = (typeof IndexField)[keyof typeof IndexField];

/** The indexed kinds: the output types of TIP-26's routes. */
export type IndexedKind =
  | typeof OutputType.Basic
  | typeof OutputType.Alias
  | typeof OutputType.Foundry
  | typeof OutputType.Nft;

const SLOT_AND_ID = 4 + 34;

export const addressValue = (a: Address): Uint8Array => encode(addressCodec, a);
export const tagValue = (tag: Uint8Array): Uint8Array => {
  const v = new Uint8Array(1 + tag.length);
  v[0] = tag.length;
  v.set(tag, 1);
  return v;
};

/** The prefix of one field value's entries: kind ‖ field ‖ value. */
export function indexPrefix(kind: number, field: IndexFieldCode, value: Uint8Array = new Uint8Array(0)): Uint8Array {
  const p = new Uint8Array(2 + value.length);
  p[0] = kind;
  p[1] = field;
  p.set(value, 2);
  return p;
}

/** An entry's key: its prefix, then the creating slot and the output ID (where the API's order comes from). */
export function indexKey(prefix: Uint8Array, slot: number, outputId: Uint8Array): Uint8Array {
  const n = prefix.length;
  const k = new Uint8Array(n + SLOT_AND_ID);
  k.set(prefix);
  // Byte by byte: a DataView needs the array's buffer, which moves a small array out of V8's heap.
  k[n] = slot >>> 24;
  k[n + 1] = (slot >>> 16) & 0xff;
  k[n + 2] = (slot >>> 8) & 0xff;
  k[n + 3] = slot & 0xff;
  k.set(outputId, n + 4);
  return k;
}

/** The creating slot and output ID at the end of an entry's key. */
export function entryPosition(key: Uint8Array): { slot: number; outputId: Uint8Array } {
  const at = key.length - SLOT_AND_ID;
  return {
    slot: new DataView(key.buffer, key.byteOffset + at, 4).getUint32(0, false),
    outputId: key.subarray(at + 4),
  };
}

/** The prefixes under which an output is indexed. */
export function indexPrefixes(o: Output, outputId: Uint8Array): Uint8Array[] {
  const kind = o.type;
  const out = [indexPrefix(kind, IndexField.All)];
  const add = (field: IndexFieldCode, value: Uint8Array) => out.push(indexPrefix(kind, field, value));
  for (const uc of o.unlockConditions) {
    if (uc.type === UnlockConditionType.Address) add(IndexField.Address, addressValue(uc.address));
    else if (uc.type === UnlockConditionType.StorageDepositReturn)
      add(IndexField.StorageDepositReturnAddress, addressValue(uc.returnAddress));
    else if (uc.type === UnlockConditionType.Expiration)
      add(IndexField.ExpirationReturnAddress, addressValue(uc.returnAddress));
    else if (uc.type === UnlockConditionType.StateControllerAddress)
      add(IndexField.StateController, addressValue(uc.address));
    else if (uc.type === UnlockConditionType.GovernorAddress) add(IndexField.Governor, addressValue(uc.address));
    else if (uc.type === UnlockConditionType.ImmutableAliasAddress)
      add(IndexField.AliasAddress, addressValue(uc.address));
  }
  for (const f of o.features) {
    if (f.type === FeatureType.Sender) add(IndexField.Sender, addressValue(f.address));
    else if (f.type === FeatureType.Tag) add(IndexField.Tag, tagValue(f.tag));
  }
  if (o.type === OutputType.Alias || o.type === OutputType.Nft) {
    for (const f of o.immutableFeatures)
      if (f.type === FeatureType.Issuer) add(IndexField.Issuer, addressValue(f.address));
  }
  if (o.type !== OutputType.Basic) add(IndexField.Chain, outputChainId(o, outputId)!);
  return out;
}

/** The index entries of an output (by its bytes) created in `slot`: their keys. */
export function indexEntries(outputBytes: Uint8Array, slot: number, outputId: Uint8Array): Uint8Array[] {
  return indexPrefixes(decode(outputCodec, outputBytes), outputId).map((p) => indexKey(p, slot, outputId));
}
