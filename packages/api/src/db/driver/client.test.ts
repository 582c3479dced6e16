import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../../test/testDatabase.ts";
import { openDatabase, rowsOf } from "./client.ts";

const TABLES = [
  "api_keys",
  "claim_counts",
  "claims",
  "collectibles",
  "event_position",
  "events",
  "idempotency_keys",
  "images",
  "organizations",
  "settings",
  "transfers_home",
  "user_addresses",
  "user_count_changes",
  "user_counts",
  "users",
  "wallet_link_nonces",
  "webhook_messages",
  "webhooks",
];

type Db = Awaited<ReturnType<typeof openDatabase>>["db"];

async function tables(db: Db) {
  const result = await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
  );
  return rowsOf<{ table_name: string }>(result).map((row) => row.table_name);
}

/** Runs `test` on a database of its own, dropped afterwards whatever happens. */
async function onNewDatabase(test: (url: string) => Promise<void>) {
  const created = await createPostgresDatabase();
  try {
    await test(created.url);
  } finally {
    await created.drop();
  }
}

/** Changes a database before the API first migrates it, as another program might. */
async function beforeFirstMigration(url: string, change: (db: Db) => Promise<unknown>) {
  const setup = await openDatabase({ url }, { migrate: false });
  try {
    await change(setup.db);
  } finally {
    await setup.close();
  }
}

describe("openDatabase on PostgreSQL", () => {
  it("migrates an empty database once even when several processes start together", () =>
    onNewDatabase(async (url) => {
      const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ url, poolSize: 2 })));
      for (const handle of handles) expect(await tables(handle.db)).toEqual(TABLES);
      await handles[0]?.ping();
      await Promise.all(handles.map((handle) => handle.close()));
    }));

  it("keeps its tables in public when a schema is named after the database role (the indexer's default)", () =>
    onNewDatabase(async (url) => {
      await beforeFirstMigration(url, async (db) => {
        // The default search_path is `"$user", public`: a schema named after the role comes first.
        const [role] = rowsOf<{ name: string }>(await db.execute(sql`select current_user as name`));
        await db.execute(sql`create schema ${sql.identifier(role?.name ?? "")}`);
      });
      const handle = await openDatabase({ url, poolSize: 2 });
      expect(await tables(handle.db)).toEqual(TABLES);
      await handle.close();
    }));

  it("names the database's own error when a migration fails", () =>
    onNewDatabase(async (url) => {
      await beforeFirstMigration(url, (db) => db.execute(sql`create table organizations (id int)`));
      await expect(openDatabase({ url })).rejects.toThrow(
        /relation "organizations" already exists \(42P07\)/,
      );
    }));

  it("grants a session lock to one process at a time and frees it on release", () =>
    onNewDatabase(async (url) => {
      const [a, b] = await Promise.all([1, 2].map(() => openDatabase({ url, poolSize: 3 })));
      try {
        const held = await a?.tryLock("relayer:test");
        expect(held).not.toBeNull();
        expect(await held?.alive()).toBe(true);
        expect(await b?.tryLock("relayer:test")).toBeNull();
        const other = await b?.tryLock("relayer:other");
        expect(other).not.toBeNull();
        await other?.release();
        await held?.release();
        const taken = await b?.tryLock("relayer:test");
        expect(taken).not.toBeNull();
        await taken?.release();
      } finally {
        await Promise.all([a?.close(), b?.close()]);
      }
    }));

  it("takes and refuses a session lock again and again on one connection without leaving a listener behind per try", () =>
    onNewDatabase(async (url) => {
      const [a, b] = await Promise.all([1, 2].map(() => openDatabase({ url, poolSize: 1 })));
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on("warning", onWarning);
      try {
        // One connection each: every try reuses it, as a follower's round a second does.
        for (let i = 0; i < 20; i++) {
          const held = await a?.tryLock("follower:test");
          expect(held).not.toBeNull();
          expect(await b?.tryLock("follower:test")).toBeNull();
          await held?.release();
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings).toEqual([]);
      } finally {
        process.off("warning", onWarning);
        await Promise.all([a?.close(), b?.close()]);
      }
    }));

  it("fails to open an unreachable server", async () => {
    await expect(openDatabase({ url: "postgres://nobody:x@127.0.0.1:1/none" })).rejects.toThrow();
  });
});
