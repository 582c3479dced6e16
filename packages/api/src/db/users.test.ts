/** How a claim group finds its holders by email (services/claims/claimGroups.ts). */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/testDatabase.ts";
import { organizations, users } from "./schema.ts";
import { usersByEmail } from "./users.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

it("finds each organization's active user of an email, in any case, and no one else", async () => {
  const [here, elsewhere] = await database.db
    .insert(organizations)
    .values(
      [1, 2].map((index) => ({
        name: `Org ${index}`,
        walletIndex: index,
        walletAddress: `0x${String(index).padStart(40, "0")}`,
      })),
    )
    .returning();
  if (!here || !elsewhere) throw new Error("organizations not created");
  const user = (organizationId: string, email: string, walletIndex: number, isActive = true) => ({
    organizationId,
    email,
    walletIndex,
    walletAddress: `0x${String(walletIndex).padStart(40, "0")}`,
    isActive,
  });
  const [known] = await database.db
    .insert(users)
    .values([
      user(here.id, "known@group.example", 10),
      user(here.id, "gone@group.example", 11, false),
      user(elsewhere.id, "other@group.example", 12),
    ])
    .returning();

  const found = await usersByEmail(database.db, [
    { organizationId: here.id, email: "KNOWN@Group.example" },
    { organizationId: here.id, email: "gone@group.example" },
    { organizationId: here.id, email: "other@group.example" },
    { organizationId: here.id, email: "nobody@group.example" },
  ]);

  expect(found.map((row) => row.id)).toEqual([known?.id]);
});
