/**
 * One server for the list benchmark, in a process of its own (run with tsx, see lists.ts):
 *
 *   api <pglite|postgres> <seed> <rows>   the real app (createApp) over a seeded database, on a
 *                                          local chain with the indexer running, as in production
 *   seed <pglite|postgres> <seed> <rows> <url or folder>
 *                                          fills the database the api mode opens next, in a
 *                                          process of its own: a production API opens data that
 *                                          exists, it does not hold what bulk-loading it took
 *   bare-http <bodyFile>                   node:http answering a fixed JSON body
 *   bare-express <bodyFile>                Express answering the same body
 *   bare-pglite <seed> <rows>              PGlite alone: a database seeded as the api mode's, opened in a bare
 *                                          Node process (seeded by a process of its own), its
 *                                          claims counted once; reports its memory, serves nothing
 *
 * Listens on 127.0.0.1 (any free port) and reports `{ url, key?, seeded? }` over IPC. On SIGTERM
 * it closes, and drops the PostgreSQL database it made.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

const [mode, ...args] = process.argv.slice(2);
const cleanups: (() => Promise<void>)[] = [];

/** Sends `message` to the parent; resolves once it is sent (the seed mode exits right after). */
function report(message: Record<string, unknown>): Promise<void> {
  const send = process.send?.bind(process);
  if (!send) throw new Error("server.ts reports over IPC: start it with an ipc channel");
  return new Promise((resolve) => send(message, undefined, undefined, () => resolve()));
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.unshift(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function bareHttp(bodyFile: string): Promise<void> {
  const body = fs.readFileSync(bodyFile);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(body);
  });
  await report({ url: await listen(server) });
}

async function bareExpress(bodyFile: string): Promise<void> {
  const { default: express } = await import("express");
  const data = JSON.parse(fs.readFileSync(bodyFile, "utf8"));
  const app = express();
  app.get("/{*path}", (_req, res) => {
    res.json(data);
  });
  await report({ url: await listen(http.createServer(app)) });
}

/** A new PostgreSQL database next to the one `adminUrl` names; dropped at exit. */
async function createPostgresDatabase(adminUrl: string): Promise<string> {
  const { createPostgresDatabase: create } = await import("@collectibles/devkit/postgres");
  const database = await create(adminUrl, "bench_lists");
  cleanups.push(database.drop);
  return database.url;
}

/**
 * A local chain with the contract deployed and the indexer following it: the API's relayer,
 * transfer follower and readiness checks run against them as in production.
 */
async function chainAndIndexer(): Promise<Record<string, string>> {
  const { startChainStack } = await import("@collectibles/api/testing/chainStack");
  const stack = await startChainStack();
  cleanups.push(() => stack.stop());
  return stack.env;
}

async function barePglite(seedName: string, rows: number): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLITE_START_PARAMS } = await import("@collectibles/api/pglite-settings");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pglite-alone-"));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  await seedInOwnProcess(["pglite", seedName, String(rows), dir]);
  // Started as the API starts it.
  const db = await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS });
  cleanups.unshift(() => db.close());
  // One read of the largest table, as list load makes many.
  await db.query("select count(*) from claims");
  await report({ url: "", memory: process.memoryUsage() });
}

/**
 * PGlite's WebAssembly memory in bytes: reserved (its size, counted in `external`) and resident
 * (what of it is in RAM): its mapping in /proc/self/smaps is the anonymous read-write one of
 * exactly its size.
 */
function webAssemblyMemory(pglite: unknown): { reserved: number; resident: number } | undefined {
  const reserved = (pglite as { mod?: { HEAPU8?: Uint8Array } } | undefined)?.mod?.HEAPU8
    ?.byteLength;
  if (!reserved) return undefined;
  const mapping = new RegExp(
    `^[0-9a-f]+-[0-9a-f]+ rw-p 0+ 00:00 0 *\\nSize:\\s+${reserved / 1024} kB\\n` +
      "KernelPageSize:.*\\nMMUPageSize:.*\\nRss:\\s+(\\d+) kB",
    "m",
  ).exec(fs.readFileSync("/proc/self/smaps", "utf8"));
  return mapping ? { reserved, resident: Number(mapping[1]) * 1024 } : undefined;
}

/** The database the seed mode fills and the api mode serves. */
async function openBenchDatabase(driver: string, where: string) {
  const { openDatabase } = await import("@collectibles/api/embed");
  return driver === "postgres"
    ? openDatabase({ driver: "postgres", url: where, poolSize: 10 })
    : openDatabase({ driver: "pglite", dataDir: where });
}

async function seedDatabase(driver: string, seedName: string, rows: number, where: string) {
  const { seeds } = await import("./seeds.ts");
  const seed = seeds[seedName];
  if (!seed) throw new Error(`unknown seed ${seedName}; known: ${Object.keys(seeds).join(", ")}`);
  const database = await openBenchDatabase(driver, where);
  try {
    await report({ seeded: await seed(database.db, rows) });
  } finally {
    await database.close();
  }
}

