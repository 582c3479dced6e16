/**
 * A list page's query on PostgreSQL is planned once per connection: re-planning it on every page
 * cost more of the database's time than reading the page.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ListPosition } from "../lib/cursor.ts";
import { createPostgresDatabase, testDriver } from "../test/testDatabase.ts";
import { openDatabase } from "./client.ts";
import { ListCounts } from "./listCounts.ts";
import { rowsOf } from "./rows.ts";
import { listUsers } from "./users.ts";

describe.runIf(testDriver() === "postgres")("list pages on PostgreSQL", () => {
  it("plans a page's query once on a connection, then runs it at any cursor and page size", async () => {
    const created = await createPostgresDatabase();
    // One connection: the statements and their plans are that connection's.
    const handle = await openDatabase({ driver: "postgres", url: created.url, poolSize: 1 });
    try {
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
      const counts = new ListCounts();
      const everything = { organizationId: null };
      let cursor: ListPosition | undefined;
      const seen: string[] = [];
      for (const limit of [3, 4, 5, 3, 4, 5, 3, 4]) {
        const page = await listUsers(handle.db, everything, { limit, cursor }, counts);
        expect(page.rows).toHaveLength(limit);
        seen.push(...page.rows.map((row) => row.id));
        const last = page.rows.at(-1);
        cursor = last && { createdAt: last.createdAt, id: last.id };
      }
      expect(new Set(seen).size).toBe(31);

      // The first page is one statement, the seven pages after a cursor another.
      const [byCursor] = rowsOf<{ generic: string; custom: string }>(
        await handle.db.execute(sql`
          select generic_plans as generic, custom_plans as custom from pg_prepared_statements
          where name like 'list_users_%' order by generic_plans + custom_plans desc`),
      );
      // PostgreSQL plans the first five runs with their values, then keeps one plan if it is
      // as good; with the page size sent as a value, it planned every run again.
      expect(byCursor).toEqual({ generic: "2", custom: "5" });
    } finally {
      await handle.close();
      await created.drop();
    }
  });
});
