/** Many rows inserted at once as one array per column (`insertedRows`), as a claim group does. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/testDatabase.ts";
import { organizations, users } from "../schema.ts";
import { insertedRows } from "./recordWrites.ts";

let database: TestDatabase;
let organizationId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const [organization] = await database.db
    .insert(organizations)
    .values({ name: "Rows", walletIndex: 1, walletAddress: `0x${"1".padStart(40, "0")}` })
    .returning();
  if (!organization) throw new Error("organization not created");
  organizationId = organization.id;
});
afterAll(() => database.close());

const insertUsers = (rows: (typeof users.$inferInsert)[]) => {
  const inserted = insertedRows(database.db, "inserted", users, rows);
  return database.db.with(inserted).select().from(inserted);
};

it("stores each value as given, whatever an array literal must quote, and answers the rows", async () => {
  const names = ['Quote " and backslash \\', "Comma, {braces} and 'apostrophe'", "NULL", "Zoë 🎉"];
  const rows = names.map((name, i) => ({
    organizationId,
    email: `person${i}@rows.example`,
    name,
    walletIndex: 100 + i,
    walletAddress: `0x${String(100 + i).padStart(40, "0")}`,
    linkedAt: i === 0 ? null : new Date(Date.UTC(2026, 11, 7, 4, 0, i, 123)),
  }));

  const answered = await insertUsers(rows);

  const stored = await database.db
    .select()
    .from(users)
    .where(eq(users.organizationId, organizationId));
  for (const found of [answered, stored]) {
    const byEmail = new Map(found.map((user) => [user.email, user]));
    for (const row of rows) {
      const user = byEmail.get(row.email);
      expect(user).toMatchObject({ ...row, isActive: true });
      // The columns the rows left out took the database's defaults.
      expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(user?.createdAt).toBeInstanceOf(Date);
    }
    expect(found).toHaveLength(rows.length);
  }
});

it("leaves out a row a unique index refuses and inserts the others", async () => {
  const row = (email: string, walletIndex: number) => ({
    organizationId,
    email,
    walletIndex,
    walletAddress: `0x${String(walletIndex).padStart(40, "0")}`,
  });
  await insertUsers([row("taken@rows.example", 200)]);

  const answered = await insertUsers([
    row("TAKEN@rows.example", 201),
    row("new@rows.example", 202),
  ]);

  expect(answered.map((user) => user.email)).toEqual(["new@rows.example"]);
});

it("refuses rows that give different columns, which would need a default in the middle", () => {
  const first = { organizationId, email: "a@rows.example", walletAddress: "0xa", name: "A" };
  const second = { organizationId, email: "b@rows.example", walletAddress: "0xb" };

  expect(() => insertedRows(database.db, "inserted", users, [first, second])).toThrow(
    "rows to insert give different columns",
  );
});
