/**
 * A fresh, migrated database for one test file, on the driver of the running vitest project:
 * PGlite in memory (from the run's template) or a new PostgreSQL database, dropped at close.
 */
import fs from "node:fs";
import {
  createPostgresDatabase as createThrowAwayDatabase,
  type ThrowAwayDatabase,
} from "@collectibles/devkit/postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";

export type TestDriver = "pglite" | "postgres";

export function testDriver(): TestDriver {
  const driver = process.env.TEST_DB_DRIVER;
  if (driver !== "pglite" && driver !== "postgres") {
    throw new Error("TEST_DB_DRIVER must be pglite or postgres (set by vitest.config.ts)");
  }
  return driver;
}

export interface TestDatabase extends DatabaseHandle {
  /** For PostgreSQL, the URL of this file's database. */
  url?: string;
}

/** A new empty PostgreSQL database on the run's server; `drop()` removes it. */
export function createPostgresDatabase(): Promise<ThrowAwayDatabase> {
  return createThrowAwayDatabase(inject("postgresUrl"), "api_test");
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDriver() === "pglite") {
    const template = fs.readFileSync(inject("pgliteTemplate"));
    return openDatabase({ driver: "pglite", loadDataDir: new Blob([template]) });
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ driver: "postgres", url: created.url, poolSize: 5 });
  return {
    ...handle,
    url: created.url,
    async close() {
      await handle.close();
      await created.drop();
    },
  };
}
