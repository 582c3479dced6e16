/**
 * Starts the real app on an ephemeral port over a fresh database, and talks to it over HTTP.
 */
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { type AppDeps, createApp, routeDepsOf } from "../app.ts";
import { type RunningChainServices, startChainServices } from "../chain/chainServices.ts";
import { createApiKey } from "../db/apiKeys.ts";
import type { ReadinessCheck } from "../deps.ts";
import { type Env, parseEnv } from "../env.ts";
import { createHttpServer } from "../http/server.ts";
import { DatabaseImageStorage } from "../images/databaseImageStorage.ts";
import { LocalImageStorage } from "../images/imageStorage.ts";
import { createLogger, type Logger } from "../logger.ts";
import { createWallets, type Wallets } from "../wallets/wallets.ts";
import { startWebhookSender } from "../webhookSender.ts";
import { TEST_MNEMONIC } from "./constants.ts";
import { createTestDatabase, type TestDatabase } from "./testDatabase.ts";

export { TEST_MNEMONIC } from "./constants.ts";

export interface CallOptions {
  /** The API key to send as the Basic username; `null` sends no Authorization header. */
  key?: string | null;
  json?: unknown;
  body?: RequestInit["body"];
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
  body: any;
  raw: Buffer;
}

export interface TestServer {
  url: string;
  env: Env;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface TestApp extends TestServer {
  /** What answers so far did that the OpenAPI document does not describe. */
  undocumentedAnswers: readonly string[];
  database: TestDatabase;
  wallets: Wallets;
  storageDir: string;
  /** An unscoped key created for this file. */
  adminKey: string;
  /** A new key, optionally scoped to an organization. */
  createKey(organizationId?: string): Promise<string>;
  /** Another app over the same database with different settings (e.g. a tiny rate limit). */
  startSibling(options?: ServerOptions): Promise<TestServer>;
}

export interface ServerOptions {
  /** e.g. RPC_URL, DEPLOYMENTS_DIR, INDEXER_URL: with RPC_URL the relayer runs in this app. */
  env?: Record<string, string>;
  readiness?: ReadinessCheck[];
  logger?: Logger;
}

async function listen(
  database: TestDatabase,
  wallets: Wallets,
  storageDir: string,
  { env: overrides = {}, readiness, logger }: ServerOptions,
  defaultKey: () => string,
  undocumentedAnswers: string[],
): Promise<TestServer> {
  const env = parseEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    // Tests send many refused keys from one address on purpose; the address limit has its own.
    ANONYMOUS_RATE_LIMIT_MAX: "1000000",
    ...overrides,
  });
  const log = logger ?? createLogger({ level: env.LOG_LEVEL });
  const chain: RunningChainServices | undefined = env.RPC_URL
    ? startChainServices(env, database, log, wallets)
    : undefined;
  let baseUrl = env.PUBLIC_URL ?? "";
  const appDeps: AppDeps = {
    baseUrl: () => baseUrl,
    auditResponse: (problems) => undocumentedAnswers.push(...problems),
    config: env,
    db: database.db,
    logger: log,
    // As the API configures it (bootstrap.ts): in the database, older uploads in a folder.
    storage: new DatabaseImageStorage(database.db, new LocalImageStorage(storageDir)),
    wallets,
    readiness: readiness ?? [
      { name: "database", critical: true, check: () => database.ping() },
      ...(chain?.readiness ?? []),
    ],
    chain: chain?.services,
  };
  const app = createApp(appDeps);
  const webhookSender = startWebhookSender(routeDepsOf(appDeps));
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(app, env).listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  baseUrl = env.PUBLIC_URL ?? url;
  return {
    url,
    env,
    async call(method, urlPath, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? defaultKey() : options.key;
      if (key !== null) {
        headers.authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
      }
      let body = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers["content-type"] ??= "application/json";
      }
      const response = await fetch(url + urlPath, { method, headers, body });
      const raw = Buffer.from(await response.arrayBuffer());
      const isJson = response.headers.get("content-type")?.includes("json");
      return {
        status: response.status,
        headers: response.headers,
        body: isJson && raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined,
        raw,
      };
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await webhookSender.stop();
      await chain?.stop();
    },
  };
}

export async function startTestApp(options: ServerOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const wallets = createWallets(TEST_MNEMONIC);
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "api-images-"));
  const { key: adminKey } = await createApiKey(database.db, { name: "test admin" });
  const siblings: TestServer[] = [];
  // What answers did that the OpenAPI document does not describe, across this app's servers.
  const undocumentedAnswers: string[] = [];
  const main = await listen(
    database,
    wallets,
    storageDir,
    options,
    () => adminKey,
    undocumentedAnswers,
  );
  return {
    ...main,
    database,
    wallets,
    storageDir,
    adminKey,
    undocumentedAnswers,
    async createKey(organizationId) {
      const { key } = await createApiKey(database.db, {
        name: "test key",
        organizationId: organizationId ?? null,
      });
      return key;
    },
    async startSibling(siblingOptions = {}) {
      const sibling = await listen(
        database,
        wallets,
        storageDir,
        siblingOptions,
        () => adminKey,
        undocumentedAnswers,
      );
      siblings.push(sibling);
      return sibling;
    },
    async close() {
      for (const sibling of siblings) await sibling.close();
      await main.close();
      await database.close();
      fs.rmSync(storageDir, { recursive: true, force: true });
      // Every answer of every test is held against the OpenAPI document.
      if (undocumentedAnswers.length > 0) {
        const problems = [...new Set(undocumentedAnswers)].join("\n");
        throw new Error(`Answers the OpenAPI document does not describe:\n${problems}`);
      }
    },
  };
}
