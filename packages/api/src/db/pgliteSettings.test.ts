import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createTestDatabase, testDriver } from "../test/testDatabase.ts";

it.runIf(testDriver() === "pglite")(
  "opens PGlite with a 32 MB buffer pool, not 128 MB",
  async () => {
    const database = await createTestDatabase();
    try {
      const result = await database.db.execute(sql`show shared_buffers`);
      const rows = (result as unknown as { rows: { shared_buffers: string }[] }).rows;
      expect(rows[0]?.shared_buffers).toBe("32MB");
    } finally {
      await database.close();
    }
  },
);
