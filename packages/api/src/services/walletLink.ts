/**
 * Linking a wallet the user owns, proved with Sign-In with Ethereum (EIP-4361):
 *
 * - POST …/wallet-link-nonces issues a nonce for the user and an address, single use, valid
 *   WALLET_LINK_NONCE_TTL_SECONDS (10 minutes by default), and answers the exact message to
 *   sign: this API's domain (the host of its public URL), its URI, the configured chain id, the
 *   nonce, issued-at and expiration time.
 * - POST …/wallet-link checks the signed message against what was issued, each refusal with its
 *   own code (see `walletRefusal`), verifies the signature (ECDSA; a smart-contract wallet by
 *   ERC-1271/6492 through the chain when it is configured), and in one transaction marks the
 *   nonce used, records the address as the user's linked wallet and a `user.wallet_linked`
 *   event. An address another active user of the organization has, as their wallet_address or
 *   linked wallet, is refused (409 `duplicate_wallet_address`, by the key of `user_addresses`,
 *   so also when both link at once).
 */

import { randomBytes } from "node:crypto";
import { type Address, getAddress, type Hex, isAddressEqual, recoverMessageAddress } from "viem";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { recordEvents } from "../db/events.ts";
import { findUser } from "../db/users.ts";
import {
  findWalletLinkNonce,
  insertWalletLinkNonce,
  setLinkedWallet,
  useWalletLinkNonce,
} from "../db/walletLinks.ts";
import type { RouteDeps } from "../deps.ts";
import type { Scope } from "../domain/auth.ts";
import {
  linkedAddressTaken,
  notFound,
  siweMessageInvalid,
  walletRefusal,
} from "../errorCatalogue.ts";
import { ConflictError, ServiceUnavailableError } from "../errors.ts";
import type { LinkWalletBody, WalletLinkNonce } from "../schemas/walletLink.ts";
import type { z } from "../schemas/zod.ts";
import * as users from "./users.ts";
import type { UserView } from "./views.ts";
import { inTransaction } from "./writes.ts";

const STATEMENT = "Link this wallet to your account: your collectibles can then be moved to it.";

/** Where the API is reached: the message's domain (host) and URI. */
function siweOrigin(deps: RouteDeps): { domain: string; uri: string } {
  const url = new URL(deps.baseUrl());
  return { domain: url.host, uri: url.origin };
}

/**
 * A new nonce: 96 hex characters (384 bits) from the operating system's randomness, so that no
 * nonce tells anything about another (EIP-4361 asks for at least 8 alphanumeric characters).
 * Not viem's `generateSiweNonce()`: it slides a window over one buffer filled by `Math.random()`,
 * so each of its nonces is the one before shifted by a character, for every user of the process.
 */
const newNonce = () => randomBytes(48).toString("hex");

export async function issueNonce(
  deps: RouteDeps,
  scope: Scope,
  userId: string,
  address: Address,
): Promise<z.input<typeof WalletLinkNonce>> {
  const user = await findUser(deps.db, userId, scope);
  if (!user) throw notFound("user", userId);
  const nonce = newNonce();
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + deps.config.WALLET_LINK_NONCE_TTL_SECONDS * 1000);
  const message = createSiweMessage({
    ...siweOrigin(deps),
    address,
    chainId: deps.config.CHAIN_ID,
    nonce,
    issuedAt,
    expirationTime: expiresAt,
    statement: STATEMENT,
    version: "1",
  });
  await insertWalletLinkNonce(deps.db, { nonce, userId: user.id, address, expiresAt });
  return { nonce, address, expires_at: expiresAt.toISOString(), message };
}

export async function link(
  deps: RouteDeps,
  scope: Scope,
  userId: string,
  body: z.output<typeof LinkWalletBody>,
): Promise<UserView> {
  const user = await findUser(deps.db, userId, scope);
  if (!user) throw notFound("user", userId);
  const parsed = parseSiweMessage(body.message);
  const { address, domain, chainId, nonce, uri, version } = parsed;
  const missing = [
    ["address", address],
    ["domain", domain],
    ["chain id", chainId],
    ["nonce", nonce],
    ["uri", uri],
    ["version", version],
  ].find(([, value]) => value === undefined);
  if (missing || !address || !domain || chainId === undefined || !nonce) {
    throw siweMessageInvalid(`no ${missing?.[0] ?? "field"} in it`);
  }
  const expected = siweOrigin(deps);
  if (domain !== expected.domain) {
    throw walletRefusal(
      "wrong_domain",
      "message",
      `signed for ${domain}, not for this service (${expected.domain})`,
    );
  }
  if (chainId !== deps.config.CHAIN_ID) {
    throw walletRefusal(
      "wrong_chain",
      "message",
      `signed for chain ${chainId}, not this service's chain ${deps.config.CHAIN_ID}`,
    );
  }
  const issued = await findWalletLinkNonce(deps.db, user.id, nonce);
  if (!issued) {
    throw walletRefusal("nonce_unknown", "message", "its nonce was not issued for this user");
  }
  if (issued.usedAt) {
    throw walletRefusal("nonce_used", "message", "its nonce was used already; ask for a new one");
  }
  const now = Date.now();
  const expired =
    (parsed.expirationTime && parsed.expirationTime.getTime() <= now) ||
    issued.expiresAt.getTime() <= now;
  if (expired) {
    throw walletRefusal("nonce_expired", "message", "its nonce expired; ask for a new one");
  }
  if (parsed.notBefore && parsed.notBefore.getTime() > now) {
    throw siweMessageInvalid("not valid before its not-before time");
  }
  if (!isAddressEqual(address, issued.address as Address)) {
    throw walletRefusal(
      "wrong_address",
      "message",
      `its address ${address} is not the one the nonce was issued for (${issued.address})`,
    );
  }
  if (!(await signedBy(deps, address, body.message, body.signature as Hex))) {
    throw walletRefusal(
      "wrong_signer",
      "signature",
      `not a signature of the message by ${address}`,
    );
  }
  await inTransaction(deps, async (tx) => {
    if (!(await useWalletLinkNonce(tx, user.id, nonce))) {
      // Another request with the proof used it first (or it expired meanwhile).
      throw walletRefusal("nonce_used", "message", "its nonce was used already; ask for a new one");
    }
    await setLinkedWallet(tx, user.id, getAddress(address));
    await recordEvents(tx, "user.wallet_linked", [user]);
  }).catch((error: unknown) => {
    // Another active user of the organization has the address (the key of `user_addresses`).
    const taken = error instanceof ConflictError && error.code === "duplicate_wallet_address";
    throw taken ? linkedAddressTaken() : error;
  });
  return users.get(deps, scope, user.id);
}

/**
 * Whether `signature` signs `message` for `address`: by ECDSA recovery (an externally owned
 * account), else through the chain, which answers for smart-contract wallets (ERC-1271, and
 * ERC-6492 for one not deployed yet).
 */
async function signedBy(deps: RouteDeps, address: Address, message: string, signature: Hex) {
  try {
    const signer = await recoverMessageAddress({ message, signature });
    if (isAddressEqual(signer, address)) return true;
  } catch {
    // Not a 65-byte ECDSA signature: a contract wallet's, perhaps.
  }
  const chain = deps.chain;
  if (!chain) return false;
  try {
    return await chain.client.reader.verifyMessage({ address, message, signature });
  } catch {
    throw new ServiceUnavailableError(
      "chain_unavailable",
      "The chain could not be asked whether the wallet's contract accepts this signature",
    );
  }
}
