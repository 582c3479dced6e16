/**
 * A fresh, migrated database for one test file, on the driver of the running vitest project:
 * PGlite in memory (from the run's template) or a new PostgreSQL database, dropped at close.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
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

/** A new empty PostgreSQL database; `drop()` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject("postgresUrl");
  const name = `api_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
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
