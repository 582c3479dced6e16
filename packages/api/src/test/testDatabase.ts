/**
 * A fresh, migrated PostgreSQL database for one test file, on the run's server (TEST_DATABASE_URL,
 * or the embedded one the run started: postgres.setup.ts), dropped at close.
 */
import {
  createPostgresDatabase as createThrowAwayDatabase,
  type ThrowAwayDatabase,
} from "@collectibles/devkit/postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/driver/client.ts";
import { organizations } from "../db/schema.ts";

export interface TestDatabase extends DatabaseHandle {
  /** The URL of this file's database. */
  url: string;
}

/** A new empty PostgreSQL database on the run's server; `drop()` removes it. */
export function createPostgresDatabase(): Promise<ThrowAwayDatabase> {
  return createThrowAwayDatabase(inject("postgresUrl"), "api_test");
}

/** A new database already migrated: a copy of the run's migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const created = await createThrowAwayDatabase(inject("postgresUrl"), "api_test", {
    template: inject("migratedTemplate"),
  });
  const handle = await openDatabase({ url: created.url, poolSize: 5 }, { migrate: false });
  return {
    ...handle,
    url: created.url,
    async close() {
      await handle.close();
      await created.drop();
    },
  };
}

/** An organization row, its wallet made from `walletIndex` (no key derives it: tests only). */
export async function insertOrganization(
  db: DatabaseHandle["db"],
  name: string,
  walletIndex: number,
  parentId?: string,
): Promise<typeof organizations.$inferSelect> {
  const [row] = await db
    .insert(organizations)
    .values({ name, parentId, walletIndex, walletAddress: testAddress(walletIndex) })
    .returning();
  if (!row) throw new Error(`organization ${name} not created`);
  return row;
}

/** An address made from a number, e.g. 1 -> 0x000…001. */
export function testAddress(n: number): string {
  return `0x${String(n).padStart(40, "0")}`;
}
