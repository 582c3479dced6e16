/** One claim group's statement (`insertClaimGroup`), as services/claims/claimGroups.ts uses it. */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createTestDatabase,
  insertOrganization,
  type TestDatabase,
  testAddress,
} from "../test/testDatabase.ts";
import { lockCollectiblesOfClaims } from "./chainIntents.ts";
import { type GroupedClaim, insertClaimGroup } from "./claimGroups.ts";
import { foldClaimCountChanges, listClaims } from "./claims.ts";
import { collectibleClaimCounts } from "./countSchema.ts";
import { claims, collectibles, organizations, users } from "./schema.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("gives places in arrival order, finds each holder by id or by email in any case in the collectible's organization, and creates the others once", async () => {
  const [here, elsewhere] = await database.db
    .insert(organizations)
    .values(
      [1, 2].map((index) => ({
        name: `Org ${index}`,
        walletIndex: index,
        walletAddress: testAddress(index),
      })),
    )
    .returning();
  if (!here || !elsewhere) throw new Error("organizations not created");
  const user = (organizationId: string, email: string, walletIndex: number, isActive = true) => ({
    organizationId,
    email,
    walletIndex,
    walletAddress: testAddress(walletIndex),
    isActive,
  });
  const [known, , other] = await database.db
    .insert(users)
    .values([
      user(here.id, "known@group.example", 10),
      user(here.id, "gone@group.example", 11, false),
      user(elsewhere.id, "other@group.example", 12),
    ])
    .returning();
  if (!known || !other) throw new Error("users not created");
  const [five, wide, failed] = await database.db
    .insert(collectibles)
    .values(
      [5, 10, 10].map((totalCount, i) => ({
        organizationId: here.id,
        name: `Drop ${i}`,
        totalCount,
        status: i === 2 ? ("failed" as const) : ("confirmed" as const),
      })),
    )
    .returning();
  if (!five || !wide || !failed) throw new Error("collectibles not created");

  let nextWallet = 100;
  const byEmail = (collectibleId: string, email: string): GroupedClaim => {
    const index = nextWallet++;
    return {
      collectibleId,
      holderId: null,
      email,
      externalId: null,
      wallet: { index, address: testAddress(index) },
    };
  };
  const byId = (collectibleId: string, holderId: string): GroupedClaim => ({
    collectibleId,
    holderId,
    email: null,
    externalId: null,
    wallet: null,
  });
  // The requests travel as one array per column: a value an array literal must quote arrives as given.
  const externalId = `Quote " and backslash \\, {braces}, NULL, Zoë 🎉`;
  const answered = await insertClaimGroup(database.db, { organizationId: null }, [
    { ...byEmail(five.id, "KNOWN@Group.example"), externalId },
    byEmail(five.id, "gone@group.example"),
    byEmail(five.id, "other@group.example"),
    byEmail(five.id, "Nobody@group.example"),
    byEmail(five.id, "nobody@GROUP.example"),
    byEmail(five.id, "late@group.example"),
    byId(wide.id, known.id),
    byId(wide.id, other.id),
    byEmail(failed.id, "failed@group.example"),
    byEmail("00000000-0000-4000-8000-000000000000", "unknown@group.example"),
  ]);

  const shown = answered.map((a) => ({
    request: a.request,
    holderId: a.holderId,
    created: a.created,
    walletIndex: a.created ? a.walletIndex : undefined,
    claimed: a.claim?.holderEmail ?? null,
  }));
  const createdId = (request: number) => answered.find((a) => a.request === request)?.holderId;
  // The sixth asks past the supply of five; another organization's user, a failed collectible
  // and an unknown one are not answered either (each is decided alone afterwards).
  expect(shown).toEqual([
    { request: 0, holderId: known.id, created: false, claimed: "known@group.example" },
    {
      request: 1,
      holderId: createdId(1),
      created: true,
      walletIndex: 101,
      claimed: "gone@group.example",
    },
    {
      request: 2,
      holderId: createdId(2),
      created: true,
      walletIndex: 102,
      claimed: "other@group.example",
    },
    {
      request: 3,
      holderId: createdId(3),
      created: true,
      walletIndex: 103,
      claimed: "Nobody@group.example",
    },
    // The same person by another letter case: the same user, and the claim the first one has.
    {
      request: 4,
      holderId: createdId(3),
      created: true,
      walletIndex: 103,
      claimed: "Nobody@group.example",
    },
    { request: 6, holderId: known.id, created: false, claimed: "known@group.example" },
  ]);
  expect(new Set([known.id, other.id, createdId(1), createdId(2), createdId(3)]).size).toBe(5);
  expect(answered[0]?.claim?.externalId).toBe(externalId);

  const reserved = await database.db
    .select({ id: collectibles.id, reserved: collectibles.reservedCount })
    .from(collectibles)
    .where(eq(collectibles.organizationId, here.id));
  expect(new Map(reserved.map((r) => [r.id, r.reserved]))).toEqual(
    new Map([
      [five.id, 4],
      [wide.id, 1],
      [failed.id, 0],
    ]),
  );
  const hereUsers = await database.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.organizationId, here.id));
  expect(hereUsers.map((u) => u.email).sort()).toEqual([
    "Nobody@group.example",
    "gone@group.example",
    "gone@group.example",
    "known@group.example",
    "other@group.example",
  ]);
});

