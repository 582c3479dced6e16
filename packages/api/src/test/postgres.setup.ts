/**
 * The postgres half of the suite needs TEST_DATABASE_URL (a role allowed to CREATE DATABASE),
 * e.g. postgres://collectibles:collectibles@127.0.0.1:5432/collectibles. Missing or unreachable
 * fails the run: a CI job without PostgreSQL must not pass silently.
 */
import pg from "pg";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      "TEST_DATABASE_URL is not set. The postgres test project needs a PostgreSQL role that may " +
        "create databases (postgres://user:password@127.0.0.1:5432/db). To run only the PGlite " +
        "half: vitest run --project 'pglite*'",
    );
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is unreachable: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
  project.provide("postgresUrl", url);
}
