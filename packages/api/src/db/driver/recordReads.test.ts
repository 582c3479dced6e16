/**
 * A list page's query on PostgreSQL is planned once per connection: re-planning it on every page
 * cost more of the database's time than reading the page.
 */

import type { ThrowAwayDatabase } from "@collectibles/devkit/postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListPosition } from "../../schemas/common.ts";
import { createPostgresDatabase } from "../../test/testDatabase.ts";
import { listUsers } from "../users.ts";
import { type DatabaseHandle, openDatabase, rowsOf } from "./client.ts";

describe("list pages on PostgreSQL", () => {
  let created: ThrowAwayDatabase;
  let handle: DatabaseHandle;
  const everything = { organizationId: null };
  const listStatements = async () =>
    rowsOf<{ generic: string; custom: string }>(
      await handle.db.execute(sql`
        select generic_plans as generic, custom_plans as custom from pg_prepared_statements
        where name like 'list_users_%' order by generic_plans + custom_plans desc`),
    );

  const usersInOrder = async () =>
    rowsOf<{ id: string }>(
      await handle.db.execute(sql`select id from users order by created_at, id`),
    ).map((row) => row.id);

  beforeAll(async () => {
    created = await createPostgresDatabase();
    // One connection: the statements and their plans are that connection's.
    handle = await openDatabase({ url: created.url, poolSize: 1 });
    // Enough rows that a plan kept for any values is worse than one made for the values when
    // the query leaves it guessing: the page size, or whether a row is active (which decides
    // if the index of active users serves).
    await handle.db.execute(sql`
      insert into organizations (name, wallet_index, wallet_address)
      select 'Org ' || i, i, '0x' || lpad(to_hex(i), 40, '0') from generate_series(1, 50) as i`);
    await handle.db.execute(sql`
      insert into users (organization_id, email, wallet_index, wallet_address, created_at)
      select o.id, 'user' || i || '@example.com', 100 + i, '0x' || lpad(to_hex(100 + i), 40, '0'),
             timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second'
      from generate_series(1, 5000) as i
      join (select id, row_number() over (order by id) as n from organizations) as o
        on o.n = 1 + i % 50`);
    await handle.db.execute(sql`analyze`);
  });
  afterAll(async () => {
    await handle.close();
    await created.drop();
  });

  it("plans a page's query once on a connection, then runs it at any cursor and page size", async () => {
    let cursor: ListPosition | undefined;
    const seen: string[] = [];
    for (const limit of [3, 4, 5, 3, 4, 5, 3, 4]) {
      const page = await listUsers(handle.db, everything, { limit, cursor });
      expect(page.rows).toHaveLength(limit);
      seen.push(...page.rows.map((row) => row.id));
      const last = page.rows.at(-1);
      cursor = last && { createdAt: last.createdAt, id: last.id };
    }
    expect(seen).toEqual((await usersInOrder()).slice(0, 31));

    // The first page is one statement, the seven pages after a cursor another.
    const [byCursor] = await listStatements();
    // PostgreSQL plans the first five runs with their values, then keeps one plan if it is
    // as good; with the page size sent as a value, it planned every run again.
    expect(Number(byCursor?.generic)).toBeGreaterThan(0);
    expect(Number(byCursor?.custom)).toBeLessThanOrEqual(5);
  });

  it("plans a page by offset for its offset on every run, keeping no plan for it", async () => {
    const before = await listStatements();
    const ordered = await usersInOrder();
    for (const page of [2, 900, 3, 1200, 4, 1500, 5, 1600]) {
      const read = await listUsers(handle.db, everything, { page, limit: 3 });
      expect(read.rows.map((row) => row.id)).toEqual(ordered.slice((page - 1) * 3, page * 3));
    }
    // A plan kept for every offset would serve a deep page as badly as a shallow one.
    expect(await listStatements()).toEqual(before);
  });
});
