/**
 * One real API for every test file of this package, started once: a throw-away local chain with
 * the contract deployed, the indexer, and the API's real entry as a child process, both on a
 * PostgreSQL (TEST_DATABASE_URL's server, else one from npm started here), through the API
 * package's own test helpers. Collectibles and claims are confirmed on the chain
 * as in production. The files read its URL and key with `inject("apiUrl")`/`inject("apiKey")`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApiProcess } from "@collectibles/api/testing/apiProcess";
import { startChainStack } from "@collectibles/api/testing/chainStack";
import { testRunPostgres } from "@collectibles/devkit/embedded-postgres";
import { createPostgresDatabase } from "@collectibles/devkit/postgres";
import type { TestProject } from "vitest/node";

const API_KEY = "ck_live_clientTestsClientTests0001";

declare module "vitest" {
  export interface ProvidedContext {
    apiUrl: string;
    apiKey: string;
    // The API's test helpers imported above read these two in functions this package never
    // calls; the API's own global setup declares them, repeated so those files type-check here.
    migratedTemplate: string;
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await testRunPostgres();
  const postgresUrl = server.url;
  const database = await createPostgresDatabase(postgresUrl, "client_test");
  const stack = await startChainStack({ postgresUrl });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "client-api-"));
  const cleanUp = async () => {
    await stack.stop();
    await database.drop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const api = await startApiProcess(
      {
        ...stack.env,
        NODE_ENV: "test",
        LOG_LEVEL: "warn",
        PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        API_KEY,
        // POST /collectibles and /claims answer once confirmed (201), as the README shows.
        CONFIRM_TIMEOUT_MS: "60000",
        // The tests' webhook receiver listens on loopback.
        WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
        WEBHOOK_RETRY_BASE_MS: "500",
      },
      "the API for the client tests",
    );
    project.provide("apiUrl", api.url);
    project.provide("apiKey", API_KEY);
    return async () => {
      await api.process.stop();
      await cleanUp();
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
