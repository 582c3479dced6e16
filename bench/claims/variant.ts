/**
 * One variant of the service, torn down completely before the next starts: a fresh local chain
 * and deployment; on `postgres` two fresh databases (indexer, API) on BENCH_POSTGRES_URL's server,
 * dropped at the end, on `pglite` temp folders; the Ponder indexer and the real API entry
 * (CONFIRM_TIMEOUT_MS=0) as child processes; an organization and a collectible of BENCH_CLAIMS
 * editions through the API; then the burst, with memory sampled and CPU time per process read
 * from /proc around it (and, with BENCH_PROFILE=1, the API's CPU profile summarised).
 */
import fs from "node:fs";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { DEV_MNEMONIC, type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import { createPostgresDatabase, redactPassword } from "@collectibles/devkit/postgres";
import { freePort } from "@collectibles/devkit/processes";
import { type RunningIndexer, startIndexer } from "@collectibles/indexer/testing";
import { type SelfTime, topSelfTime } from "../lib/cpuProfile.ts";
import { processTable } from "../lib/proc.ts";
import { API_KEY, callJson, startApi } from "./apiProcess.ts";
import { type BurstResult, burst } from "./burst.ts";
import {
  CLAIMS,
  DATABASE_NAMES,
  type DatabaseKind,
  log,
  now,
  onCleanUp,
  POSTGRES_URL,
  PROFILE,
  sleep,
} from "./config.ts";
import { cpuPerClaim, cpuSnapshot, type Watched } from "./cpu.ts";
import { sampleMemory } from "./memory.ts";
import { viem } from "./viem.ts";

type Hex = `0x${string}`;

export interface VariantResult {
  database: DatabaseKind;
  name: string;
  /** What the API said it runs on. */
  apiDatabase: string;
  startup: { indexerReadyMs: number; apiStartMs: number };
  burst: BurstResult;
  /** CPU milliseconds per confirmed claim of each process (and their total) during the burst. */
  cpuMsPerClaim: Record<string, number>;
  /** With BENCH_PROFILE=1: the API's functions with the most self time over its whole run. */
  apiProfile?: { totalMs: number; rows: SelfTime[] };
  memoryBytes: Record<"api" | "indexer", { idle: number; burst: number; lifetimePeak: number }>;
  durationMs: number;
}

export interface VariantFailure {
  database: DatabaseKind;
  name: string;
  error: string;
  durationMs: number;
}

export async function runVariant(kind: DatabaseKind, tmp: string): Promise<VariantResult> {
  const name = DATABASE_NAMES[kind];
  const started = now();
  const dir = path.join(tmp, kind);
  fs.mkdirSync(dir);

  log(`a fresh local chain and deployment`);
  const chain: LocalChain = await startLocalChain();
  onCleanUp(() => chain.stop());
  const deploymentsDir = path.join(dir, "deployments");
  fs.mkdirSync(deploymentsDir);
  const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
  const contract = deployment.address as Hex;

  // PostgreSQL: a database of its own for each, as two services would have in production.
  // Registered before the processes that use them, so they are dropped after those stop.
  let indexerDatabaseUrl: string | undefined;
  let apiDatabaseUrl: string | undefined;
  if (kind === "postgres") {
    if (!POSTGRES_URL) throw new Error("BENCH_POSTGRES_URL is not set");
    for (const which of ["indexer", "api"] as const) {
      const database = await createPostgresDatabase(POSTGRES_URL, `bench_claims_${which}`);
      onCleanUp(async () => {
        await database.drop();
        log(`dropped the ${which}'s database`);
      });
      if (which === "indexer") indexerDatabaseUrl = database.url;
      else apiDatabaseUrl = database.url;
      log(`created the ${which}'s database ${redactPassword(database.url)}`);
    }
  }

  log("starting the indexer");
  const indexerPort = await freePort();
  const indexerStarted = now();
  const indexer: RunningIndexer = await startIndexer({
    rpcUrl: chain.rpcUrl,
    deploymentsDir,
    dataDir: path.join(dir, "indexer"),
    ...(indexerDatabaseUrl ? { databaseUrl: indexerDatabaseUrl } : {}),
    port: indexerPort,
    waitForReady: true,
  });
  onCleanUp(() => indexer.stop());
  const indexerReadyMs = Math.round(now() - indexerStarted);
  const ponder = processTable().find(
    (p) => p.cmdline.includes("ponder") && p.cmdline.includes(`--port ${indexerPort}`),
  );
  if (!ponder) throw new Error("could not find the Ponder process");

  log(`indexer ready in ${indexerReadyMs} ms; starting the API`);
  const apiStarted = now();
  const profileDir = PROFILE ? path.join(dir, "api-profile") : undefined;
  const api = await startApi(
    {
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: path.join(dir, "data"),
      ...(apiDatabaseUrl ? { DATABASE_URL: apiDatabaseUrl } : {}),
      API_KEY,
      WALLET_MNEMONIC: DEV_MNEMONIC,
      RPC_URL: chain.rpcUrl,
      CHAIN_ID: "31337",
      DEPLOYMENTS_DIR: deploymentsDir,
      INDEXER_URL: indexer.url,
      // POST answers 202 at once: the burst measures acceptance and confirmation separately.
      CONFIRM_TIMEOUT_MS: "0",
      // One client sends far more than the default per-key limit allows.
      RATE_LIMIT_MAX: "1000000",
      RATE_LIMIT_WINDOW_MS: String(24 * 60 * 60 * 1000),
    },
    profileDir,
  );
  onCleanUp(() => api.stop());
  const apiStartMs = Math.round(now() - apiStarted);
  log(`API up at ${api.url} in ${apiStartMs} ms (${api.database})`);
  const onPostgres = api.database.startsWith("PostgreSQL");
  if (onPostgres !== (kind === "postgres")) {
    throw new Error(`the API runs on ${api.database}, not on ${name}`);
  }

  const memory = sampleMemory({ api: api.pid, indexer: ponder.pid });
  onCleanUp(async () => memory.stop());

  const org = await callJson<{ data: { id: string } }>(api.url, "POST", "/organizations", {
    name: "Claims benchmark",
  });
  const created = await callJson<{ data: { id: string } }>(api.url, "POST", "/collectibles", {
    organization_id: org.json.data.id,
    name: "Burst",
    description: "End-to-end claims benchmark",
    total_count: CLAIMS,
  });
  const collectibleId = created.json.data.id;
  for (let i = 0; ; i++) {
    const { json } = await callJson<{ data: { status: string } }>(
      api.url,
      "GET",
      `/collectibles/${collectibleId}`,
    );
    if (json.data.status === "confirmed") break;
    if (json.data.status === "failed") throw new Error("the collectible failed on-chain");
    if (i > 1200) throw new Error("the collectible was not confirmed within 2 minutes");
    await sleep(100);
  }
  // Let the API settle after start-up, so its idle memory is measured as such.
  await sleep(1000);
  memory.mark("idle");
  await sleep(2000);

  log(`collectible ${collectibleId} confirmed; burst of ${CLAIMS} POST /claims`);
  const chainClient = viem.createPublicClient({
    transport: viem.http(chain.rpcUrl, { retryCount: 0 }),
  });
  const watched: Record<string, Watched> = {
    API: { pid: api.pid },
    "indexer (Ponder)": { pid: ponder.pid },
    "chain (anvil)": { pid: chain.process.pid },
    ...(kind === "postgres" ? { "PostgreSQL server": { command: /^postgres/ } } : {}),
  };
  const cpuBefore = cpuSnapshot(watched);
  const result = await burst(api.url, indexer.url, chainClient, contract, collectibleId, memory);
  const cpuMsPerClaim = cpuPerClaim(cpuBefore, cpuSnapshot(watched), result.accepted);
  memory.stop();
  if (result.rejected.length > 0 || result.accepted !== result.claims) {
    throw new Error(
      `${result.claims - result.accepted} of ${result.claims} claims were not accepted, e.g. ` +
        JSON.stringify(result.rejected[0]),
    );
  }
  const peaks = memory.peaks();
  const hwm = memory.highWaterMarks();
  let apiProfile: VariantResult["apiProfile"];
  if (profileDir) {
    await api.stop(); // after reading its memory: V8 writes the profile as the process exits
    apiProfile = topSelfTime(profileDir);
  }
  log(
    `burst: ${result.confirmedPerSecond.toFixed(0)} confirmed claims/s; accept p50 ${result.acceptMs.p50} ms, ` +
      `confirm p50 ${result.confirmMs.p50} ms; API listed all confirmed after ${result.timelineMs.apiAllConfirmed} ms`,
  );
  return {
    database: kind,
    name,
    // "PGlite in /tmp/..." names a temp folder: the kind is enough.
    apiDatabase: api.database.replace(/ in .*$/, ""),
    startup: { indexerReadyMs, apiStartMs },
    burst: result,
    cpuMsPerClaim,
    ...(apiProfile ? { apiProfile } : {}),
    memoryBytes: {
      api: { idle: peaks.api?.idle ?? 0, burst: peaks.api?.burst ?? 0, lifetimePeak: hwm.api ?? 0 },
      indexer: {
        idle: peaks.indexer?.idle ?? 0,
        burst: peaks.indexer?.burst ?? 0,
        lifetimePeak: hwm.indexer ?? 0,
      },
    },
    durationMs: Math.round(now() - started),
  };
}
