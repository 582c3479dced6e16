/**
 * Throw-away PostgreSQL databases for tests and benchmarks: each run gets a database of its own
 * on the server a URL names, so it never sees another run's tables, and drops it at the end.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface ThrowAwayDatabase {
  /** Connection string of the new database. */
  url: string;
  /** Drops the database (connections still open are ended first). */
  drop(): Promise<void>;
}

/**
 * Creates a new database, empty or a copy of `template` (a database nobody is connected to);
 * fails, never skips, when the server cannot be reached.
 */
export async function createPostgresDatabase(
  serverUrl: string,
  prefix = "test",
  { template }: { template?: string } = {},
): Promise<ThrowAwayDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const from = template ? ` TEMPLATE "${template.replaceAll('"', '""')}"` : "";
  await asAdmin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"${from}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      asAdmin(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ),
  };
}

async function asAdmin(serverUrl: string, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${redactPassword(serverUrl)} is unreachable (${(error as Error).message}). ` +
        "Unset TEST_DATABASE_URL to have the tests start a PostgreSQL of their own.",
    );
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Why the database a connection string names cannot be used (unreachable, refused), if so. */
export async function connectionProblem(
  databaseUrl: string,
  timeoutMs = 5_000,
): Promise<string | undefined> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: timeoutMs,
  });
  // A connection that fails after connecting says so here, not as an unhandled 'error'.
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection string without its password, for messages. */
export function redactPassword(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "<invalid connection string>";
  }
}

/** Drops a schema and everything in it (a projection to be rebuilt, such as the indexer's). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const quoted = `"${schema.replaceAll('"', '""')}"`;
  await asAdmin(databaseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`));
}

/**
 * Runs SQL the way psql runs a file: one statement at a time (statements end with `;` at the end
 * of a line), each in its own transaction, so `CREATE DATABASE` works among them.
 */
export async function runSqlStatements(serverUrl: string, sql: string): Promise<void> {
  const statements = sql
    .split(/;\s*$/m)
    .map((statement) => statement.trim())
    .filter(Boolean);
  await asAdmin(serverUrl, async (client) => {
    for (const statement of statements) await client.query(statement);
  });
}
