/**
 * The PostgreSQL server of a test run: TEST_DATABASE_URL's (a role allowed to CREATE DATABASE),
 * or, when it is unset, a throw-away server from npm started once for the run. Each test file
 * creates databases of its own on it.
 */
import { testRunPostgres } from "@collectibles/devkit/embedded-postgres";
import type { TestProject } from "vitest/node";

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
