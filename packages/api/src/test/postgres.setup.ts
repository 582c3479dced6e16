/**
 * The PostgreSQL every database test runs on: TEST_DATABASE_URL's server (a role allowed to
 * CREATE DATABASE), or, when it is unset, a throw-away server from npm started for this run. A
 * migrated template database is made once; each test file's database is a copy of it.
 */
import { testRunPostgres } from "@collectibles/devkit/embedded-postgres";
import { createPostgresDatabase } from "@collectibles/devkit/postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/driver/client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A role on the run's server that may create databases. */
    postgresUrl: string;
    /** The migrated database each test file's database is copied from. */
    migratedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await testRunPostgres();
  const { url } = server;
  try {
    const template = await createPostgresDatabase(url, "api_template");
    const migrated = await openDatabase({ url: template.url, poolSize: 1 });
    await migrated.close();
    project.provide("postgresUrl", url);
    project.provide("migratedTemplate", new URL(template.url).pathname.slice(1));
    return async () => {
      await template.drop();
      await server.stop();
    };
  } catch (error) {
    await server.stop();
    throw process.env.TEST_DATABASE_URL
      ? new Error(`TEST_DATABASE_URL is unusable: ${(error as Error).message}`, { cause: error })
      : error;
  }
}
