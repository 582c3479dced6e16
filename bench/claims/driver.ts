/**
 * The measuring process of the end-to-end claims benchmark (started with tsx by
 * bench/benchmarks/claims.ts), on fresh local chains:
 *
 * 1. the baseline, before anything else runs, on a local chain and deployment of its own
 *    (Collectibles deployed with viem, admin = minter = account #0): BENCH_CLAIMS claims sent
 *    straight to the contract, one `claim` transaction each, signed locally with the minter's key
 *    and sent with explicit nonces, BENCH_BASELINE_IN_FLIGHT at once, each waited for until its
 *    receipt; that node is stopped afterwards;
 * 2. then, for each database in BENCH_CLAIM_DATABASES (`postgres`, `pglite`; in that order by
 *    default), one variant of the service, torn down completely before the next starts:
 *    a. a fresh local chain and deployment;
 *    b. on `postgres`, two fresh databases (one for the indexer, one for the API) created on the
 *       server BENCH_POSTGRES_URL names and dropped at the end; on `pglite`, temp folders;
 *    c. the Ponder indexer and the real API entry (`packages/api/src/index.ts`,
 *       CONFIRM_TIMEOUT_MS=0) as child processes, each on its database;
 *    d. an organization and a collectible of BENCH_CLAIMS editions through the API, then the
 *       burst: BENCH_CLAIMS `POST /claims` by email (the API creates each holder),
 *       BENCH_CLAIM_CONNECTIONS at once over keep-alive HTTP. Meanwhile the indexer's SQL route
 *       is polled every BENCH_CLAIM_POLL_MS for the collectible's newly indexed claims (by
 *       edition, so each poll returns only new rows), and the contract's `claimedCount` for the
 *       mined curve;
 *    e. at the end, GET /claims is paged until the API shows every claim confirmed.
 *    A variant that fails is recorded as failed (with its error) and the next one still runs.
 *
 * Progress lines go to stderr as `[claims] ...`; the last stdout line is `RESULT <json>`.
 * Every process and database made here goes at the end, also on failure or SIGINT/SIGTERM/SIGHUP.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { relayerKeyOf } from "@collectibles/api/embed";
import { collectiblesAbi, uuidToBytes16 } from "@collectibles/contracts";
import { deployCollectibles } from "@collectibles/deploy/testing";
import {
  type LocalChain,
  startLocalChain,
  DEV_MNEMONIC as TEST_MNEMONIC,
} from "@collectibles/devkit/chain";
import {
  createPostgresDatabase as createTestDatabase,
  redactPassword as redact,
} from "@collectibles/devkit/postgres";
import { freePort, type ManagedProcess, startProcess } from "@collectibles/devkit/processes";
import { and, asc, claim, createClient, eq, schema, sql } from "@collectibles/indexer/client";
import { type RunningIndexer, startIndexer } from "@collectibles/indexer/testing";
import { processTable } from "../lib/proc.ts";
import { type MemorySampler, sampleMemory } from "./memory.ts";
import { viem, viemAccounts } from "./viem.ts";

type Hex = `0x${string}`;

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CLAIM_CONNECTIONS ?? 50);
const BASELINE_IN_FLIGHT = Number(process.env.BENCH_BASELINE_IN_FLIGHT ?? 16);
const POLL_MS = Number(process.env.BENCH_CLAIM_POLL_MS ?? 100);
/** PostgreSQL server (a role allowed to create databases) for the `postgres` variant. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "";

const DATABASE_NAMES = { postgres: "PostgreSQL", pglite: "PGlite" } as const;
export type DatabaseKind = keyof typeof DATABASE_NAMES;

/** `BENCH_CLAIM_DATABASES` (comma-separated `postgres`, `pglite`), in the order given. */
export function parseDatabases(value: string | undefined): DatabaseKind[] {
  const kinds = (value ?? "postgres,pglite")
    .split(",")
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  const unknown = kinds.filter((k) => !(k in DATABASE_NAMES));
  if (unknown.length > 0 || kinds.length === 0) {
    throw new Error(
      `BENCH_CLAIM_DATABASES: expected a comma-separated list of postgres, pglite; got "${value}"`,
    );
  }
  return [...new Set(kinds)] as DatabaseKind[];
}
const DATABASES = parseDatabases(process.env.BENCH_CLAIM_DATABASES);
/** The burst stops (and fails) after this many answers other than 201/202. */
const MAX_REJECTED = 50;
/** The burst fails when neither acceptance nor indexing moves for this long. */
const STALL_MS = 180_000;
const API_KEY = `ck_live_${randomBytes(16).toString("hex")}`;
const root = path.resolve(import.meta.dirname, "../..");
const apiRoot = path.join(root, "packages/api");

