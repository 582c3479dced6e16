/**
 * A vitest `globalSetup` that gives a test run its PostgreSQL server: TEST_DATABASE_URL's (a role
 * allowed to CREATE DATABASE), or, when it is unset, a throw-away server from npm started once for
 * the run. Tests read its URL with `inject("postgresUrl")` and create databases of their own on it.
 */
import type { TestProject } from "vitest/node";
import { testRunPostgres } from "./embeddedPostgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A role on the run's server that may create databases. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await testRunPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
