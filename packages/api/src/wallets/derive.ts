/**
 * Wallet addresses under the account node m/44'/60'/0'/0, from its public key and chain code
 * (BIP-32 public derivation): the request thread (wallets.ts) and the address worker
 * (addressWorker.ts) derive the same way. It imports only what Node can load with its own
 * TypeScript stripping: the worker may run without the parent's loader. And it imports the curve
 * and the hash, not viem: a worker that loads viem starts in some 190 ms of CPU and 32 MiB of RSS,
 * one that loads these in 50 ms and 20 MiB.
 *
 * Derived here rather than by HDKey.deriveChild: that expands the parent's compressed key (a
 * square root) on every call, hashes the child's key for a fingerprint, and answers a compressed
 * key that must be expanded again for its address. This takes 0.23 ms an address against 0.44.
 */
import { createHmac } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1";
import { keccak_256 } from "@noble/hashes/sha3";
// Types only: erased when the worker loads this file.
import type { Address } from "viem";
import type { HDKey } from "viem/accounts";

const Point = secp256k1.ProjectivePoint;

/** The account node as derivation uses it. */
export interface AccountNode {
  /** Compressed, as BIP-32 hashes it. */
  publicKey: Uint8Array;
  /** The same key as a curve point, expanded once. */
  point: InstanceType<typeof Point>;
  chainCode: Uint8Array;
}

/** From a BIP-32 node (an HDKey), or the public key and chain code the worker is given. */
export function accountNodeOf(key: Pick<HDKey, "publicKey" | "chainCode">): AccountNode {
  if (!key.publicKey || !key.chainCode) throw new Error("the account node has no public key");
  return {
    publicKey: key.publicKey,
    point: Point.fromHex(key.publicKey),
    chainCode: key.chainCode,
  };
}

/** BIP-32: indexes from here on are hardened, which a public key cannot derive. */
export const FIRST_HARDENED_INDEX = 2 ** 31;

/** The address of the non-hardened child `index` of the account node. */
export function addressOf(account: AccountNode, index: number): Address {
  if (!Number.isInteger(index) || index < 0 || index >= FIRST_HARDENED_INDEX) {
    throw new RangeError(`wallet index out of range: ${index}`);
  }
  const data = new Uint8Array(37);
  data.set(account.publicKey);
  new DataView(data.buffer).setUint32(33, index);
  const digest = createHmac("sha512", account.chainCode).update(data).digest();
  const tweak = BigInt(`0x${digest.subarray(0, 32).toString("hex")}`);
  // BIP-32: such an index has no key (odds about 2^-127); HDKey refuses it too.
  if (tweak === 0n || tweak >= secp256k1.CURVE.n)
    throw new Error(`wallet index ${index} has no key`);
  // multiply, not multiplyUnsafe: in @noble/curves 1.9.1 the unsafe one answers wrong points
  // for the base point (every one of 200 random scalars tried).
  const child = account.point.add(Point.BASE.multiply(tweak));
  if (child.equals(Point.ZERO)) throw new Error(`wallet index ${index} has no key`);
  return addressOfPublicKey(child.toRawBytes(false));
}

/** The checksummed address (EIP-55) of an uncompressed public key (0x04, x, y). */
function addressOfPublicKey(publicKey: Uint8Array): Address {
  const hex = Buffer.from(keccak_256(publicKey.subarray(1)).subarray(12)).toString("hex");
  // A letter is upper case where the hash of the lower-case hex has a digit of 8 or more.
  const hash = Buffer.from(keccak_256(hex)).toString("hex");
  let address = "0x";
  for (let i = 0; i < hex.length; i++) {
    const digit = hex.charAt(i);
    address += Number.parseInt(hash.charAt(i), 16) >= 8 ? digit.toUpperCase() : digit;
  }
  return address as Address;
}
