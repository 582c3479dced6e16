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
import {
  apiKeys,
  claims,
  collectibles,
  idempotencyKeys,
  organizations,
  users,
} from "../../db/schema.ts";
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

  it("mint to each holder's linked wallet where the organization sends claims there, and find holders by id or email in any case", async () => {
    const sending = await organization("Sending Co");
    const keeping = await organization("Keeping Co");
    await t.database.db
      .update(organizations)
      .set({ claimsToLinkedWallet: true })
      .where(eq(organizations.id, sending));
    const user = async (organizationId: string, email: string, linkedWallet: string | null) => {
      const res = await t.call("POST", "/users", {
        json: { organization_id: organizationId, email },
      });
      const id = res.body.data.id as string;
      await t.database.db.update(users).set({ linkedWallet }).where(eq(users.id, id));
      return { id, wallet: res.body.data.wallet_address as string };
    };
    const linked = "0x00000000000000000000000000000000000000A1";
    const otherLinked = "0x00000000000000000000000000000000000000B1";
    await user(sending, "linked@sending.example", linked);
    const unlinked = await user(sending, "unlinked@sending.example", null);
    const elsewhere = await user(keeping, "linked@keeping.example", otherLinked);
    const sendingDrop = await collectible(sending, 10);
    const keepingDrop = await collectible(keeping, 10);
    const answers = await submitTogether([
      // Stored alone: the others arrive while it is, and go together.
      { body: { collectible_id: sendingDrop, email: "first@sending.example" } },
      { body: { collectible_id: sendingDrop, email: "LINKED@sending.example" } },
      { body: { collectible_id: sendingDrop, holder_id: unlinked.id } },
      { body: { collectible_id: keepingDrop, holder_id: elsewhere.id } },
      { body: { collectible_id: sendingDrop, email: "new@sending.example" } },
    ]);
    expect(answers).toEqual([
      "first@sending.example",
      "linked@sending.example",
      "unlinked@sending.example",
      "linked@keeping.example",
      "new@sending.example",
    ]);
    const minted = await t.database.db
      .select({ email: claims.holderEmail, mintedTo: claims.mintedTo, wallet: users.walletAddress })
      .from(claims)
      .innerJoin(users, eq(users.id, claims.holderId))
      .where(eq(users.organizationId, sending));
    const mintedTo = new Map(minted.map((m) => [m.email, m.mintedTo]));
    expect(mintedTo.get("linked@sending.example")).toBe(linked);
    expect(mintedTo.get("unlinked@sending.example")).toBe(unlinked.wallet);
    const created = minted.find((m) => m.email === "new@sending.example");
    expect(created?.mintedTo).toBe(created?.wallet);
    const [kept] = await t.database.db
      .select({ mintedTo: claims.mintedTo })
      .from(claims)
      .where(eq(claims.collectibleId, keepingDrop));
    expect(kept?.mintedTo).toBe(elsewhere.wallet);
    // The holder found by email in another letter case was not created again.
    const sendingUsers = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.organizationId, sending));
    expect(sendingUsers).toHaveLength(4);
  });
});
