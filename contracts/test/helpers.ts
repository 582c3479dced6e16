/**
 * Shared set-up for the TypeScript tests: one in-process Hardhat network per test file
 * (`network.create()`), a deployed Collectibles with named accounts, and small helpers.
 * Test files take a snapshot through `loadFixture`, so each test starts from a fresh deployment
 * without paying for it again.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { network } from "hardhat";
import { type Address, getAddress, type Hex, keccak256, toHex } from "viem";
import { DEFAULT_HOOK_GAS_BUDGET } from "../src/claimBatch.ts";
import { uuidToBytes16 } from "../src/tokenId.ts";

export type Connection = Awaited<ReturnType<typeof network.create>>;
export type Viem = Connection["viem"];

export const MINTER_ROLE = keccak256(toHex("MINTER_ROLE"));
export const DEFAULT_ADMIN_ROLE: Hex = `0x${"00".repeat(32)}`;
export const ADMIN_DELAY = 3 * 24 * 60 * 60;
export const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";
export const ZERO_ID: Hex = `0x${"00".repeat(16)}`;

// The receiver mocks' answers, under the short names these tests use.
export {
  ON_ERC1155_BATCH_RECEIVED as ON_BATCH_RECEIVED,
  ON_ERC1155_RECEIVED as ON_RECEIVED,
  ReceiverRevertType as RevertType,
} from "../src/testing.ts";

export interface Metadata {
  name: string;
  description: string;
  image: string;
  mimeType: string;
}

export const metadata: Metadata = {
  name: "Genesis Pass",
  description: "First edition of the pass.",
  image: "https://cdn.example.com/genesis.png",
  mimeType: "image/png",
};

/** A fresh off-chain id (a random UUID) as the `bytes16` the contract carries. */
export function newId(): Hex {
  return uuidToBytes16(randomUUID());
}

/** Deploys Collectibles with an admin and a minter and names the other accounts. */
export async function deployCollectibles(viem: Viem) {
  const [admin, minter, alice, bob, operator, outsider] = await viem.getWalletClients();
  assert.ok(admin && minter && alice && bob && operator && outsider, "six accounts");
  const collectibles = await viem.deployContract("Collectibles", [
    ADMIN_DELAY,
    admin.account.address,
    minter.account.address,
    DEFAULT_HOOK_GAS_BUDGET,
  ]);
  const publicClient = await viem.getPublicClient();
  const accounts = {
    admin: getAddress(admin.account.address),
    minter: getAddress(minter.account.address),
    alice: getAddress(alice.account.address),
    bob: getAddress(bob.account.address),
    operator: getAddress(operator.account.address),
    outsider: getAddress(outsider.account.address),
  };
  return { collectibles, publicClient, accounts };
}

/** Decodes a `data:application/json;base64,` token URI into its JSON object. */
export function decodeTokenUri(uri: string): Record<string, unknown> {
  const prefix = "data:application/json;base64,";
  assert.ok(uri.startsWith(prefix), `uri starts with ${prefix}: ${uri.slice(0, 40)}`);
  return JSON.parse(Buffer.from(uri.slice(prefix.length), "base64").toString("utf8"));
}

/** The token id the contract gives a claim: collectible id above, claim id below. */
export function tokenIdOf(collectibleId: Hex, claimId: Hex): bigint {
  return (BigInt(collectibleId) << 128n) | BigInt(claimId);
}
