/**
 * The service as it runs by default, for a benchmark: a fresh local chain (anvil) with the
 * contract deployed, the Ponder indexer and the real API entry as child processes, the indexer
 * and the API each on a fresh database of its own on the PostgreSQL server `postgresUrl` names
 * (dropped by `stop()`), and the root pid of every part, PostgreSQL's server included when it
 * runs on this machine, so each can be measured.
 */
import fs from "node:fs";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { DEV_MNEMONIC, type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPostgresDatabase, redactPassword } from "@collectibles/devkit/postgres";
import { freePort } from "@collectibles/devkit/processes";
import { type RunningIndexer, startIndexer } from "@collectibles/indexer/testing";
import { API_KEY, type RunningApi, startApi } from "./apiProcess.ts";
import { processTable } from "./proc.ts";
import { postmasterPid } from "./stackMemory.ts";

export interface StackOptions {
  /** A PostgreSQL server URL of a role allowed to create databases. */
  postgresUrl: string;
  /** A folder for the deployment and the API's data (the caller removes it). */
  dir: string;
  /** Prefix of the databases made, e.g. `bench_claims`. */
  name: string;
  log(message: string): void;
  /** Runs on the API's database before the API opens it: a production API finds its data. */
  prepareApiDatabase?(url: string): Promise<void>;
  /** With it, the API writes a V8 CPU profile there when it stops. */
  profileDir?: string;
}

export interface Stack {
  api: RunningApi;
  indexer: RunningIndexer;
  chain: LocalChain;
  contract: `0x${string}`;
  /** Root pid of each part; PostgreSQL's server only when it runs on this machine. */
  pids: { api: number; indexer: number; chain: number; postgres?: number };
  startup: { indexerReadyMs: number; apiStartMs: number };
  /** Stops the API, the indexer and the chain, then drops the two databases. */
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const { postgresUrl, dir, log } = options;
  // Each step registers its undoing first; stop() (or a failed start) runs them in reverse.
  const undo: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    while (undo.length > 0) {
      await undo
        .pop()?.()
        .catch((error: Error) => log(`stopping: ${error.message}`));
    }
  };
  try {
    log("a fresh local chain and deployment");
    const chain = await startLocalChain();
    undo.push(() => chain.stop());
    const deploymentsDir = path.join(dir, "deployments");
    fs.mkdirSync(deploymentsDir, { recursive: true });
    const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });

    // A database of its own for each, as two services would have in production.
    const databaseFor = async (which: "indexer" | "api") => {
      const database = await createPostgresDatabase(postgresUrl, `${options.name}_${which}`);
      undo.push(() => database.drop());
      log(`created the ${which}'s database ${redactPassword(database.url)}`);
      return database.url;
    };
    const indexerDatabaseUrl = await databaseFor("indexer");
    const apiDatabaseUrl = await databaseFor("api");
    await options.prepareApiDatabase?.(apiDatabaseUrl);

    log("starting the indexer");
    const indexerPort = await freePort();
    const indexerStarted = performance.now();
    const indexer = await startIndexer({
      rpcUrl: chain.rpcUrl,
      deploymentsDir,
      databaseUrl: indexerDatabaseUrl,
      port: indexerPort,
      waitForReady: true,
    });
    undo.push(() => indexer.stop());
    const indexerReadyMs = Math.round(performance.now() - indexerStarted);
    const ponder = processTable().find(
      (p) => p.cmdline.includes("ponder") && p.cmdline.includes(`--port ${indexerPort}`),
    );
    if (!ponder) throw new Error("could not find the Ponder process");

    log(`indexer ready in ${indexerReadyMs} ms; starting the API`);
    const apiStarted = performance.now();
    const api = await startApi(
      {
        NODE_ENV: "production",
        // Request logs stay on (JSON lines to stdout, read and dropped), as in production.
        LOG_LEVEL: "info",
        HOST: "127.0.0.1",
        PORT: "0",
        DATA_DIR: path.join(dir, "data"),
        DATABASE_URL: apiDatabaseUrl,
        API_KEY,
        WALLET_MNEMONIC: DEV_MNEMONIC,
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: "31337",
        DEPLOYMENTS_DIR: deploymentsDir,
        INDEXER_URL: indexer.url,
        // POST answers 202 at once: acceptance and confirmation are measured apart.
        CONFIRM_TIMEOUT_MS: "0",
        // One client sends far more than the default per-key limit allows.
        RATE_LIMIT_MAX: "1000000",
        RATE_LIMIT_WINDOW_MS: String(24 * 60 * 60 * 1000),
      },
      { profileDir: options.profileDir, log },
    );
    undo.push(() => api.stop());
    const apiStartMs = Math.round(performance.now() - apiStarted);
    log(`API up at ${api.url} in ${apiStartMs} ms`);

    const postmaster = await postmasterPid(postgresUrl);
    if (!postmaster) log("PostgreSQL's processes are not on this machine: not measured");
    return {
      api,
      indexer,
      chain,
      contract: deployment.address as `0x${string}`,
      pids: {
        api: api.pid,
        indexer: ponder.pid,
        chain: chain.process.pid,
        ...(postmaster ? { postgres: postmaster } : {}),
      },
      startup: { indexerReadyMs, apiStartMs },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
