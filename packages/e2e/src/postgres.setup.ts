/**
 * The PostgreSQL server of an e2e run, for the stacks started with a DATABASE_URL of their own:
 * TEST_DATABASE_URL's (a role allowed to CREATE DATABASE), or, when it is unset, a throw-away
 * server from npm started once for the run. Each test creates its databases on it. The default
 * stacks need none of this: `pnpm start` runs its own PostgreSQL in its data folder.
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