/** Runs the seed mode in a child process and answers what it seeded. */
async function seedInOwnProcess(args: string[]): Promise<Record<string, number>> {
  const { fork } = await import("node:child_process");
  const child = fork(import.meta.filename, ["seed", ...args], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let seeded: Record<string, number> | undefined;
  let failure: string | undefined;
  child.on("message", (message: Record<string, unknown>) => {
    if (message.error) failure = String(message.error);
    else seeded = message.seeded as Record<string, number>;
  });
  // "close": the child's messages have all arrived.
  const code = await new Promise((resolve) => child.once("close", resolve));
  if (!seeded) throw new Error(`seeding failed (exit ${code}): ${failure ?? "no report"}`);
  return seeded;
}

async function api(driver: string, seedName: string, rows: number): Promise<void> {
  // Imported here, not at the top, so the bare baselines load nothing of the API.
  const {
    boundHeapGrowth,
    createApiKey,
    createApp,
    createLogger,
    driverClientOf,
    loadWallets,
    LocalImageStorage,
    parseEnv,
    startChainServices,
  } = await import("@collectibles/api/embed");
  const { DEV_MNEMONIC: TEST_MNEMONIC } = await import("@collectibles/devkit/chain");
  // As the API's own start does (packages/api/src/index.ts).
  boundHeapGrowth();
  // Read by this process's allocator at start; the chain and the indexer it starts run without
  // it, as `pnpm start` runs them.
  delete process.env.GLIBC_TUNABLES;
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lists-"));
  cleanups.push(async () => fs.rmSync(storageDir, { recursive: true, force: true }));
  const where =
    driver === "postgres"
      ? await createPostgresDatabase(process.env.BENCH_POSTGRES_URL ?? "")
      : // In a data folder on disk, as `pnpm start` keeps it (in memory, the table would be RSS).
        path.join(storageDir, "pglite");
  const started = Date.now();
  const seeded = await seedInOwnProcess([driver, seedName, String(rows), where]);
  const seedMs = Date.now() - started;
  const database = await openBenchDatabase(driver, where);
  cleanups.unshift(() => database.close());
  const env = parseEnv({
    ...(await chainAndIndexer()),
    NODE_ENV: "production",
    WALLET_MNEMONIC: TEST_MNEMONIC,
    // Request logs stay on (JSON lines to stdout, which the benchmark discards), as in production.
    LOG_LEVEL: "info",
    // The benchmark sends far more than a client should: lift the per-key limit out of the way.
    RATE_LIMIT_MAX: "1000000",
    RATE_LIMIT_WINDOW_MS: String(24 * 60 * 60 * 1000),
  });
  const { key } = await createApiKey(database.db, { name: "bench" });
  const logger = createLogger({ level: env.LOG_LEVEL });
  const chain = startChainServices(env, database, logger);
  cleanups.unshift(() => chain.stop());
  let baseUrl = "";
  const app = createApp({
    baseUrl: () => baseUrl,
    config: env,
    db: database.db,
    logger,
    storage: new LocalImageStorage(storageDir),
    // As the API's own start makes them: addresses derived ahead in a worker thread.
    wallets: (await loadWallets(env, database.db)).wallets,
    readiness: [
      { name: "database", critical: true, check: () => database.ping() },
      ...chain.readiness,
    ],
    chain: chain.services,
  });
  baseUrl = await listen(http.createServer(app));
  // What its memory is made of, when the benchmark asks (after the load).
  const pglite = driver === "pglite" ? driverClientOf(database.db) : undefined;
  process.on("message", (message) => {
    if (message !== "memory") return;
    void report({ memory: process.memoryUsage(), webAssembly: webAssemblyMemory(pglite) });
  });
  await report({ url: baseUrl, key, seeded, seedMs });
}

async function stop(): Promise<void> {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.on("disconnect", stop);

try {
  if (mode === "bare-http") await bareHttp(args[0] ?? "");
  else if (mode === "bare-express") await bareExpress(args[0] ?? "");
  else if (mode === "bare-pglite") await barePglite(args[0] ?? "claims", Number(args[1] ?? 0));
  else if (mode === "api") await api(args[0] ?? "pglite", args[1] ?? "users", Number(args[2] ?? 0));
  else if (mode === "seed") {
    await seedDatabase(
      args[0] ?? "pglite",
      args[1] ?? "users",
      Number(args[2] ?? 0),
      args[3] ?? "",
    );
    process.exit(0);
  } else throw new Error(`unknown mode ${mode}`);
} catch (error) {
  await report({ error: String((error as Error).stack ?? error) });
  await stop();
}
