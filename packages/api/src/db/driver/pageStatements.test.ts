import { setTimeout as sleep } from "node:timers/promises";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/testDatabase.ts";
import { findOrganization, listOrganizations } from "../organizations.ts";
import { organizations } from "../schema.ts";
import { isoTime, pageStatement } from "./pageStatements.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const everything = { organizationId: null };
const imageKeys = { original: "o", large: "l", medium: "m", small: "s", thumb: "t" };

it("shows every row of a page as a single read shows it, times at each number of millisecond digits", async () => {
  const times = [
    "2026-01-02T03:04:05.000Z",
    "2026-01-02T03:04:05.100Z",
    "2026-01-02T03:04:05.120Z",
    "2026-01-02T03:04:05.123Z",
    "0999-12-31T23:59:59.999Z",
  ];
  await database.db.insert(organizations).values(
    times.map((time, index) => ({
      name: `Org ${index}`,
      walletIndex: 900 + index,
      walletAddress: `0x${String(index).padStart(40, "0")}`,
      logo: index === 0 ? imageKeys : null,
      createdAt: new Date(time),
      updatedAt: new Date(time),
    })),
  );

  const page = await listOrganizations(database.db, everything, { page: 1, limit: 10 });

  expect(page.rows.map((row) => row.createdAt)).toEqual([...times].sort());
  for (const listed of page.rows) {
    const found = await findOrganization(database.db, listed.id, everything);
    if (!found) throw new Error(`organization ${listed.id} not found`);
    expect(listed).toEqual({
      ...found,
      createdAt: found.createdAt.toISOString(),
      updatedAt: found.updatedAt.toISOString(),
    });
  }
});

it("reads a time in another time zone, or without milliseconds, as the same moment", () => {
  expect(isoTime("2026-11-26 01:26:04.5+01")).toBe("2026-11-26T00:26:04.500Z");
  expect(isoTime("2026-11-26 05:56:04.25+05:30")).toBe("2026-11-26T00:26:04.250Z");
  expect(isoTime("2026-11-26 00:26:04+00")).toBe("2026-11-26T00:26:04.000Z");
});

/** Organizations of their own for a test, by wallet index (the first test uses 900 and up). */
async function organizationsAt(indexes: number[]) {
  await database.db.insert(organizations).values(
    indexes.map((index) => ({
      name: `Org at ${index}`,
      walletIndex: index,
      walletAddress: `0x${String(index).padStart(40, "0")}`,
    })),
  );
}

const nameFields = { id: organizations.id, name: organizations.name };
const byWalletIndex = () =>
  database.db
    .select(nameFields)
    .from(organizations)
    .where(eq(organizations.walletIndex, sql`${sql.placeholder("index")}::int`));

it("answers a page statement's database error, then runs it and every other query as before", async () => {
  await organizationsAt([1002, 1003]);
  const statement = pageStatement(database.db, "test_page_error", byWalletIndex(), nameFields);

  await expect(statement.execute({ index: "not a number" })).rejects.toMatchObject({
    code: "22P02",
  });
  expect(await statement.execute({ index: 1002 })).toEqual([
    { id: expect.any(String), name: "Org at 1002" },
  ]);
  const [other] = await database.db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.walletIndex, 1003));
  expect(other?.name).toBe("Org at 1003");
});

it("never reads a page inside another request's open transaction", async () => {
  const statement = pageStatement(
    database.db,
    "test_page_transaction",
    byWalletIndex(),
    nameFields,
  );
  let read: Promise<unknown[]> | undefined;
  let early: unknown[] | "waiting" | undefined;
  await database.db.transaction(async (tx) => {
    await tx.insert(organizations).values({
      name: "Uncommitted",
      walletIndex: 1010,
      walletAddress: `0x${"1010".padStart(40, "0")}`,
    });
    read = statement.execute({ index: 1010 });
    early = await Promise.race([read, sleep(300).then(() => "waiting" as const)]);
  });
  // Another connection: the page is read at once, without the row not yet committed.
  expect(early).toEqual([]);
});
