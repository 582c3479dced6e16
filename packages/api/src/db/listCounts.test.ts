/**
 * A list's count is read from counters that triggers keep in the writing transaction
 * (migrations 0009 and 0018): it must be the number of rows the list holds, whatever changed them (inserts
 * of many rows at once, status changes, deactivations, deletes, another connection), and the
 * page's rows and its count come from one statement.
 */

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../domain/auth.ts";
import { createTestDatabase, insertOrganization, type TestDatabase } from "../test/testDatabase.ts";
import { listClaims } from "./claims.ts";
import { rowsOf } from "./driver/client.ts";
import { collectibles } from "./schema.ts";
import { foldUserCountChanges, listUsers } from "./users.ts";

let database: TestDatabase;
const everything: Scope = { organizationId: null };
let parent: string;
let child: string;
let elsewhere: string;
const collectibleOf: Record<string, string> = {};

async function run(text: ReturnType<typeof sql>) {
  return rowsOf<Record<string, unknown>>(await database.db.execute(text));
}

const organization = async (name: string, index: number, parentId?: string) =>
  (await insertOrganization(database.db, name, index, parentId)).id;

/** `count` users of `organizationId`, inserted by one statement. */
async function users(organizationId: string, count: number, from: number) {
  await run(sql`
    insert into users (organization_id, email, wallet_index, wallet_address)
    select ${organizationId}::uuid, 'u' || i || '@counts.example', i, '0x' || lpad(to_hex(i), 40, '0')
    from generate_series(${from}::int, ${from + count - 1}::int) as i`);
}

/** A claim of every active user of `organizationId` on `collectibleId`, in one statement. */
async function claimAll(organizationId: string, collectibleId: string) {
  await run(sql`
    insert into claims (collectible_id, holder_id, minted_to, holder_email)
    select ${collectibleId}::uuid, id, wallet_address, email from users
    where organization_id = ${organizationId}::uuid and is_active`);
}

/** The count the list answers, checked against its rows and against counting every row. */
async function listed(
  list: typeof listUsers | typeof listClaims,
  scope: Scope,
  filters: Record<string, unknown>,
  countEveryRow: ReturnType<typeof sql>,
) {
  const page = await list(database.db, scope, { limit: 100, ...filters });
  const [counted] = await run(countEveryRow);
  expect(page.count).toBe(Number(counted?.count));
  if (page.count <= 100) expect(page.rows).toHaveLength(page.count);
  return page.count;
}

beforeAll(async () => {
  database = await createTestDatabase();
  parent = await organization("Parent", 1);
  child = await organization("Child", 2, parent);
  elsewhere = await organization("Elsewhere", 3);
  await users(parent, 30, 100);
  await users(child, 20, 200);
  await users(elsewhere, 5, 300);
  for (const [name, org] of [
    ["parent", parent],
    ["child", child],
  ] as const) {
    const [row] = await database.db
      .insert(collectibles)
      .values({ organizationId: org, name, totalCount: 1000, status: "confirmed" })
      .returning();
    collectibleOf[name] = row?.id as string;
    await claimAll(org, row?.id as string);
  }
});
afterAll(() => database?.close());

