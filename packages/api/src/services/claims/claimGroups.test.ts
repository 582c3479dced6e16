/**
 * Claims submitted in the same moment are stored as one group (claimGroups.ts). Each
 * request must still get the answer it would get alone, and a refused one must leave nothing
 * behind. The requests here are submitted in one tick, so the first is stored alone and all the
 * others form the next group, on the real database.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { routeDepsOf } from "../../app.ts";
import { IdempotencyKeyTaken } from "../../db/idempotencyKeys.ts";
import { apiKeys, claims, collectibles, idempotencyKeys, users } from "../../db/schema.ts";
import { ApiError } from "../../errors.ts";
import { LocalImageStorage } from "../../images/imageStorage.ts";
import { createLogger } from "../../logger.ts";
import { testAppPerFile } from "../../test/perFile.ts";
import { type ClaimRequest, submitClaim } from "./claimGroups.ts";

const t = testAppPerFile();

function groupDeps() {
  return routeDepsOf({
    config: t.env,
    db: t.database.db,
    logger: createLogger({ level: "silent" }),
    storage: new LocalImageStorage(t.storageDir),
    wallets: t.wallets,
    baseUrl: () => t.url,
    readiness: [],
  });
}

async function organization(name: string): Promise<string> {
  const res = await t.call("POST", "/organizations", { json: { name } });
  return res.body.data.id;
}

async function collectible(organizationId: string, totalCount: number, status = "confirmed") {
  const [row] = await t.database.db
    .insert(collectibles)
    .values({
      organizationId,
      name: `Supply ${totalCount}`,
      totalCount,
      status: status as "confirmed",
    })
    .returning();
  return row?.id as string;
}

/** Each request's outcome: the claim's holder email, or the refusal's code and field. */
async function submitTogether(requests: Omit<ClaimRequest, "scope">[]) {
  const deps = groupDeps();
  const scope = { organizationId: null };
  const settled = await Promise.allSettled(
    requests.map((request) => submitClaim(deps, { scope, ...request })),
  );
  return settled.map((outcome) => {
    if (outcome.status === "fulfilled") return outcome.value.claim.holderEmail;
    const error = outcome.reason;
    if (error instanceof IdempotencyKeyTaken) return "key taken";
    if (!(error instanceof ApiError)) throw error;
    return `${error.status} ${error.code} ${error.details?.[0]?.field ?? ""}`.trim();
  });
}

describe("claims submitted together", () => {
  it("answer each request as if it came alone, and keep no user for a refused one", async () => {
    const org = await organization("Group Co");
    const elsewhere = await organization("Elsewhere Co");
    const outsider = await t.call("POST", "/users", {
      json: { organization_id: elsewhere, email: "outsider@group.example" },
    });
    const small = await collectible(org, 3);
    const wide = await collectible(org, 10);
    const failed = await collectible(org, 10, "failed");
    const answers = await submitTogether([
      { body: { collectible_id: wide, email: "first@group.example" } },
      ...[1, 2, 3, 4].map((i) => ({
        body: { collectible_id: small, email: `s${i}@group.example` },
      })),
      { body: { collectible_id: wide, email: "Twice@group.example" } },
      { body: { collectible_id: wide, email: "twice@GROUP.example" } },
      { body: { collectible_id: wide, holder_id: outsider.body.data.id } },
      { body: { collectible_id: failed, email: "failed@group.example" } },
      {
        body: { collectible_id: "00000000-0000-4000-8000-000000000000", email: "x@group.example" },
      },
    ]);
    expect(answers).toEqual([
      "first@group.example",
      "s1@group.example",
      "s2@group.example",
      "s3@group.example",
      "409 sold_out collectible_id",
      "Twice@group.example",
      "409 already_claimed holder_id",
      "404 user_not_found holder_id",
      "422 collectible_failed collectible_id",
      "404 collectible_not_found collectible_id",
    ]);

    const reserved = await t.database.db
      .select({ id: collectibles.id, reserved: collectibles.reservedCount })
      .from(collectibles)
      .where(eq(collectibles.organizationId, org));
    expect(new Map(reserved.map((r) => [r.id, r.reserved]))).toEqual(
      new Map([
        [small, 3],
        [wide, 2],
        [failed, 0],
      ]),
    );
    const emails = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.organizationId, org));
    expect(emails.map((u) => u.email).sort()).toEqual([
      "Twice@group.example",
      "first@group.example",
      "s1@group.example",
      "s2@group.example",
      "s3@group.example",
    ]);
  });

  it("refuses a request whose Idempotency-Key another request holds, and gives its place back", async () => {
    const org = await organization("Keyed Co");
    const supply = await collectible(org, 5);
    const [apiKey] = await t.database.db.select({ id: apiKeys.id }).from(apiKeys).limit(1);
    const of = {
      apiKeyId: apiKey?.id as string,
      key: "held-elsewhere",
      requestHash: "h",
      ttlMs: 60_000,
    };
    // Another request's live record of the key.
    await t.database.db
      .insert(idempotencyKeys)
      .values({ apiKeyId: of.apiKeyId, key: of.key, requestHash: "another" });
    const keyed = { of, locationOf: (id: string) => `/claims/${id}` };
    const answers = await submitTogether([
      { body: { collectible_id: supply, email: "alone@keyed.example" } },
      { body: { collectible_id: supply, email: "keyed@keyed.example" }, idempotency: keyed },
      { body: { collectible_id: supply, email: "beside@keyed.example" } },
    ]);
    expect(answers).toEqual(["alone@keyed.example", "key taken", "beside@keyed.example"]);
    const [row] = await t.database.db
      .select({ reserved: collectibles.reservedCount })
      .from(collectibles)
      .where(eq(collectibles.id, supply));
    expect(row?.reserved).toBe(2);
    const stored = await t.database.db
      .select({ email: claims.holderEmail })
      .from(claims)
      .where(eq(claims.collectibleId, supply));
    expect(stored.map((c) => c.email).sort()).toEqual([
      "alone@keyed.example",
      "beside@keyed.example",
    ]);
  });
});
