/**
 * The collectible and claim flow through the real chain, contract, indexer and database: the
 * README walkthrough checked on-chain with the standard ERC-1155 interface, the supply race,
 * idempotent retries, and the failure answers.
 */

import { randomUUID } from "node:crypto";
import { createIndexerReader } from "@collectibles/indexer/reader";
import { type Address, erc1155Abi, getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Claim } from "../schemas/claims.ts";
import { Collectible } from "../schemas/collectibles.ts";
import { dataEnvelope, listEnvelope } from "../schemas/common.ts";
import { claimedOnChain } from "../test/agreement.ts";
import { type ChainStack, startChainStack } from "../test/chainStack.ts";
import { startTestApp, type TestApp } from "../test/testApp.ts";

/** Real chain, indexer and database: generous on a busy 2-core CI machine. */
const TIMEOUT = 120_000;

let stack: ChainStack;
let t: TestApp;
let org: { id: string };

beforeAll(async () => {
  stack = await startChainStack();
  t = await startTestApp({ env: { ...stack.env, CONFIRM_TIMEOUT_MS: "60000" } });
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
  it(
    "creates a collectible of 3, claims it to sold-out and lists the claims, as on-chain",
    async () => {
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
    },
    TIMEOUT,
  );
});

describe("the supply race", () => {
  it(
    "150 concurrent claims of 100: exactly 100 confirmed and 50 sold_out, in the API, the indexer and on-chain",
    async () => {
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
      expect(listed.body.data.every((c: { status: string }) => c.status === "confirmed")).toBe(
        true,
      );
      const indexed = await createIndexerReader({ url: stack.indexerUrl }).getCollectible(
        collectible.id,
      );
      expect(indexed?.claimedCount).toBe(100n);
      const onChain = await claimedOnChain(stack, collectible.id);
      expect(onChain).toBe(100n);
    },
    TIMEOUT,
  );
});

describe("the holder race", () => {
  it(
    "answers 201 to exactly one of concurrent claims by the same holder, 409 already_claimed to the rest",
    async () => {
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
    },
    TIMEOUT,
  );
});

describe("Idempotency-Key", () => {
  it(
    "answers a retry with the first answer, and only one claim exists",
    async () => {
      const collectible = await createCollectible({ name: "Idempotent", total_count: 5 });
      const json = { collectible_id: collectible.id, email: "idem@chain.example" };
      const headers = { "idempotency-key": `claim-${collectible.id}` };
      const first = await t.call("POST", "/claims", { json, headers });
      expect(first.status).toBe(201);
      const retry = await t.call("POST", "/claims", { json, headers });
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.headers.get("location")).toBe(`/claims/${first.body.data.id}`);
      const list = await t.call("GET", `/claims?collectible_id=${collectible.id}`);
      expect(list.body.pagination.count).toBe(1);
    },
    TIMEOUT,
  );

  it(
    "executes ten concurrent requests with the same key once: one claim, one token, ten identical answers",
    async () => {
      const collectible = await createCollectible({ name: "Concurrent", total_count: 5 });
      const json = { collectible_id: collectible.id, email: "twice@chain.example" };
      const headers = { "idempotency-key": `concurrent-${collectible.id}` };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.call("POST", "/claims", { json, headers })),
      );
      const [first] = answers;
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        expect(answer.body).toEqual(first?.body);
        expect(answer.headers.get("location")).toBe(`/claims/${first?.body.data.id}`);
      }
      // Exactly one executed; the others waited for its answer.
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(
        9,
      );
      const list = await t.call("GET", `/claims?collectible_id=${collectible.id}`);
      expect(list.body.pagination.count).toBe(1);
      const onChain = await claimedOnChain(stack, collectible.id);
      expect(onChain).toBe(1n);
    },
    TIMEOUT,
  );

  it(
    "creates one collectible for concurrent POSTs with the same key",
    async () => {
      const json = { organization_id: org.id, name: "Once only", total_count: 2 };
      const headers = { "idempotency-key": `collectible-${randomUUID()}` };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => t.call("POST", "/collectibles", { json, headers })),
      );
      const ids = new Set(answers.map((a) => a.body.data?.id));
      expect(ids.size).toBe(1);
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        expect(answer.body).toEqual(answers[0]?.body);
      }
      const listed = await t.call("GET", `/collectibles?organization_id=${org.id}&limit=100`);
      expect(listed.body.data.filter((c: { name: string }) => c.name === "Once only")).toHaveLength(
        1,
      );
    },
    TIMEOUT,
  );

  it(
    "answers 422 when the key comes back with another body, on any POST",
    async () => {
      const headers = { "idempotency-key": `org-${randomUUID()}` };
      const first = await t.call("POST", "/organizations", { json: { name: "Once" }, headers });
      expect(first.status).toBe(201);
      const same = await t.call("POST", "/organizations", { json: { name: "Once" }, headers });
      expect(same.status).toBe(201);
      expect(same.body.data.id).toBe(first.body.data.id);
      const other = await t.call("POST", "/organizations", { json: { name: "Twice" }, headers });
      expect(other.status).toBe(422);
      expect(other.body.error.code).toBe("idempotency_key_reused");
      const replayedError = await t.call("POST", "/users", {
        json: { organization_id: org.id },
        headers: { "idempotency-key": "bad-user" },
      });
      expect(replayedError.status).toBe(400);
      const again = await t.call("POST", "/users", {
        json: { organization_id: org.id },
        headers: { "idempotency-key": "bad-user" },
      });
      expect(again.status).toBe(400);
      expect(again.body).toEqual(replayedError.body);
    },
    TIMEOUT,
  );
});