it("stores a group while the relayer's confirmation of the same collectible is still open, and counts both exactly", async () => {
  const org = await insertOrganization(database.db, "Busy", 3);
  const [drop] = await database.db
    .insert(collectibles)
    .values({ organizationId: org.id, name: "Busy drop", totalCount: 10, status: "confirmed" })
    .returning();
  if (!drop) throw new Error("collectible not created");
  const scope = { organizationId: org.id };
  const mail = (name: string, index: number): GroupedClaim => ({
    collectibleId: drop.id,
    holderId: null,
    email: `${name}@busy.example`,
    externalId: null,
    wallet: { index, address: testAddress(index) },
  });
  await insertClaimGroup(database.db, scope, [mail("first", 300), mail("second", 301)]);

  const onDrop = sql`select ${drop.id}::uuid`;
  await database.db.transaction(async (confirmation) => {
    // What confirmMinedUpTo does to the claims: the collectible's key share, the status, and a
    // second update of the same rows (which checks the collectible as a foreign key again).
    await lockCollectiblesOfClaims(confirmation, onDrop);
    await confirmation
      .update(claims)
      .set({ status: "confirmed" })
      .where(eq(claims.collectibleId, drop.id));
    await confirmation.update(claims).set({ edition: 1 }).where(eq(claims.collectibleId, drop.id));
    // Meanwhile a group on another connection: it must not wait for this commit.
    const stored = await database.db.transaction(async (group) => {
      await group.execute(sql`set local lock_timeout = '3s'`);
      return insertClaimGroup(group, scope, [mail("third", 302)]);
    });
    expect(stored.map((s) => s.claim?.holderEmail)).toEqual(["third@busy.example"]);
  });

  const counted = async (status: "pending" | "confirmed") => {
    const page = await listClaims(database.db, scope, { limit: 10, status });
    const rows = await database.db
      .select({ id: claims.id })
      .from(claims)
      .where(and(eq(claims.collectibleId, drop.id), eq(claims.status, status)));
    expect(page.count).toBe(rows.length);
    return page.count;
  };
  expect([await counted("pending"), await counted("confirmed")]).toEqual([1, 2]);
  // Folded, each status of the collectible is one row, with the same counts.
  await foldClaimCountChanges(database.db);
  const rows = await database.db
    .select({ status: collectibleClaimCounts.status, rows: collectibleClaimCounts.rows })
    .from(collectibleClaimCounts)
    .where(eq(collectibleClaimCounts.collectibleId, drop.id))
    .orderBy(collectibleClaimCounts.status);
  expect(rows).toEqual([
    { status: "confirmed", rows: 2 },
    { status: "pending", rows: 1 },
  ]);
});
