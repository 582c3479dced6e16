import type { Hex } from "viem";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `bytes16` the contract carries for an off-chain UUID. */
export function uuidToBytes16(uuid: string): Hex {
  if (!UUID.test(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return `0x${uuid.replaceAll("-", "").toLowerCase()}`;
}

/** The UUID an on-chain `bytes16` stands for. */
export function bytes16ToUuid(value: Hex): string {
  const hex = value.slice(2).toLowerCase().padStart(32, "0");
  if (hex.length !== 32) throw new TypeError(`not a bytes16: ${value}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A claim's token id, as the contract computes it: collectible id above, claim id below. */
export function tokenIdOf(collectibleId: string, claimId: string): bigint {
  return (BigInt(uuidToBytes16(collectibleId)) << 128n) | BigInt(uuidToBytes16(claimId));
}

/**
 * `tokenIdOf` as the API shows it: `0x` and lowercase hex without leading zeros. Built from the
 * two ids' hex digits directly (no bigint, no check): lists show a hundred per page, and the ids
 * come from the database, already UUIDs.
 */
export function tokenIdHex(collectibleId: string, claimId: string): Hex {
  let digits = (uuidDigits(collectibleId) + uuidDigits(claimId)).toLowerCase();
  if (digits.startsWith("0")) digits = digits.replace(/^0+/, "") || "0";
  return `0x${digits}`;
}

/** A UUID's 32 hex digits, by position (8-4-4-4-12): cut, not searched for dashes. */
const uuidDigits = (uuid: string) =>
  uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24);

/** The collectible and claim UUIDs a token id carries. */
export function splitTokenId(tokenId: bigint): { collectibleId: string; claimId: string } {
  const mask = (1n << 128n) - 1n;
  const hex = (n: bigint): Hex => `0x${n.toString(16).padStart(32, "0")}`;
  return {
    collectibleId: bytes16ToUuid(hex((tokenId >> 128n) & mask)),
    claimId: bytes16ToUuid(hex(tokenId & mask)),
  };
}
