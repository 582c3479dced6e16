/**
 * The collectible and claim flow through the real chain, contract, indexer and database: the
 * README walkthrough checked on-chain with the standard ERC-1155 interface, the supply race,
 * idempotent retries, and the failure answers.
 */

import { type Address, erc1155Abi, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Claim } from "../routes/claims.ts";
import { Collectible } from "../routes/collectibles.ts";
import { dataEnvelope, listEnvelope } from "../routes/shared.ts";
import { type ChainStack, startChainStack } from "../test/chainStack.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";

let stack: ChainStack;
let t: TestApp;
let org: { id: string };

beforeAll(async () => {
  stack = await startChainStack();
  t = await startTestApp({ env: { ...stack.env, CONFIRM_TIMEOUT_MS: "20000" } });
  org = (await t.call("POST", "/organizations", { json: { name: "Chain Co" } })).body.data;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await stack?.stop();
});

async function createCollectible(body: Record<string, unknown> = {}) {
  const res = await t.call("POST", "/collectibles", {
    json: { organization_id: org.id, name: "Edition", total_count: 3, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return dataEnvelope(Collectible).parse(res.body).data;
}

async function createUser(email: string) {
  const res = await t.call("POST", "/users", { json: { organization_id: org.id, email } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; wallet_address: Address };
}

describe("the walkthrough", () => {
  it("creates a collectible of 3, claims it to sold-out and lists the claims, as on-chain", async () => {
    const ada = await createUser("ada@chain.example");
    const collectible = await createCollectible({
      name: "Moon Rocket",
      description: "The first one",
      mime_type: "image/png",
      artwork: "https://example.com/rocket.png",
      creator_id: ada.id,
      external_id: "rocket-1",
      claimed_count: 0,
      available_count: 3,
    });
    expect(collectible).toMatchObject({
      status: "confirmed",
      is_active: true,
      total_count: 3,
      claimed_count: 0,
      available_count: 3,
      creator_id: ada.id,
      contract_address: getAddress(stack.contract),
    });
    expect(collectible.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

    const holders = [ada, await createUser("bob@chain.example")];
    const claims = [];
    for (const holder of holders) {
      const res = await t.call("POST", "/claims", {
        json: { collectible_id: collectible.id, holder_id: holder.id },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      claims.push(dataEnvelope(Claim).parse(res.body).data);
    }
    // The third by email: a new user of the organization is created.
    const byEmail = await t.call("POST", "/claims", {
      json: { collectible_id: collectible.id, email: "carol@chain.example" },
    });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(201);
    claims.push(dataEnvelope(Claim).parse(byEmail.body).data);
    const carol = await t.call("GET", `/users/${byEmail.body.data.holder_id}`);
    expect(carol.body.data).toMatchObject({ email: "carol@chain.example", claimed_count: 1 });

    const soldOut = await t.call("POST", "/claims", {
      json: { collectible_id: collectible.id, email: "dave@chain.example" },
    });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.error.code).toBe("sold_out");
    const again = await t.call("POST", "/claims", {
      json: { collectible_id: collectible.id, holder_id: ada.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_claimed");

    const list = await t.call("GET", `/claims?collectible_id=${collectible.id}`);
    expect(list.status).toBe(200);
    const { pagination, data } = listEnvelope(Claim).parse(list.body);
    expect(pagination).toEqual({ page: 1, size: 20, pages: 1, count: 3 });
    expect(data.map((c) => c.edition).sort()).toEqual([1, 2, 3]);

    for (const claim of data) {
      expect(claim).toMatchObject({ status: "confirmed", is_active: true });
      const tokenId = BigInt(claim.token_id);
      const balance = await stack.client.readContract({
        address: stack.contract,
        abi: erc1155Abi,
        functionName: "balanceOf",
        args: [claim.holder_wallet_address as Address, tokenId],
      });
      expect(balance).toBe(1n);
      const uri = await stack.client.readContract({
        address: stack.contract,
        abi: erc1155Abi,
        functionName: "uri",
        args: [tokenId],
      });
      const json = JSON.parse(
        Buffer.from(uri.replace("data:application/json;base64,", ""), "base64").toString("utf8"),
      );
      expect(json).toMatchObject({
        name: `Moon Rocket #${claim.edition}`,
        description: "The first one",
        image: "https://example.com/rocket.png",
        properties: { edition: claim.edition, total_supply: 3 },
      });
    }

    const after = await t.call("GET", `/collectibles/${collectible.id}`);
    expect(after.body.data).toMatchObject({ claimed_count: 3, available_count: 0 });
    const user = await t.call("GET", `/users/${ada.id}`);
    expect(user.body.data.claimed_count).toBe(1);
    expect(claims.map((c) => c.id).sort()).toEqual(data.map((c) => c.id).sort());
  });
});