const now = () => performance.now();
/** The variant running, as a prefix of progress lines ("PostgreSQL: "). */
let variantLabel = "";
const log = (message: string) => process.stderr.write(`[claims] ${variantLabel}${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length)),
  };
}

// ---------------------------------------------------------------------------------------------
// Clean-up: every step registers how to undo itself; run in reverse order, whatever happened.

const cleanups: (() => Promise<unknown>)[] = [];
let cleaning = Promise.resolve();
/**
 * Runs (and removes) the clean-ups registered after the first `keep`, one at a time: a call made
 * while another runs (a signal during a variant's own clean-up) waits for it, then goes on.
 */
function cleanUp(keep = 0): Promise<void> {
  cleaning = cleaning.then(async () => {
    while (cleanups.length > keep) {
      const cleanup = cleanups.pop();
      await cleanup?.().catch((error: Error) => log(`clean-up: ${error.message}`));
    }
  });
  return cleaning;
}

// ---------------------------------------------------------------------------------------------
// Baseline: straight to the contract with viem, one claim per transaction.

export interface BaselineResult {
  claims: number;
  inFlight: number;
  windowMs: number;
  claimsPerSecond: number;
  /** Signing and eth_sendRawTransaction until the node answers the hash, per transaction. */
  sendMs: Percentiles;
  /** Send to receipt, per transaction. */
  latencyMs: Percentiles;
  gasPerClaim: number;
}

async function baseline(rpcUrl: string, contract: Hex): Promise<BaselineResult> {
  const { createPublicClient, encodeFunctionData, http: httpTransport } = viem;
  const account = viemAccounts.privateKeyToAccount(relayerKeyOf({ CHAIN_ID: 31337 }));
  const client = createPublicClient({ transport: httpTransport(rpcUrl, { retryCount: 0 }) });
  const chainId = await client.getChainId();
  const fees = await client.estimateFeesPerGas();
  let nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" });

  async function send(data: Hex, gas: bigint): Promise<Hex> {
    const serialized = await account.signTransaction({
      type: "eip1559",
      chainId,
      to: contract,
      data,
      nonce: nonce++,
      gas,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    return client.sendRawTransaction({ serializedTransaction: serialized });
  }
  async function receipt(hash: Hex) {
    for (;;) {
      const found = await client.getTransactionReceipt({ hash }).catch(() => null);
      if (found) {
        if (found.status !== "success") throw new Error(`baseline transaction ${hash} reverted`);
        return found;
      }
      await sleep(20);
    }
  }

  const collectibleId = uuidToBytes16(randomUUID());
  const create = encodeFunctionData({
    abi: collectiblesAbi,
    functionName: "createCollectible",
    args: [
      collectibleId,
      uuidToBytes16(randomUUID()),
      "0x00000000000000000000000000000000",
      BigInt(CLAIMS),
      { name: "Baseline", description: "", image: "", mimeType: "" },
    ],
  });
  await receipt(await send(create, 1_000_000n));

  const claims = Array.from({ length: CLAIMS }, () =>
    encodeFunctionData({
      abi: collectiblesAbi,
      functionName: "claim",
      args: [collectibleId, uuidToBytes16(randomUUID()), `0x${randomBytes(20).toString("hex")}`],
    }),
  );
  // Every claim to a fresh address costs the same: estimate once, with headroom, as a fast client
  // would, instead of once per transaction.
  const estimate = await client.estimateGas({
    account: account.address,
    to: contract,
    data: claims[0] as Hex,
  });
  const gas = (estimate * 12n) / 10n;

  const sends: number[] = [];
  const latencies: number[] = [];
  let gasUsed = 0n;
  let next = 0;
  const started = now();
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= claims.length) return;
      const sent = now();
      const hash = await send(claims[i] as Hex, gas);
      sends.push(now() - sent);
      const mined = await receipt(hash);
      latencies.push(now() - sent);
      gasUsed += mined.gasUsed;
      if ((i + 1) % 500 === 0) log(`baseline: ${i + 1}/${CLAIMS} claims sent`);
    }
  };
  await Promise.all(Array.from({ length: BASELINE_IN_FLIGHT }, worker));
  const windowMs = now() - started;
  const claimed = await client.readContract({
    address: contract,
    abi: collectiblesAbi,
    functionName: "claimedCount",
    args: [collectibleId],
  });
  if (claimed !== BigInt(CLAIMS)) throw new Error(`baseline minted ${claimed}, not ${CLAIMS}`);
  return {
    claims: CLAIMS,
    inFlight: BASELINE_IN_FLIGHT,
    windowMs: Math.round(windowMs),
    claimsPerSecond: CLAIMS / (windowMs / 1000),
    sendMs: percentiles(sends),
    latencyMs: percentiles(latencies),
    gasPerClaim: Number(gasUsed / BigInt(CLAIMS)),
  };
}

// ---------------------------------------------------------------------------------------------
// The API as a child process, and HTTP to it.

interface RunningApi {
  url: string;
  pid: number;
  database: string;
  stop(): Promise<void>;
}

async function startApi(env: Record<string, string>): Promise<RunningApi> {
  // BENCH_API_NODE_ARGS: extra Node flags for the API, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // The request log (JSON lines at info, as in production) is read and dropped, as a log shipper
  // would take it away; the tail is kept for error messages.
  let database = "unknown";
  let stopping = false;
  const api: ManagedProcess = startProcess({
    name: "the API",
    command: process.execPath,
    args: [...nodeArgs, "--import", "tsx", "src/index.ts"],
    cwd: apiRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    onLine: (line) => {
      const db = /database: (.*)/.exec(line);
      if (db?.[1]) database = db[1].trim();
    },
  });
  const stop = async () => {
    stopping = true;
    await api.stop(15_000);
  };
  let url: string;
  try {
    const line = await api.waitForLine(/listening on http:\/\/\S+/, 180_000);
    url = /listening on (http:\/\/\S+)/.exec(line)?.[1] ?? "";
    // The database line follows the listening line.
    await api.waitUntil("naming its database", async () => database !== "unknown", 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  void api.exited.then(({ code, signal }) => {
    if (!stopping) log(`the API exited unexpectedly (${code ?? signal}):\n${api.tail()}`);
  });
  return { url, pid: api.pid, database, stop };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const authorization = `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`;

function call(
  base: string,
  method: string,
  urlPath: string,
  json?: unknown,
): Promise<{ status: number; body: string }> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent,
        headers: {
          authorization,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error(`${method} ${urlPath}: timeout`)));
    request.on("error", reject);
    request.end(body);
  });
}

async function callJson<T>(base: string, method: string, urlPath: string, json?: unknown) {
  const response = await call(base, method, urlPath, json);
  if (response.status >= 300) {
    throw new Error(`${method} ${urlPath}: ${response.status} ${response.body.slice(0, 500)}`);
  }
  return { status: response.status, json: JSON.parse(response.body) as T };
}

// ---------------------------------------------------------------------------------------------
// The burst.

interface ClaimRecord {
  sent: number;
  answered: number;
  status: number;
  id?: string;
  indexed?: number;
}

export interface BurstResult {
  claims: number;
  connections: number;
  accepted: number;
  rejected: { status: number; body: string }[];
  acceptMs: Percentiles;
  confirmMs: Percentiles;
  /** From the first POST sent to the last claim seen indexed. */
  windowMs: number;
  confirmedPerSecond: number;
  acceptedPerSecond: number;
  /** Since the first POST: when the last POST was answered, mined, indexed, listed confirmed. */
  timelineMs: {
    allAccepted: number;
    allMined: number;
    allIndexed: number;
    apiAllConfirmed: number;
  };
  /** Since the first POST, when every further 10 % of the claims was accepted / mined / indexed. */
  curves: { accepted: number[]; mined: number[]; indexed: number[] };
  polls: number;
}

async function burst(
  apiUrl: string,
  indexerUrl: string,
  chainClient: ReturnType<typeof viem.createPublicClient>,
  contract: Hex,
  collectibleId: string,
  memory: MemorySampler,
): Promise<BurstResult> {
  const { db } = createClient(`${indexerUrl}/sql`, { schema });
  const records: ClaimRecord[] = [];
  const byId = new Map<string, ClaimRecord>();
  /** Claims the indexer showed before their POST was answered (id -> when seen). */
  const seenEarly = new Map<string, number>();
  const rejected: { status: number; body: string }[] = [];
  let answered = 0;
  let indexed = 0;
  let mined = 0;
  const tenth = Math.max(1, Math.floor(CLAIMS / 10));
  const curves = { accepted: [] as number[], mined: [] as number[], indexed: [] as number[] };
  const milestone = (curve: number[], count: number, at: number) => {
    while (curve.length < 10 && count >= tenth * (curve.length + 1)) curve.push(at);
  };
  let lastProgress = now();
  let lastLogged = { answered: 0, indexed: 0 };
  const progress = (force = false) => {
    const step = 500;
    if (
      force ||
      Math.floor(answered / step) > Math.floor(lastLogged.answered / step) ||
      Math.floor(indexed / step) > Math.floor(lastLogged.indexed / step)
    ) {
      lastLogged = { answered, indexed };
      log(
        `burst ${((now() - t0) / 1000).toFixed(1)} s: accepted ${answered - rejected.length}/${CLAIMS}` +
          `${rejected.length ? ` (${rejected.length} rejected)` : ""}, mined ${mined}, indexed ${indexed}`,
      );
    }
  };

  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= CLAIMS) return;
      const record: ClaimRecord = { sent: now(), answered: 0, status: 0 };
      records.push(record);
      let response: { status: number; body: string };
      try {
        response = await call(apiUrl, "POST", "/claims", {
          collectible_id: collectibleId,
          email: `holder-${i}@bench.example`,
        });
      } catch (error) {
        response = { status: 0, body: (error as Error).message };
      }
      record.answered = now();
      record.status = response.status;
      answered++;
      lastProgress = record.answered;
      if (response.status === 201 || response.status === 202) {
        const id = (JSON.parse(response.body) as { data: { id: string } }).data.id;
        record.id = id;
        byId.set(id, record);
        const early = seenEarly.get(id);
        if (early !== undefined) {
          record.indexed = early;
          seenEarly.delete(id);
        }
      } else {
        rejected.push({ status: response.status, body: response.body.slice(0, 300) });
        if (rejected.length === 1) log(`first rejected claim: ${response.status} ${response.body}`);
      }
      milestone(curves.accepted, answered - rejected.length, record.answered - t0);
      progress();
    }
  };

  /** Editions 1..contiguous are all seen; each poll asks only for what lies above. */
  let contiguous = 0;
  const editions = new Set<number>();
  let polls = 0;
  const poll = async () => {
    const rows = await db
      .select({ id: claim.id, edition: claim.edition })
      .from(claim)
      .where(and(eq(claim.collectibleId, collectibleId), sql`${claim.edition} > ${contiguous}`))
      .orderBy(asc(claim.edition))
      .limit(2000);
    const seenAt = now();
    polls++;
    for (const row of rows) {
      const edition = Number(row.edition);
      if (editions.has(edition)) continue;
      editions.add(edition);
      indexed++;
      const record = byId.get(row.id);
      if (record) record.indexed = seenAt;
      else seenEarly.set(row.id, seenAt);
    }
    while (editions.has(contiguous + 1)) contiguous++;
    if (rows.length > 0) lastProgress = seenAt;
    milestone(curves.indexed, indexed, seenAt - t0);
    const onChain = await chainClient.readContract({
      address: contract,
      abi: collectiblesAbi,
      functionName: "claimedCount",
      args: [uuidToBytes16(collectibleId)],
    });
    mined = Number(onChain);
    milestone(curves.mined, mined, now() - t0);
  };

  memory.mark("burst");
  const t0 = now();
  const workers = Promise.all(Array.from({ length: CONNECTIONS }, worker));
  let workersDone = false;
  workers.then(() => {
    workersDone = true;
  });
  let allMined = 0;
  for (;;) {
    const started = now();
    await poll();
    if (mined >= CLAIMS && allMined === 0) allMined = now() - t0;
    const accepted = answered - rejected.length;
    if (workersDone && indexed >= accepted) break;
    // A rejected claim invalidates the measurement: stop early when they keep coming.
    if (rejected.length >= MAX_REJECTED) {
      next = CLAIMS;
      await workers;
      throw new Error(
        `${rejected.length} claims rejected, e.g. ${rejected[0]?.status} ${rejected[0]?.body}`,
      );
    }
    if (now() - lastProgress > STALL_MS) {
      progress(true);
      throw new Error(`no claim accepted or indexed for ${STALL_MS / 1000} s`);
    }
    progress();
    await sleep(Math.max(0, POLL_MS - (now() - started)));
  }
  await workers;
  const lastIndexed = Math.max(...records.map((r) => r.indexed ?? 0));
  memory.mark("after burst");
  progress(true);
  const accepted = records.filter((r) => r.id !== undefined);
  const missing = accepted.filter((r) => r.indexed === undefined).length;
  if (missing > 0) throw new Error(`${missing} accepted claims never seen indexed`);

  // What a client sees: page through GET /claims until every claim reads confirmed.
  let apiAllConfirmed = 0;
  for (let pass = 1; ; pass++) {
    let confirmed = 0;
    let total = 0;
    for (let page = 1; ; page++) {
      const { json } = await callJson<{
        data: { status: string }[];
        pagination: { pages: number; count: number };
      }>(apiUrl, "GET", `/claims?collectible_id=${collectibleId}&limit=100&page=${page}`);
      confirmed += json.data.filter((c) => c.status === "confirmed").length;
      total = json.pagination.count;
      if (page >= json.pagination.pages) break;
    }
    if (confirmed === accepted.length && total === accepted.length) {
      apiAllConfirmed = now() - t0;
      break;
    }
    if (pass % 10 === 0) log(`GET /claims: ${confirmed}/${accepted.length} confirmed`);
    if (now() - t0 - lastIndexed > STALL_MS)
      throw new Error(`GET /claims shows ${confirmed}/${accepted.length} confirmed`);
    await sleep(200);
  }

  const windowMs = lastIndexed - t0;
  const lastAnswered = Math.max(...records.map((r) => r.answered));
  return {
    claims: CLAIMS,
    connections: CONNECTIONS,
    accepted: accepted.length,
    rejected: rejected.slice(0, 5),
    acceptMs: percentiles(accepted.map((r) => r.answered - r.sent)),
    confirmMs: percentiles(accepted.map((r) => (r.indexed as number) - r.sent)),
    windowMs: Math.round(windowMs),
    confirmedPerSecond: accepted.length / (windowMs / 1000),
    acceptedPerSecond: accepted.length / ((lastAnswered - t0) / 1000),
    timelineMs: {
      allAccepted: Math.round(lastAnswered - t0),
      allMined: Math.round(allMined),
      allIndexed: Math.round(windowMs),
      apiAllConfirmed: Math.round(apiAllConfirmed),
    },
    curves: {
      accepted: curves.accepted.map(Math.round),
      mined: curves.mined.map(Math.round),
      indexed: curves.indexed.map(Math.round),
    },
    polls,
  };
}

// ---------------------------------------------------------------------------------------------
// One variant of the service: chain, indexer and API on one kind of database.

export interface VariantResult {
  database: DatabaseKind;
  name: string;
  /** What the API said it runs on. */
  apiDatabase: string;
  startup: { indexerReadyMs: number; apiStartMs: number };
  burst: BurstResult;
  memoryBytes: Record<"api" | "indexer", { idle: number; burst: number; lifetimePeak: number }>;
  durationMs: number;
}

/** The last stdout line, `RESULT <json>`, read by bench/benchmarks/claims.ts. */
export interface DriverResult {
  holders: string;
  pollMs: number;
  databases: DatabaseKind[];
  baseline: BaselineResult;
  variants: (VariantResult | VariantFailure)[];
  cpus: number;
}

export interface VariantFailure {
  database: DatabaseKind;
  name: string;
  error: string;
  durationMs: number;
}

async function runVariant(kind: DatabaseKind, tmp: string): Promise<VariantResult> {
  const name = DATABASE_NAMES[kind];
  const started = now();
  const dir = path.join(tmp, kind);
  fs.mkdirSync(dir);

  log(`a fresh local chain and deployment`);
  const chain: LocalChain = await startLocalChain();
  cleanups.push(() => chain.stop());
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
      const database = await createTestDatabase(POSTGRES_URL, `bench_claims_${which}`);
      cleanups.push(async () => {
        await database.drop();
        log(`dropped the ${which}'s database`);
      });
      if (which === "indexer") indexerDatabaseUrl = database.url;
      else apiDatabaseUrl = database.url;
      log(`created the ${which}'s database ${redact(database.url)}`);
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
  cleanups.push(() => indexer.stop());
  const indexerReadyMs = Math.round(now() - indexerStarted);
  const ponder = processTable().find(
    (p) => p.cmdline.includes("ponder") && p.cmdline.includes(`--port ${indexerPort}`),
  );
  if (!ponder) throw new Error("could not find the Ponder process");

  log(`indexer ready in ${indexerReadyMs} ms; starting the API`);
  const apiStarted = now();
  const api = await startApi({
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: path.join(dir, "data"),
    ...(apiDatabaseUrl ? { DATABASE_URL: apiDatabaseUrl } : {}),
    API_KEY,
    WALLET_MNEMONIC: TEST_MNEMONIC,
    RPC_URL: chain.rpcUrl,
    CHAIN_ID: "31337",
    DEPLOYMENTS_DIR: deploymentsDir,
    INDEXER_URL: indexer.url,
    // POST answers 202 at once: the burst measures acceptance and confirmation separately.
    CONFIRM_TIMEOUT_MS: "0",
    // One client sends far more than the default per-key limit allows.
    RATE_LIMIT_MAX: "1000000",
    RATE_LIMIT_WINDOW_MS: String(24 * 60 * 60 * 1000),
  });
  cleanups.push(() => api.stop());
  const apiStartMs = Math.round(now() - apiStarted);
  log(`API up at ${api.url} in ${apiStartMs} ms (${api.database})`);
  const onPostgres = api.database.startsWith("PostgreSQL");
  if (onPostgres !== (kind === "postgres")) {
    throw new Error(`the API runs on ${api.database}, not on ${name}`);
  }

  const memory = sampleMemory({ api: api.pid, indexer: ponder.pid });
  cleanups.push(async () => memory.stop());

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
  const result = await burst(api.url, indexer.url, chainClient, contract, collectibleId, memory);
  memory.stop();
  if (result.rejected.length > 0 || result.accepted !== result.claims) {
    throw new Error(
      `${result.claims - result.accepted} of ${result.claims} claims were not accepted, e.g. ` +
        JSON.stringify(result.rejected[0]),
    );
  }
  const peaks = memory.peaks();
  const hwm = memory.highWaterMarks();
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

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-claims-"));
  cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  log(
    `${CLAIMS} claims; variants: ${DATABASES.map((k) => DATABASE_NAMES[k]).join(", ")}, after ` +
      "the baseline",
  );

  // The baseline gets a chain of its own, with nothing else running: its thousands of one-event
  // blocks would otherwise be the indexer's to catch up (minutes) before the API could start.
  log(
    `baseline: a local chain of its own; ${CLAIMS} claim transactions, ${BASELINE_IN_FLIGHT} in flight`,
  );
  const baselineChain = await startLocalChain();
  let base: BaselineResult;
  try {
    const baselineDir = path.join(tmp, "baseline-deployments");
    fs.mkdirSync(baselineDir);
    const baselineDeployment = await deployCollectibles({
      rpcUrl: baselineChain.rpcUrl,
      deploymentsDir: baselineDir,
    });
    base = await baseline(baselineChain.rpcUrl, baselineDeployment.address as Hex);
  } finally {
    await baselineChain.stop();
  }
  log(
    `baseline: ${base.claimsPerSecond.toFixed(0)} claims/s (${base.windowMs} ms), ` +
      `send to receipt p50 ${base.latencyMs.p50} ms`,
  );

  const variants: (VariantResult | VariantFailure)[] = [];
  for (const [i, kind] of DATABASES.entries()) {
    const name = DATABASE_NAMES[kind];
    variantLabel = `${name}: `;
    log(`variant ${i + 1}/${DATABASES.length}`);
    const keep = cleanups.length;
    const started = now();
    try {
      variants.push(await runVariant(kind, tmp));
    } catch (error) {
      log(`FAILED: ${(error as Error).stack ?? error}`);
      variants.push({
        database: kind,
        name,
        error: (error as Error).message,
        durationMs: Math.round(now() - started),
      });
    } finally {
      // Everything this variant started goes before the next one starts.
      log("stopping the API, the indexer and the chain");
      await cleanUp(keep);
    }
    variantLabel = "";
  }

  const result: DriverResult = {
    holders: "email",
    pollMs: POLL_MS,
    databases: DATABASES,
    baseline: base,
    variants,
    cpus: os.availableParallelism(),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  if (variants.every((v) => "error" in v)) process.exitCode = 1;
}

// A signal (the benchmark's parent passes on its own) still stops every process and drops every
// database made here; childProcesses.ts kills the tracked process groups at once beside this.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: tearing down`);
    cleanUp()
      .catch(() => {})
      .finally(() => {
        agent.destroy();
        process.exit(1);
      });
  });
}

try {
  await main();
} catch (error) {
  log(`FAILED: ${(error as Error).stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
  agent.destroy();
}
