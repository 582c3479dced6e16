/**
 * Idempotency-Key on the chain endpoints, through the real chain, contract, indexer and
 * database: retries and concurrent duplicates give one object and one token.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimedOnChain } from "../test/agreement.ts";
import { chainFlowPerFile, TIMEOUT } from "../test/chainFlow.ts";

const { t, stack, org, createCollectible } = chainFlowPerFile();

describe("Idempotency-Key", { timeout: TIMEOUT }, () => {
  it("answers a retry with the first answer, and only one claim exists", async () => {
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
  });

  it("executes ten concurrent requests with the same key once: one claim, one token, ten identical answers", async () => {
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
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    const list = await t.call("GET", `/claims?collectible_id=${collectible.id}`);
    expect(list.body.pagination.count).toBe(1);
    const onChain = await claimedOnChain(stack, collectible.id);
    expect(onChain).toBe(1n);
  });

  it("creates one collectible for concurrent POSTs with the same key", async () => {
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
  });

  it("answers 422 when the key comes back with another body, on any POST", async () => {
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
  });
});
