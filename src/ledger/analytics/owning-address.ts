import type { Address } from '../../stardust/address.js';
import type { Output } from '../../stardust/output.js';
import { AddressType, OutputType, UnlockConditionType } from '../../stardust/type-codes.js';
import { bytesKey } from '../../util/bytes.js';

// The address that controls an output, as inx-chronicle counts it (its Output::owning_address): a basic or NFT
// output's address, or once its expiration has passed at `time` the return address; an alias's state controller; a
// foundry's alias. Without a time (an output as created) expiration is not looked at.

export function owningAddress(o: Output, time?: number): Address | undefined {
  switch (o.type) {
    case OutputType.Basic:
    case OutputType.Nft: {
      let owner: Address | undefined;
      let expiration: { returnAddress: Address; unixTime: number } | undefined;
      for (const u of o.unlockConditions) {
        if (u.type === UnlockConditionType.Address) owner = u.address;
        else if (u.type === UnlockConditionType.Expiration) expiration = u;
      }
      return time !== undefined && expiration !== undefined && time >= expiration.unixTime
        ? expiration.returnAddress
        : owner;
    }
    case OutputType.Alias:
      return o.unlockConditions.find((u) => u.type === UnlockConditionType.StateControllerAddress)?.address;
    case OutputType.Foundry:
      return o.unlockConditions[0]!.address;
    default:
      return undefined; // a treasury output has no owner
  }
}

/** An address as a map key: its type and its 32-byte hash or chain ID (no encoding: asked for every output). */
export function addressKey(a: Address): string {
  const id = a.type === AddressType.Ed25519 ? a.pubKeyHash : a.type === AddressType.Alias ? a.aliasId : a.nftId;
  return `${a.type}${bytesKey(id)}`;
}
