/**
 * Starts the API: validates the configuration, opens and migrates the database, and listens.
 * With no DATABASE_URL it opens the embedded PostgreSQL of the local stack (`pnpm start`).
 */
import type { AddressInfo } from "node:net";
import { createApp, routeDepsOf } from "./app.ts";
import {
  bootstrapApiKey,
  configuredImageStorage,
  databaseCheck,
  loadWallets,
  openConfiguredDatabase,
} from "./bootstrap.ts";
import { type RunningChainServices, startChainServices } from "./chain/chainServices.ts";
import { forgetFoundKeys, KEY_REVOKED_CHANNEL } from "./db/apiKeys.ts";
import { apiDataDir, EnvError, parseEnv } from "./env.ts";
import { boundHeapGrowth, collectStartupGarbage } from "./heap.ts";
import { createHttpServer } from "./http/server.ts";
import { createLogger } from "./logger.ts";
import { startHousekeeping } from "./services/housekeeping.ts";
import { startWebhookSender } from "./webhookSender.ts";

boundHeapGrowth();

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof EnvError) fail(error.message);
  throw error;
}

const logger = createLogger({ level: env.LOG_LEVEL });
const database = await openConfiguredDatabase(env).catch((error: Error) =>
  fail(`Cannot open the database: ${error.message}`),
);

try {
  const { wallets, mnemonicFile, created } = await loadWallets(env, database.db, logger);
  const storage = configuredImageStorage(env, database.db);
  const key = await bootstrapApiKey(env, database.db);
  const chain: RunningChainServices | undefined = env.RPC_URL
    ? startChainServices(env, database, logger, wallets)
    : undefined;

  // Known once the server listens (PORT=0 picks a port); PUBLIC_URL when set.
  let baseUrl = env.PUBLIC_URL ?? "";
  const appDeps = {
    baseUrl: () => baseUrl,
    config: env,
    db: database.db,
    logger,
    storage,
    wallets,
    readiness: [databaseCheck(database), ...(chain?.readiness ?? [])],
    chain: chain?.services,
  };
  const app = createApp(appDeps);
  // A key revoked by another API process (or the CLI) is refused here from the next request on.
  const stopListening = await database.listen(KEY_REVOKED_CHANNEL, () =>
    forgetFoundKeys(database.db),
  );
  const housekeeping = startHousekeeping(database.db, env, logger);
  const webhookSender = startWebhookSender(routeDepsOf(appDeps));
  const server = createHttpServer(app, env).listen(env.PORT, env.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "localhost" : env.HOST;
  baseUrl = env.PUBLIC_URL ?? `http://${host}:${port}`;

  const lines = [
    "",
    `Collectibles API listening on ${baseUrl}  (docs: ${baseUrl}/docs)`,
    `  database: PostgreSQL ${env.DATABASE_URL ? "(DATABASE_URL)" : "(the local stack's)"}`,
    `  data:     ${apiDataDir(env)}`,
    chain
      ? `  chain:    ${env.CHAIN_ID} at ${env.RPC_URL}, contract ${chain.client.contract}, relayer ${chain.client.address}`
      : "  chain:    none (RPC_URL unset): collectibles and claims cannot be created",
  ];
  if (mnemonicFile) {
    lines.push(`  wallets:  mnemonic ${created ? "generated into" : "read from"} ${mnemonicFile}`);
  }
  if (key.status === "created") {
    lines.push(
      "",
      "  A first API key was created. It is shown only this once, so keep it:",
      "",
      `    ${key.key}`,
      "",
      `  Try: curl -u ${key.key}: ${baseUrl}/organizations`,
    );
  } else if (key.status === "from_env") {
    lines.push("  API key:  the one in API_KEY is accepted");
  } else {
    lines.push(
      "  API keys: use an existing one, or create one:",
      "            pnpm --filter @collectibles/api keys create --name my-key",
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
  collectStartupGarbage();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    server.close(() => {
      Promise.all([housekeeping.stop(), webhookSender.stop(), chain?.stop(), stopListening()])
        .catch(() => {})
        .then(() => database.close())
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
} catch (error) {
  await database.close().catch(() => {});
  fail(error instanceof Error ? error.message : String(error));
}
