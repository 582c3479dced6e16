/**
 * POST /claims/batch on the real chain, indexer and database: one result per item, each decided
 * as POST /claims decides it; the supply never passed across batches; an Idempotency-Key replays
 * the whole answer.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimedOnChain } from "../../test/agreement.ts";
import { confirmedObjects } from "../../test/confirmedObjects.ts";
import { until } from "../../test/faults.ts";
import { chainAppPerFile } from "../../test/perFile.ts";

const TIMEOUT = 180_000;
const { t, stack, org } = chainAppPerFile({
  organization: "Batches",
  env: { CONFIRM_TIMEOUT_MS: "60000" },
});

const { confirmedCollectible } = confirmedObjects(t, org);

const batch = (items: unknown[], headers?: Record<string, string>) =>
  t.call("POST", "/claims/batch", { json: { items }, headers });

describe("POST /claims/batch", () => {
  it(
    "answers one result per item: created, already claimed, unknown collectible, sold out",
    async () => {
      const id = await confirmedCollectible("Batched", { totalCount: 3 });
      const res = await batch([
        { collectible_id: id, email: "a@batch.example", external_id: "first" },
        { collectible_id: id, email: "a@batch.example" },
        { collectible_id: randomUUID(), email: "b@batch.example" },
        { collectible_id: id, email: "b@batch.example" },
        { collectible_id: id, email: "c@batch.example" },
        { collectible_id: id, email: "d@batch.example" },
      ]);
      expect(res.status).toBe(200);
      const results = res.body.data;
      expect(results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(results.map((r: { status: string }) => r.status)).toEqual([
        "created",
        "refused",
        "refused",
        "created",
        "created",
        "refused",
      ]);
      expect(results[0].claim).toMatchObject({ collectible_id: id, external_id: "first" });
      expect(results[1].error.code).toBe("already_claimed");
      expect(results[2].error.code).toBe("collectible_not_found");
      expect(results[5].error.code).toBe("sold_out");
      // The created claims are minted like single claims, in the relayer's batches.
      await until("the batch's claims minted", async () =>
        (await claimedOnChain(stack, id)) === 3n ? true : undefined,
      );
    },
    TIMEOUT,
  );

  it(
    "gives exactly 100 claims for 150 items over two batches for a supply of 100",
    async () => {
      const id = await confirmedCollectible("Batched", { totalCount: 100 });
      const items = Array.from({ length: 150 }, (_, i) => ({
        collectible_id: id,
        email: `holder-${i}@batch.example`,
      }));
      const [first, second] = await Promise.all([
        batch(items.slice(0, 75)),
        batch(items.slice(75)),
      ]);
      const results = [...first.body.data, ...second.body.data];
      const created = results.filter((r: { status: string }) => r.status === "created");
      const refused = results.filter((r: { status: string }) => r.status === "refused");
      expect(created).toHaveLength(100);
      expect(refused.every((r: { error: { code: string } }) => r.error.code === "sold_out")).toBe(
        true,
      );
      await until(
        "100 claims minted",
        async () => ((await claimedOnChain(stack, id)) === 100n ? true : undefined),
        { timeoutMs: 120_000 },
      );
      const listed = await t.call("GET", `/claims?collectible_id=${id}&limit=1`);
      expect(listed.body.pagination.count).toBe(100);
    },
    TIMEOUT,
  );

  it(
    "answers a retry with the same Idempotency-Key with the first answer, creating nothing more",
    async () => {
      const id = await confirmedCollectible("Batched", { totalCount: 5 });
      const items = [
        { collectible_id: id, email: "once@batch.example" },
        { collectible_id: id, email: "twice@batch.example" },
      ];
      const headers = { "idempotency-key": `batch-${randomUUID()}` };
      const first = await batch(items, headers);
      const retry = await batch(items, headers);
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.body).toEqual(first.body);
      const listed = await t.call("GET", `/claims?collectible_id=${id}`);
      expect(listed.body.pagination.count).toBe(2);
      const other = await batch(items.slice(0, 1), headers);
      expect(other.status).toBe(422);
    },
    TIMEOUT,
  );

  it("answers 400 naming the item whose fields are wrong, and stores nothing", async () => {
    const res = await batch([{ collectible_id: randomUUID(), email: "x@batch.example", extra: 1 }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error.details)).toContain("items");
    expect((await batch([])).status).toBe(400);
  });
});