describe("refusals", () => {
  it(
    "answers 400 when derived counts disagree with a new collectible",
    async () => {
      const res = await t.call("POST", "/collectibles", {
        json: {
          organization_id: org.id,
          name: "Bad",
          total_count: 3,
          claimed_count: 1,
          available_count: 5,
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
        "claimed_count",
        "available_count",
      ]);
    },
    TIMEOUT,
  );

  it(
    "answers 400 for a missing or non-positive total_count and for both holder_id and email",
    async () => {
      for (const total_count of [undefined, 0, -1, 1.5]) {
        const res = await t.call("POST", "/collectibles", {
          json: { organization_id: org.id, name: "Bad", total_count },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.details[0].field).toBe("total_count");
      }
      const both = await t.call("POST", "/claims", {
        json: { collectible_id: randomUUID(), holder_id: randomUUID(), email: "x@chain.example" },
      });
      expect(both.status).toBe(400);
    },
    TIMEOUT,
  );

  it(
    "answers 404 for unknown collectibles, claims, holders and creators",
    async () => {
      expect((await t.call("GET", `/collectibles/${randomUUID()}`)).status).toBe(404);
      expect((await t.call("GET", `/claims/${randomUUID()}`)).status).toBe(404);
      const noCollectible = await t.call("POST", "/claims", {
        json: { collectible_id: randomUUID(), email: "nobody@chain.example" },
      });
      expect(noCollectible.status).toBe(404);
      expect(noCollectible.body.error.code).toBe("collectible_not_found");
      const noCreator = await t.call("POST", "/collectibles", {
        json: { organization_id: org.id, name: "X", total_count: 1, creator_id: randomUUID() },
      });
      expect(noCreator.status).toBe(404);
    },
    TIMEOUT,
  );

  it(
    "fails only the claim whose receiver rejects the token, the rest of its batch is minted",
    async () => {
      const collectible = await createCollectible({ name: "Receivers", total_count: 10 });
      // A contract that does not implement the ERC-1155 receiver hook: the Collectibles contract itself.
      const rejecting = await t.call("POST", "/users", {
        json: {
          organization_id: org.id,
          email: "contract@chain.example",
          wallet_address: getAddress(stack.contract),
        },
      });
      expect(rejecting.status).toBe(201);
      const answers = await Promise.all([
        t.call("POST", "/claims", {
          json: { collectible_id: collectible.id, holder_id: rejecting.body.data.id },
        }),
        ...["r1", "r2", "r3"].map((name) =>
          t.call("POST", "/claims", {
            json: { collectible_id: collectible.id, email: `${name}@chain.example` },
          }),
        ),
      ]);
      expect(answers[0]?.status).toBe(422);
      expect(answers[0]?.body.error.code).toBe("claim_failed");
      expect(answers.slice(1).map((a) => a.status)).toEqual([201, 201, 201]);
      const failed = await t.call("GET", `/claims/${answers[0]?.body.error.details[0].claim_id}`);
      expect(failed.body.data).toMatchObject({ status: "failed", is_active: false });
      expect(failed.body.data.failure_reason).toBe("recipient_refused");
      const after = await t.call("GET", `/collectibles/${collectible.id}`);
      expect(after.body.data).toMatchObject({ claimed_count: 3, available_count: 7 });
    },
    TIMEOUT,
  );

  it(
    "lists collectibles with filters and the OpenAPI document describes them",
    async () => {
      const res = await t.call(
        "GET",
        `/collectibles?organization_id=${org.id}&external_id=rocket-1`,
      );
      expect(res.status).toBe(200);
      expect(res.body.pagination.count).toBe(1);
      const doc = await t.call("GET", "/openapi.json", { key: null });
      expect(Object.keys(doc.body.paths)).toEqual(
        expect.arrayContaining(["/collectibles", "/collectibles/{id}", "/claims", "/claims/{id}"]),
      );
    },
    TIMEOUT,
  );
});

describe("tenant isolation between scoped keys", () => {
  it(
    "answers 404 for another tenant's collectibles and claims and lists none of them",
    async () => {
      const collectible = await createCollectible({ name: "Tenant A only", total_count: 2 });
      const claimed = await t.call("POST", "/claims", {
        json: { collectible_id: collectible.id, email: "tenant-a@chain.example" },
      });
      expect(claimed.status).toBe(201);
      const other = (await t.call("POST", "/organizations", { json: { name: "Tenant B" } })).body
        .data;
      const keyB = await t.createKey(other.id);

      for (const path of [`/collectibles/${collectible.id}`, `/claims/${claimed.body.data.id}`]) {
        const res = await t.call("GET", path, { key: keyB });
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toMatch(/_not_found$/);
      }
      for (const path of [
        "/collectibles",
        `/collectibles?organization_id=${org.id}`,
        "/claims",
        `/claims?collectible_id=${collectible.id}`,
        `/claims?holder_id=${claimed.body.data.claimed_by_id}`,
      ]) {
        const res = await t.call("GET", path, { key: keyB });
        expect(res.status, path).toBe(200);
        expect(res.body.pagination.count, path).toBe(0);
      }
      // Nor can it claim another tenant's collectible or create one in another tenant.
      const claimIt = await t.call("POST", "/claims", {
        key: keyB,
        json: { collectible_id: collectible.id, email: "intruder@chain.example" },
      });
      expect(claimIt.status).toBe(404);
      expect(claimIt.body.error.code).toBe("collectible_not_found");
      const create = await t.call("POST", "/collectibles", {
        key: keyB,
        json: { organization_id: org.id, name: "Not mine", total_count: 1 },
      });
      expect(create.status).toBe(404);
      expect(create.body.error.code).toBe("organization_not_found");

      // The key of the collectible's own organization sees it.
      const keyA = await t.createKey(org.id);
      expect((await t.call("GET", `/claims/${claimed.body.data.id}`, { key: keyA })).status).toBe(
        200,
      );
    },
    TIMEOUT,
  );
});

describe("bodies the claim and collectible endpoints do not read", () => {
  it(
    "answers 415 for a body that is not JSON and 413 for a JSON body over the cap",
    async () => {
      for (const path of ["/claims", "/collectibles"]) {
        for (const contentType of ["text/plain", "application/x-www-form-urlencoded"]) {
          const res = await t.call("POST", path, {
            body: "collectible_id=x",
            headers: { "content-type": contentType },
          });
          expect(res.status, `${path} ${contentType}`).toBe(415);
          expect(res.body.error.code).toBe("unsupported_media_type");
        }
      }
      const claim = await t.call("POST", "/claims", {
        json: {
          collectible_id: randomUUID(),
          email: "big@chain.example",
          padding: "x".repeat(t.env.MAX_JSON_BYTES),
        },
      });
      expect(claim.status).toBe(413);
      expect(claim.body.error.code).toBe("payload_too_large");
      // A collectible body may carry a cover image: its cap is the JSON cap plus two images.
      const collectible = await t.call("POST", "/collectibles", {
        json: {
          organization_id: org.id,
          name: "Huge",
          total_count: 1,
          description: "x".repeat(t.env.MAX_JSON_BYTES + 2 * t.env.MAX_IMAGE_BYTES),
        },
      });
      expect(collectible.status).toBe(413);
      expect(collectible.body.error.code).toBe("payload_too_large");
    },
    TIMEOUT,
  );
});
