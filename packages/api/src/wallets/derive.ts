/**
 * One wallet address from the account node m/44'/60'/0'/0: the request thread (wallets.ts) and
 * the address worker (addressWorker.ts) derive the same way. It imports only what Node can load
 * with its own TypeScript stripping: the worker may run without the parent's loader.
 */
import { secp256k1 } from "@noble/curves/secp256k1";
import { type Address, toHex } from "viem";
import { type HDKey, publicKeyToAddress } from "viem/accounts";

export function addressOf(account: HDKey, index: number): Address {
  const child = account.deriveChild(index);
  if (!child.publicKey) throw new Error("derivation produced no key");
  // Derivation computed the public key already (compressed): expanding it is a square root,
  // where starting again from the private key would multiply on the curve a second time.
  const publicKey = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
  return publicKeyToAddress(toHex(publicKey));
}
