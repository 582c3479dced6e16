/**
 * Opens the database, PostgreSQL (the embedded server `pnpm start` runs, or DATABASE_URL's),
 * behind Drizzle, and applies the migrations in `drizzle/`.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "../schema.ts";
import { databaseErrorText } from "./pgError.ts";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** A database or an open transaction: repository functions accept both. */
export type Queryable = Database | Transaction;

/** The driver's own client under Drizzle: the `pg.Pool`, or none for a transaction. */
export function driverClientOf(q: Queryable): unknown {
  return (q as { $client?: unknown }).$client;
}

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../../../drizzle");

export interface DatabaseOptions {
  url: string;
  /** Connections this process keeps open at most. */
  poolSize?: number;
}

export interface DatabaseHandle {
  db: Database;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * A lock held for as long as this process keeps it: a PostgreSQL session advisory lock on a
   * connection of its own, so one process among several holds `name`. Null when another holds
   * it.
   */
  tryLock(name: string): Promise<SessionLock | null>;
  /**
   * Calls `onNotice` for every NOTIFY on `channel`, from any process on the database (a
   * connection of its own, opened again after it drops). Answers how to stop listening.
   */
  listen(channel: string, onNotice: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface SessionLock {
  /** False once the lock's connection is gone (the lock went with it). */
  alive(): Promise<boolean>;
  release(): Promise<void>;
}

export async function openDatabase(
  { url, poolSize }: DatabaseOptions,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<DatabaseHandle> {
  try {
    return await openPostgres(url, poolSize, migrate);
  } catch (error) {
    throw new Error(databaseErrorText(error), { cause: error });
  }
}

async function openPostgres(url: string, poolSize = 10, migrate: boolean): Promise<DatabaseHandle> {
  // The API's tables live in `public` (its migrations name it). PostgreSQL's default search_path
  // starts with a schema named after the role, which may exist (the indexer's default schema is
  // `collectibles`, like the role the docs create): unqualified names would land there.
  // Times in UTC: a list page reads them as text (pageStatements.ts), already in the answer's form.
  // random_page_cost: PostgreSQL's default (4) prices a random read as a disk seek, so a page's
  // visibility check scanned all 10,000 organizations to keep 100 collectibles' (7.4 ms a page
  // of 100 claims, against 2.6 ms with 1.1, the usual value for data in memory or on SSD).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: "-c search_path=public -c TimeZone=UTC -c random_page_cost=1.1",
  });
  // An idle client that loses its connection must not crash the process; the next query retries.
  pool.on("error", () => {});
  try {
    if (migrate) {
      // Several API processes may start at once: one migrates, the others wait for it.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock(hashtext('collectibles_api_migrations'))");
        await migrateNodePg(drizzleNodePg(client, { schema }), {
          migrationsFolder: MIGRATIONS_FOLDER,
        });
      } finally {
        await client
          .query("select pg_advisory_unlock(hashtext('collectibles_api_migrations'))")
          .catch(() => {});
        client.release();
      }
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  return {
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    listen: (channel, onNotice) => listenOnPool(pool, channel, onNotice),
    async tryLock(name) {
      const client = await pool.connect();
      let lost = false;
      const onError = () => {
        lost = true;
      };
      client.on("error", onError);
      // The connection goes back to the pool without the listener: a lock tried every second
      // would otherwise leave one more on it each time.
      const giveBack = (destroy: boolean) => {
        client.off("error", onError);
        client.release(destroy);
      };
      try {
        const result = await client.query<{ ok: boolean }>(
          "select pg_try_advisory_lock(hashtext($1)) as ok",
          [name],
        );
        if (!result.rows[0]?.ok) {
          giveBack(false);
          return null;
        }
      } catch (error) {
        giveBack(true);
        throw error;
      }
      return {
        async alive() {
          if (lost) return false;
          try {
            await client.query("select 1");
            return true;
          } catch {
            return false;
          }
        },
        async release() {
          await client.query("select pg_advisory_unlock(hashtext($1))", [name]).catch(() => {});
          giveBack(lost);
        },
      };
    },
  };
}

/** How long a dropped LISTEN connection waits before connecting again. */
const RELISTEN_MS = 1_000;

/** LISTEN on a pool connection of its own, connecting again whenever it drops. */
async function listenOnPool(
  pool: pg.Pool,
  channel: string,
  onNotice: () => void,
): Promise<() => Promise<void>> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    try {
      const connected = await pool.connect();
      connected.on("notification", (message) => {
        if (message.channel === channel) onNotice();
      });
      connected.on("error", () => {
        connected.release(true);
        if (client === connected) client = undefined;
        // Notices sent while reconnecting are missed: a listener may not rely on every one.
        if (!stopped) retry = setTimeout(connect, RELISTEN_MS);
      });
      await connected.query(`listen ${channel}`);
      client = connected;
      if (stopped) await stop();
    } catch {
      if (!stopped) retry = setTimeout(connect, RELISTEN_MS);
    }
  };
  const stop = async () => {
    stopped = true;
    clearTimeout(retry);
    const listening = client;
    client = undefined;
    if (listening) {
      await listening.query(`unlisten ${channel}`).catch(() => {});
      listening.release();
    }
  };
  await connect();
  return stop;
}

/** `db.execute()` answers `{ rows }` (node-postgres); this reads them typed. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
