import { createIndexerReader } from "@collectibles/indexer/reader";
import { type Address, erc1155Abi, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { Claim } from "../../schemas/claims.ts";
import { dataEnvelope, listEnvelope } from "../../schemas/common.ts";
import { claimedOnChain } from "../../test/agreement.ts";
import { chainFlowPerFile, TIMEOUT } from "../../test/chainFlow.ts";

const { t, stack, org, createCollectible, createUser } = chainFlowPerFile();

describe("the walkthrough", { timeout: TIMEOUT }, () => {
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
    expect(pagination).toEqual({ page: 1, size: 20, pages: 1, count: 3, next_cursor: null });
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
    // A list of users counts each one's confirmed claims, none for a user without a claim.
    await createUser("erin@chain.example");
    const users = await t.call("GET", `/users?organization_id=${org.id}&limit=100`);
    const claimedCounts = Object.fromEntries(
      users.body.data.map((u: { email: string; claimed_count: number }) => [
        u.email,
        u.claimed_count,
      ]),
    );
    expect(claimedCounts).toMatchObject({
      "ada@chain.example": 1,
      "bob@chain.example": 1,
      "carol@chain.example": 1,
      "erin@chain.example": 0,
    });
    expect(claims.map((c) => c.id).sort()).toEqual(data.map((c) => c.id).sort());
  });
});

describe("the supply race", { timeout: TIMEOUT }, () => {
  it("150 concurrent claims of 100: exactly 100 confirmed and 50 sold_out, in the API, the indexer and on-chain", async () => {
    const collectible = await createCollectible({ name: "Race", total_count: 100 });
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        t.call("POST", "/claims", {
          json: { collectible_id: collectible.id, email: `racer-${i}@chain.example` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(100);
    expect(statuses.filter((s) => s === 409)).toHaveLength(50);
    expect(
      answers.filter((a) => a.status === 409).every((a) => a.body.error.code === "sold_out"),
    ).toBe(true);

    const api = await t.call("GET", `/collectibles/${collectible.id}`);
    expect(api.body.data).toMatchObject({ claimed_count: 100, available_count: 0 });
    const listed = await t.call("GET", `/claims?collectible_id=${collectible.id}&limit=100`);
    expect(listed.body.pagination.count).toBe(100);
    expect(listed.body.data.every((c: { status: string }) => c.status === "confirmed")).toBe(true);
    const indexed = await createIndexerReader({ url: stack.indexerUrl }).getCollectible(
      collectible.id,
    );
    expect(indexed?.claimedCount).toBe(100n);
    const onChain = await claimedOnChain(stack, collectible.id);
    expect(onChain).toBe(100n);
  });
});

describe("the holder race", { timeout: TIMEOUT }, () => {
  it("answers 201 to exactly one of concurrent claims by the same holder, 409 already_claimed to the rest", async () => {
    const collectible = await createCollectible({ name: "One each", total_count: 10 });
    const holder = await createUser("racing-holder@chain.example");
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        t.call("POST", "/claims", {
          json: { collectible_id: collectible.id, holder_id: holder.id },
        }),
      ),
      // The same person by email: the same user, so the same one-claim rule.
      ...Array.from({ length: 4 }, () =>
        t.call("POST", "/claims", {
          json: { collectible_id: collectible.id, email: "RACING-holder@chain.example" },
        }),
      ),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body.error.code).toBe("already_claimed");
    }
    const list = await t.call("GET", `/claims?collectible_id=${collectible.id}`);
    expect(list.body.pagination.count).toBe(1);
    expect(list.body.data[0].claimed_by_id).toBe(holder.id);
    const onChain = await claimedOnChain(stack, collectible.id);
    expect(onChain).toBe(1n);
  });
});

describe("a burst of claims over HTTP", { timeout: TIMEOUT }, () => {
  // Each refusal inside a group is covered by services/claims/claimGroups.test.ts; here the HTTP answers
  // and what the chain counts.
  it("mints exactly the supply, one claim for a key sent twice, and the chain counts the same", async () => {
    const small = await createCollectible({ name: "Small burst", total_count: 5 });
    const wide = await createCollectible({ name: "Wide burst", total_count: 10 });
    const post = (json: Record<string, unknown>, headers?: Record<string, string>) =>
      t.call("POST", "/claims", { json, headers });
    const keyed = { collectible_id: wide.id, email: "keyed@chain.example" };
    const burst = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        post({ collectible_id: small.id, email: `burst-${i}@chain.example` }),
      ),
      post(keyed, { "Idempotency-Key": "burst-key" }),
      post(keyed, { "Idempotency-Key": "burst-key" }),
    ]);
    const [small6, keyedAnswers] = [burst.slice(0, 6), burst.slice(6)];
    expect(small6.map((a) => a.status).sort()).toEqual([201, 201, 201, 201, 201, 409]);
    expect(small6.find((a) => a.status === 409)?.body.error.code).toBe("sold_out");
    expect(keyedAnswers.map((a) => a.status)).toEqual([201, 201]);
    expect(keyedAnswers[0]?.body.data.id).toBe(keyedAnswers[1]?.body.data.id);

    const counts = await Promise.all(
      [small, wide].map((c) => t.call("GET", `/collectibles/${c.id}`)),
    );
    expect(counts.map((c) => c.body.data.claimed_count)).toEqual([5, 1]);
    expect(await claimedOnChain(stack, small.id)).toBe(5n);
    expect(await claimedOnChain(stack, wide.id)).toBe(1n);
  });
});

describe("claims answered together", { timeout: TIMEOUT }, () => {
  // Claims confirmed together are read back together for their answers, each with its key's scope.
  it("answers each of concurrent claims by keys of two organizations with its own claim, confirmed", async () => {
    const tenants = [];
    for (const name of ["Tenant one", "Tenant two"]) {
      const made = await t.call("POST", "/organizations", { json: { name } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const organizationId: string = made.body.data.id;
      const key = await t.createKey(organizationId);
      const collectible = await t.call("POST", "/collectibles", {
        key,
        json: { organization_id: organizationId, name, total_count: 10 },
      });
      expect(collectible.status, JSON.stringify(collectible.body)).toBe(201);
      tenants.push({ key, collectibleId: collectible.body.data.id as string });
    }
    const asked = tenants.flatMap(({ key, collectibleId }, tenant) =>
      Array.from({ length: 5 }, (_, i) => ({
        key,
        collectibleId,
        email: `t${tenant}-${i}@a.example`,
      })),
    );
    const answers = await Promise.all(
      asked.map(({ key, collectibleId, email }) =>
        t.call("POST", "/claims", { key, json: { collectible_id: collectibleId, email } }),
      ),
    );
    answers.forEach((answer, i) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.data).toMatchObject({
        collectible_id: asked[i]?.collectibleId,
        status: "confirmed",
      });
    });
    for (const [i, answer] of answers.entries()) {
      const holder = await t.call("GET", `/users/${answer.body.data.claimed_by_id}`);
      expect(holder.body.data.email).toBe(asked[i]?.email);
    }
    // And GET answers a key its own organization's claim, not the other's.
    const [first, second] = tenants;
    const mine = await t.call("GET", `/claims/${answers[0]?.body.data.id}`, { key: first?.key });
    expect(mine.status).toBe(200);
    const theirs = await t.call("GET", `/claims/${answers[0]?.body.data.id}`, { key: second?.key });
    expect(theirs.status).toBe(404);
  });
});
