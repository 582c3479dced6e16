/**
 * What the chain endpoints refuse, through the real chain, contract, indexer and database:
 * failure answers, tenant isolation between scoped keys, and bodies they do not read.
 */
import { randomUUID } from "node:crypto";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { chainFlowPerFile, TIMEOUT } from "../test/chainFlow.ts";
import { expect400Naming } from "../test/refusals.ts";

const { t, stack, org, createCollectible } = chainFlowPerFile();

describe("refusals", { timeout: TIMEOUT }, () => {
  it("answers 400 when derived counts disagree with a new collectible", async () => {
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
  });

  it("answers 400 for a missing or non-positive total_count and for both holder_id and email", async () => {
    for (const total_count of [undefined, 0, -1, 1.5]) {
      const res = await t.call("POST", "/collectibles", {
        json: { organization_id: org.id, name: "Bad", total_count },
      });
      expect400Naming(res, "total_count");
    }
    const both = await t.call("POST", "/claims", {
      json: { collectible_id: randomUUID(), holder_id: randomUUID(), email: "x@chain.example" },
    });
    expect(both.status).toBe(400);
  });

  it("answers 404 for unknown collectibles, claims, holders and creators", async () => {
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
  });

  it("fails only the claim whose receiver rejects the token, the rest of its batch is minted", async () => {
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
  });

  it("lists collectibles with filters and the OpenAPI document describes them", async () => {
    await createCollectible({ external_id: "rocket-1" });
    const res = await t.call("GET", `/collectibles?organization_id=${org.id}&external_id=rocket-1`);
    expect(res.status).toBe(200);
    expect(res.body.pagination.count).toBe(1);
    const doc = await t.call("GET", "/openapi.json", { key: null });
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(["/collectibles", "/collectibles/{id}", "/claims", "/claims/{id}"]),
    );
  });
});

describe("tenant isolation between scoped keys", { timeout: TIMEOUT }, () => {
  it("answers 404 for another tenant's collectibles and claims and lists none of them", async () => {
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
  });
});

describe("bodies the claim and collectible endpoints do not read", { timeout: TIMEOUT }, () => {
  it("answers 415 for a body that is not JSON and 413 for a JSON body over the cap", async () => {
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
  });
});