describe("list counts kept by the database", () => {
  it("count users per organization and in a subtree, and follow deactivations and deletes", async () => {
    const activeUsers = (where: ReturnType<typeof sql>) =>
      sql`select count(*) from users where is_active and ${where}`;
    const activeUsersOfActiveOrganizations = () =>
      activeUsers(sql`organization_id in (select id from organizations where is_active)`);
    const childsUsers = () =>
      listed(
        listUsers,
        everything,
        { organization_id: child },
        activeUsers(sql`organization_id = ${child}`),
      );
    expect(await listed(listUsers, everything, {}, activeUsers(sql`true`))).toBe(55);
    expect(
      await listed(
        listUsers,
        { organizationId: parent },
        {},
        activeUsers(sql`organization_id <> ${elsewhere}`),
      ),
    ).toBe(50);
    expect(await childsUsers()).toBe(20);

    await run(
      sql`update users set is_active = false where organization_id = ${child} and wallet_index < 205`,
    );
    await run(sql`delete from users where organization_id = ${elsewhere} and wallet_index = 300`);
    expect(await childsUsers()).toBe(15);
    expect(await listed(listUsers, everything, {}, activeUsers(sql`true`))).toBe(49);
    // Active again: counted again.
    await run(sql`update users set is_active = true where organization_id = ${child}`);
    expect(await listed(listUsers, everything, {}, activeUsers(sql`true`))).toBe(54);
    // Read from the counters, not by counting: they hold the same number.
    const [kept] = await run(sql`select sum(rows) as n from user_counts`);
    expect(Number(kept?.n)).toBe(54);
    const [changes] = await run(sql`select sum(rows) as n from user_count_changes`);
    expect(Number(changes?.n)).toBe(54);
    // A deleted organization's users are no longer listed, nor counted.
    await run(sql`update organizations set is_active = false where id = ${elsewhere}`);
    expect(await listed(listUsers, everything, {}, activeUsersOfActiveOrganizations())).toBe(50);
    await run(sql`update organizations set is_active = true where id = ${elsewhere}`);
  });

  it("count every user exactly while their changes are folded together, and fold them into one row", async () => {
    const everyActiveUser = sql`select count(*) from users where is_active and organization_id in (select id from organizations where is_active)`;
    const before = await listed(listUsers, everything, {}, everyActiveUser);
    // Writers and folds at once: none waits for another, and no change is lost or counted twice.
    // The deactivation follows the first writer's users (5 of the 40), whatever the others do.
    await Promise.all([
      users(elsewhere, 5, 10_000).then(() =>
        run(
          sql`update users set is_active = false where organization_id = ${elsewhere} and wallet_index between 10000 and 10004`,
        ),
      ),
      ...Array.from({ length: 7 }, (_, i) => users(elsewhere, 5, 10_005 + i * 5)),
      ...Array.from({ length: 4 }, () => foldUserCountChanges(database.db)),
    ]);
    expect(await listed(listUsers, everything, {}, everyActiveUser)).toBe(before + 35);
    await foldUserCountChanges(database.db);
    const folded = await run(sql`select rows from user_count_changes`);
    expect(folded.map((row) => Number(row.rows))).toEqual([before + 35]);
    await run(sql`delete from users where wallet_index between 10000 and 10039`);
    expect(await listed(listUsers, everything, {}, everyActiveUser)).toBe(before);
  });

  it("count claims per collectible and status, and follow status changes and deletes", async () => {
    const claimsWhere = (where: ReturnType<typeof sql>) =>
      sql`select count(*) from claims where ${where}`;
    const onParent = collectibleOf.parent as string;
    expect(await listed(listClaims, everything, {}, claimsWhere(sql`true`))).toBe(50);
    await run(sql`update claims set status = 'confirmed' where collectible_id = ${onParent}`);
    expect(
      await listed(
        listClaims,
        everything,
        { status: "confirmed" },
        claimsWhere(sql`status = 'confirmed'`),
      ),
    ).toBe(30);
    expect(
      await listed(
        listClaims,
        everything,
        { collectible_id: onParent, status: "pending" },
        claimsWhere(sql`collectible_id = ${onParent} and status = 'pending'`),
      ),
    ).toBe(0);
    await run(
      sql`delete from claims where collectible_id = ${onParent} and holder_email like 'u10_@%'`,
    );
    expect(
      await listed(
        listClaims,
        everything,
        { collectible_id: onParent },
        claimsWhere(sql`collectible_id = ${onParent}`),
      ),
    ).toBe(20);
    // The child's key sees only the child's collectible.
    expect(
      await listed(
        listClaims,
        { organizationId: child },
        {},
        claimsWhere(sql`collectible_id = ${collectibleOf.child as string}`),
      ),
    ).toBe(20);
  });

  it("counts row by row what the counters do not cover, in the same answer", async () => {
    const page = await listClaims(database.db, everything, {
      limit: 5,
      updated_since: "1970-01-01T00:00:00.000Z",
    });
    const [counted] = await run(sql`select count(*) from claims`);
    expect(page.count).toBe(Number(counted?.count));
    expect(page.rows).toHaveLength(5);
  });

  it("counts what changed since a time: every row before the first change, the changed ones after", async () => {
    const [oldest] = await run(sql`select min(updated_at) as at from claims`);
    const first = new Date(oldest?.at as Date);
    const before = new Date(first.getTime() - 1000).toISOString();
    await run(
      sql`update claims set updated_at = now() + interval '1 hour' where holder_email like 'u20_@%'`,
    );
    const since = new Date(Date.now() + 30 * 60_000).toISOString();
    for (const [updated_since, where] of [
      [before, sql`true`],
      [since, sql`updated_at >= ${since}::timestamptz`],
    ] as const) {
      await listed(
        listClaims,
        everything,
        { updated_since },
        sql`select count(*) from claims where ${where}`,
      );
    }
    const changed = await listClaims(database.db, everything, { limit: 100, updated_since: since });
    expect(changed.count).toBe(10);
  });

  it("answers a page past the end with the list's count", async () => {
    const page = await listUsers(database.db, everything, { limit: 100, page: 9 });
    expect(page.rows).toEqual([]);
    expect(page.count).toBe(54);
  });
});
