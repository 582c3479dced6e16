/**
 * Shared set-up for the TypeScript tests: one in-process Hardhat network per test file
 * (`network.create()`), a deployed Collectibles with named accounts, and small helpers.
 * Test files take a snapshot through `loadFixture`, so each test starts from a fresh deployment
 * without paying for it again.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { it } from "node:test";
import type { network } from "hardhat";
import {
  type Address,
  type ContractErrorArgs,
  type ContractErrorName,
  getAddress,
  type Hex,
  keccak256,
  toHex,
} from "viem";
import { DEFAULT_HOOK_GAS_BUDGET } from "../src/claimBatch.ts";
import { ON_ERC1155_BATCH_RECEIVED, ON_ERC1155_RECEIVED } from "../src/testing.ts";
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
export async function deployCollectibles(viem: Viem, hookGasBudget = DEFAULT_HOOK_GAS_BUDGET) {
  const [admin, minter, alice, bob, operator, outsider] = await viem.getWalletClients();
  assert.ok(admin && minter && alice && bob && operator && outsider, "six accounts");
  const collectibles = await viem.deployContract("Collectibles", [
    ADMIN_DELAY,
    admin.account.address,
    minter.account.address,
    hookGasBudget,
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

/**
 * `deployCollectibles` plus one collectible of `totalSupply` editions created by the minter, and
 * two shortcuts: `claim(claimId, to)`, the minter claims it for `to` (alice unless given), and
 * `create(id, supply, meta, by)`, the minter (unless `by` is given) creates another one.
 */
export async function deployWithCollectible(
  viem: Viem,
  totalSupply: bigint,
  hookGasBudget = DEFAULT_HOOK_GAS_BUDGET,
) {
  const deployment = await deployCollectibles(viem, hookGasBudget);
  const { collectibles, accounts } = deployment;
  const [collectibleId, organizationId, creatorId] = [newId(), newId(), newId()];
  await collectibles.write.createCollectible(
    [collectibleId, organizationId, creatorId, totalSupply, metadata],
    { account: accounts.minter },
  );
  const claim = (claimId: Hex, to: Address = accounts.alice) =>
    collectibles.write.claim([collectibleId, claimId, to], { account: accounts.minter });
  const create = (id: Hex, supply: bigint, meta = metadata, by: Address = accounts.minter) =>
    collectibles.write.createCollectible([id, newId(), ZERO_ID, supply, meta], { account: by });
  return { ...deployment, collectibleId, organizationId, creatorId, claim, create };
}

type Collectibles = Awaited<ReturnType<typeof deployCollectibles>>["collectibles"];
type CollectiblesError = ContractErrorName<Collectibles["abi"]>;

/**
 * A call Collectibles must refuse, the custom error it must revert with, and that error's args:
 * one tuple type per error, so a row's args are checked against its own error's.
 */
type Refusal = {
  [E in CollectiblesError]: readonly [
    call: Promise<unknown>,
    error: E,
    args: ContractErrorArgs<Collectibles["abi"], E>,
  ];
}[CollectiblesError];

/**
 * Declares one test per row, named by the behaviour it checks: on a fresh `fixture`, the row's
 * call (made after the row's own set-up, if any) must revert with its custom error and arguments.
 * For refusals that differ only in values.
 */
export function itRevertsEach<F extends { collectibles: Collectibles }>(
  { viem, networkHelpers }: Connection,
  fixture: () => Promise<F>,
  rows: readonly (readonly [
    behaviour: string,
    refuse: (deployment: F) => Refusal | Promise<Refusal>,
  ])[],
) {
  for (const [behaviour, refuse] of rows) {
    it(behaviour, async () => {
      const deployment = await networkHelpers.loadFixture(fixture);
      const [call, error, args] = await refuse(deployment);
      await viem.assertions.revertWithCustomErrorWithArgs(call, deployment.collectibles, error, [
        ...args,
      ]);
    });
  }
}

/**
 * Deploys an ERC1155ReceiverMock that reverts as `revertType` says, or else answers `single` and
 * `batch` (by default the answers that accept).
 */
export function deployReceiverMock(
  viem: Viem,
  revertType: number,
  {
    single = ON_ERC1155_RECEIVED,
    batch = ON_ERC1155_BATCH_RECEIVED,
  }: { single?: Hex; batch?: Hex } = {},
) {
  return viem.deployContract("ERC1155ReceiverMock", [single, batch, revertType]);
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
