/**
 * Service wallets: every organization and every user without their own address gets
 * m/44'/60'/0'/0/<index> of one HD mnemonic. Only the index (and the public address) is stored.
 *
 * The mnemonic lives only in this module's closure: it is not a property of any object, so it
 * cannot be serialised into a response, a log line or an error.
 */
import fs from "node:fs";
import path from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1";
import { mnemonicToSeedSync } from "@scure/bip39";
import { type Address, toHex } from "viem";
import { english, generateMnemonic, HDKey, publicKeyToAddress } from "viem/accounts";

export interface Wallets {
  /** The address at m/44'/60'/0'/0/<index>. */
  addressAt(index: number): Address;
  /** Index 0's address: public, identifies the mnemonic without revealing it. */
  readonly fingerprint: Address;
}

export function createWallets(mnemonic: string): Wallets {
  // Seed stretching (PBKDF2, 2048 rounds) happens once; each address is then a cheap derivation.
  const accountNode = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive("m/44'/60'/0'/0");
  const cache = new Map<number, Address>();
  const addressAt = (index: number): Address => {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) {
      throw new RangeError(`wallet index out of range: ${index}`);
    }
    let address = cache.get(index);
    if (!address) {
      const child = accountNode.deriveChild(index);
      if (!child.publicKey) throw new Error("derivation produced no key");
      // Derivation computed the public key already (compressed): expanding it is a square root,
      // where starting again from the private key would multiply on the curve a second time.
      const publicKey = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
      address = publicKeyToAddress(toHex(publicKey));
      if (cache.size > 10_000) cache.clear();
      cache.set(index, address);
    }
    return address;
  };
  return { addressAt, fingerprint: addressAt(0) };
}

/**
 * The local default: a mnemonic generated on first use and kept in `<dataDir>/mnemonic` with
 * mode 0600. Set WALLET_MNEMONIC in production instead.
 */
export function loadOrCreateMnemonic(file: string): { mnemonic: string; created: boolean } {
  try {
    const mnemonic = fs.readFileSync(file, "utf8").trim();
    fs.chmodSync(file, 0o600);
    return { mnemonic, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const mnemonic = generateMnemonic(english);
  fs.writeFileSync(file, `${mnemonic}\n`, { mode: 0o600, flag: "wx" });
  return { mnemonic, created: true };
}
