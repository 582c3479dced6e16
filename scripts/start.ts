/**
 * `pnpm start`: the whole service on one machine with no configuration.
 *
 * Local default (no RPC_URL): a local chain (anvil) that keeps its state in the data folder, the
 * contract (deployed on the first start, and again if the chain lost it), a PostgreSQL server from
 * npm in the data folder (unless DATABASE_URL is set), the indexer and the API on it (the indexer
 * in its own schema); waits until each is ready, prints the base URL, where data lives and whether
 * it resumed, and stops everything cleanly on Ctrl-C. Every start continues where the last one
 * stopped; `pnpm start --fresh` wipes the local data first (scripts/localData.ts says what).
 * After a crash (the last run left its marker) the chain may be seconds behind what the indexer
 * and the API saw: the indexer is rebuilt from the chain and the API checks every object it
 * recorded (CHAIN_AUDIT=1), sending again what the chain lacks.
 *
 * With RPC_URL and CHAIN_ID set it uses that chain and its committed deployment instead of
 * starting one; with DATABASE_URL, that PostgreSQL instead of the embedded one. Either way the
 * data folder is this start's alone while it runs, and `--fresh` starts it over.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnv } from "@collectibles/api/env";
import { API_NODE_FLAGS } from "@collectibles/api/heap";
import {
  type LocalChain,
  type LocalChainOptions,
  startLocalChain,
  UnreadableStateFile,
} from "@collectibles/devkit/chain";
import { startEmbeddedPostgres, stopEarlierServer } from "@collectibles/devkit/embedded-postgres";
import { connectionProblem, dropSchema, redactPassword } from "@collectibles/devkit/postgres";
import {
  httpAnswers,
  KNOWN_MODULE_FORMATS,
  type ManagedProcess,
  portFrom,
  runToEnd,
  startProcess,
  stopProcessesYourselfOnSignals,
} from "@collectibles/devkit/processes";
import { chainHead, codeAt, indexedBlock } from "./chainProbes.ts";
import { whileHoldingLock } from "./deployLock.ts";
import { earlierStackOn, portTaken, recordPart, waitForStoppingParts } from "./earlierStack.ts";
import { claimData, localData, pgliteLeftover, releaseData, wipeData } from "./localData.ts";
import { parseStartArguments, USAGE } from "./startArguments.ts";

const root = fileURLToPath(new URL("../", import.meta.url));
const env = process.env;
const given = checkedOrExit(() => ({
  ...parseStartArguments(process.argv.slice(2)),
  chainPort: portFrom(env, "CHAIN_PORT", 8545),
  indexerPort: portFrom(env, "INDEXER_PORT", 42069),
  apiPort: portFrom(env, "PORT", 3000),
  databasePort: portFrom(env, "DB_PORT", 54320),
}));
if (given.help) {
  console.log(USAGE);
  process.exit(0);
}
const { fresh, chainPort, indexerPort, apiPort, databasePort } = given;
const localChain = !env.RPC_URL;
const localRpcUrl = `http://127.0.0.1:${chainPort}`;
const chainId = env.CHAIN_ID ?? "31337";
/** Where the indexer listens: loopback, since only the API (on this machine) reads it. */
const indexerHost = env.INDEXER_HOST || "127.0.0.1";
// Absolute: each part runs in its own package's folder, where a relative path means another one.
const dataDir = path.resolve(env.DATA_DIR || `${root}.data`);
const data = localData(dataDir);
const deploymentsDir = localChain
  ? data.deployments
  : env.DEPLOYMENTS_DIR && path.resolve(env.DEPLOYMENTS_DIR);
// The API's settings, checked as the API will check them before anything starts: a mistyped
// variable costs a second, not a chain, a database and an indexer started for nothing. What
// this start sets itself stands in with a value of the same form.
checkedOrExit(() =>
  parseEnv({
    ...env,
    ...apiSettings(
      sharedSettings(
        env.RPC_URL ?? localRpcUrl,
        env.DATABASE_URL ?? `postgres://collectibles@127.0.0.1:${databasePort}/api`,
      ),
    ),
  }),
);
/** The indexer's schema in the database (the API's tables are in `public`). */
const indexerSchema = env.DATABASE_SCHEMA ?? "collectibles";
/** Whether the chain ended the way it should (asked to, so anvil wrote its state). */
let chainStoppedCleanly = true;
/** Whether this process marked the data folder as in use (and so may release it). */
let dataClaimed = false;

/** An indexer the supervisor stopped on purpose: its exit stops nothing else. */
let replacedIndexer: ManagedProcess | undefined;
/** Started in this order, stopped in the reverse one. */
const services: { name: string; stop(): Promise<unknown> }[] = [];
let stopping = false;

function log(message: string) {
  console.log(`[start] ${message}`);
}

/** What `read` answers, or its error said and exit 1: before anything has started. */
function checkedOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    log(`failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** What this start gives the indexer and the API alike, besides the environment. */
function sharedSettings(rpcUrl: string, databaseUrl: string): Record<string, string> {
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: chainId,
    DATABASE_URL: databaseUrl,
    ...(deploymentsDir ? { DEPLOYMENTS_DIR: deploymentsDir } : {}),
  };
}

/** What this start gives the API besides the environment and what it shares with the indexer. */
function apiSettings(shared: Record<string, string>): Record<string, string> {
  return {
    ...shared,
    PORT: String(apiPort),
    INDEXER_URL: `http://127.0.0.1:${indexerPort}`,
    DATA_DIR: dataDir,
  };
}

/** pnpm from inside a pnpm script (it sets npm_execpath to itself), else the pinned one via npx. */
function pnpm(args: string[]): { command: string; args: string[] } {
  const cli = env.npm_execpath;
  // Started by npm or npx instead (npm_execpath is then npm's): the pinned pnpm through npx.
  if (!cli?.includes("pnpm")) return { command: "npx", args: ["-y", "pnpm@10.34.9", ...args] };
  return { command: process.execPath, args: [cli, ...args] };
}

/** A service in the foreground: its lines prefixed with its name; its exit stops the rest. */
function startService(
  name: string,
  run: { command: string; args: string[]; cwd?: string },
  extraEnv: Record<string, string>,
  stopSignal?: NodeJS.Signals,
) {
  const child: ManagedProcess = startProcess({
    name,
    cwd: root,
    ...run,
    env: { ...env, PONDER_TELEMETRY_DISABLED: "1", ...extraEnv },
    onLine: (line) => {
      if (line.trim()) console.log(`[${name}] ${line}`);
    },
    stopSignal,
  });
  services.push(child);
  if (dataClaimed) recordPart(data, name, child.pid);
  // One part dying takes the others down: a half-running service would only mislead.
  void child.exited.then((exit) => {
    if (stopping || child === replacedIndexer) return;
    log(`${name} exited (${exit.signal ?? exit.code}); stopping the rest`);
    void stopAll(1);
  });
  return child;
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (services.length > 0) log("stopping...");
  // Reverse order: API first, chain last, so nothing loses its upstream while still serving.
  for (const service of [...services].reverse()) {
    await service.stop().catch(() => {});
    log(`${service.name} stopped`);
  }
  // Kept after a chain that died on its own: the next start checks what it may have lost.
  if (dataClaimed && chainStoppedCleanly) releaseData(data);
  process.exit(exitCode);
}

// Ctrl-C stops the services one by one, each as it wants to be stopped (anvil writes its state,
// Ponder releases its schema lock), instead of the process helper killing them all at once.
stopProcessesYourselfOnSignals();
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

async function deploy(rpcUrl: string): Promise<void> {
  const cache = path.join(root, "deploy", "cache");
  mkdirSync(cache, { recursive: true });
  const run = await whileHoldingLock(
    path.join(cache, "start-deploy.lock"),
    () => deployNow(rpcUrl),
    () => log("waiting for another pnpm start of this checkout to finish deploying"),
  );
  if (run.code !== 0) throw new Error(`deploy failed (exit ${run.code ?? run.signal})`);
}

function deployNow(rpcUrl: string) {
  log("deploying the Collectibles contract");
  return runToEnd({
    name: "deploy",
    ...pnpm(["--filter", "@collectibles/deploy", "run", "deploy:local"]),
    cwd: root,
    env: {
      ...env,
      LOCAL_RPC_URL: rpcUrl,
      RPC_URL: rpcUrl,
      DEPLOYMENTS_DIR: data.deployments,
      // Ignition keeps a journal per deployment id in the checkout: two stacks deploying at once
      // (two data folders) must not read or replace each other's.
      IGNITION_DEPLOYMENT_ID: `local-${createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 12)}`,
    },
    onLine: (line) => console.log(`[deploy] ${line}`),
    timeoutMs: 300_000,
  });
}

/**
 * `--fresh`: the data folder's data removed before anything uses it, whatever the chain (with
 * RPC_URL the chain and its deployment file are the operator's, and stay: localData.ts).
 */
async function startOver(): Promise<void> {
  if (env.DATABASE_URL) {
    throw new Error(
      "--fresh removes local files only, and DATABASE_URL's database still holds rows made " +
        "with the mnemonic in the data folder: drop that database (and the indexer's schema) " +
        "yourself, then run --fresh without DATABASE_URL or start again with it",
    );
  }
  // A server a killed stack left on the folder would keep its files open, and its port.
  await stopEarlierServer(data.postgres, log);
  wipeData(data, log, { localChain });
}

/**
 * The local chain from its state file, and the contract on it. Answers whether the API must
 * check its records against the chain (after a crash, or when the contract had to be deployed
 * again), in which case the indexer's data, a projection of the chain, is rebuilt too.
 */
async function startLocalStack(
  lastRunCrashed: boolean,
): Promise<{ rpcUrl: string; auditChain: boolean }> {
  const resuming = existsSync(data.chainState);
  log(
    resuming
      ? `resuming the local chain and data in ${dataDir}` +
          (lastRunCrashed ? " (the last run did not stop cleanly)" : "")
      : `starting fresh: local chain and data in ${dataDir}`,
  );
  log(`starting a local chain (anvil) on port ${chainPort} (chain id 31337)`);
  const chain = await startChain();
  services.push({ name: "chain", stop: () => chain.stop() });
  recordPart(data, "chain", chain.process.pid);
  void chain.process.exited.then(() => {
    if (!stopping) chainStoppedCleanly = false;
  });
  log(`chain log: ${dataDir}/chain/chain.log`);
  let redeployed = false;
  const deploymentFile = `${data.deployments}/${chainId}.json`;
  const recorded = existsSync(deploymentFile)
    ? (JSON.parse(readFileSync(deploymentFile, "utf8")) as { address: string }).address
    : undefined;
  if (!recorded || !(await codeAt(chain.rpcUrl, recorded))) {
    if (recorded) {
      log("the chain lacks the recorded contract (its state was lost): deploying it again");
      redeployed = true;
    }
    await deploy(chain.rpcUrl);
  }
  return { rpcUrl: chain.rpcUrl, auditChain: lastRunCrashed || redeployed };
}

/**
 * The local chain on its state file. A file that cannot be read is set aside and a new chain
 * started: the contract is deployed again and the API sends it everything it recorded.
 */
async function startChain(): Promise<LocalChain> {
  mkdirSync(path.dirname(data.chainState), { recursive: true });
  const options: LocalChainOptions = {
    port: chainPort,
    stateFile: data.chainState,
    // A crash loses at most the last second of the chain; the API sends it again.
    stateIntervalSeconds: 1,
    logFile: `${dataDir}/chain/chain.log`,
  };
  const onPortError = (error: Error) => {
    throw new Error(`${error.message}\nIs something else on port ${chainPort}? Set CHAIN_PORT.`);
  };
  try {
    return await startLocalChain(options);
  } catch (error) {
    if (!(error instanceof UnreadableStateFile)) return onPortError(error as Error);
    const aside = `${data.chainState}.unreadable`;
    renameSync(data.chainState, aside);
    log(`${error.message}. Set aside as ${aside}; starting a new chain`);
    return startLocalChain(options).catch(onPortError);
  }
}

/**
 * PostgreSQL from npm in the data folder, kept across restarts like the chain. A server left
 * running by a stack that was killed is shut down cleanly and started again on the same data.
 */
async function startDatabase(): Promise<string> {
  log(`starting PostgreSQL on 127.0.0.1:${databasePort} (data in ${data.postgres})`);
  const server = await startEmbeddedPostgres({
    dir: data.postgres,
    port: databasePort,
    onLine: (line) => {
      // Its start-up and shutdown chatter is routine; warnings and errors are not.
      // (Its own readiness probe, connecting while it starts, is not news either.)
      if (
        /\b(WARNING|ERROR|FATAL|PANIC)\b|holds .*: stopping it/.test(line) &&
        !/the database system is starting up/.test(line)
      ) {
        console.log(`[postgres] ${line}`);
      }
    },
  });
  services.push({ name: "postgres", stop: () => server.stop() });
  void server.process.exited.then((exit) => {
    if (stopping) return;
    log(`postgres exited (${exit.signal ?? exit.code}); stopping the rest`);
    void stopAll(1);
  });
  return server.url;
}

/**
 * Ponder itself rather than the package's start script: behind `pnpm run`, SIGINT ends pnpm at
 * once and Ponder dies mid-shutdown, holding its schema lock, so the next start waits and then
 * re-indexes as after a crash. Resolves once it answers /ready.
 */
async function startIndexer(shared: Record<string, string>): Promise<{ current: ManagedProcess }> {
  const indexerDir = `${root}packages/indexer`;
  const child = startService(
    "indexer",
    {
      command: process.execPath,
      args: [
        ...KNOWN_MODULE_FORMATS,
        `${indexerDir}/node_modules/ponder/dist/esm/bin/ponder.js`,
        "start",
        ...["--schema", indexerSchema, "--port", String(indexerPort)],
        // Ponder listens on every interface unless told: its SQL endpoint reads every tenant.
        ...["--hostname", indexerHost],
      ],
      cwd: indexerDir,
    },
    // Ponder takes PORT over its --port flag: the API's PORT must not reach it.
    { ...shared, PORT: String(indexerPort) },
    // Ponder must be stopped with SIGINT, or its next start waits on a schema lock.
    "SIGINT",
  );
  await child.waitUntil(
    "ready",
    () => httpAnswers(`http://127.0.0.1:${indexerPort}/ready`),
    120_000,
  );
  return { current: child };
}

/** How long the indexer may stay behind a chain that answers before it is restarted. */
const INDEXER_STUCK_MS = 10_000;

/**
 * After the chain stalls (a paused node, an overloaded RPC), Ponder's RPC rate limiter can stay
 * throttled for minutes while requests queue up ("Unable to find available JSON-RPC provider
 * within expected time"): the indexer answers but no longer advances. When it stays behind a
 * chain that answers for INDEXER_STUCK_MS, it is restarted; a restart resumes at once.
 */
function superviseIndexer(
  indexer: { current: ManagedProcess },
  rpcUrl: string,
  shared: Record<string, string>,
) {
  let progress = { indexed: -1, at: Date.now() };
  let restarting = false;
  const timer = setInterval(async () => {
    if (stopping || restarting) return;
    const head = await chainHead(rpcUrl).catch(() => undefined);
    const indexed = await indexedBlock(indexerPort);
    if (head === undefined || indexed >= head || indexed !== progress.indexed) {
      progress = { indexed, at: Date.now() };
      return;
    }
    if (Date.now() - progress.at < INDEXER_STUCK_MS) return;
    restarting = true;
    log(`the indexer is stuck at block ${indexed} while the chain is at ${head}: restarting it`);
    try {
      replacedIndexer = indexer.current;
      await indexer.current.stop(15_000);
      services.splice(services.indexOf(indexer.current), 1);
      indexer.current = (await startIndexer(shared)).current;
      log("the indexer is back");
    } catch (error) {
      log(`restarting the indexer failed: ${(error as Error).message}`);
      void stopAll(1);
    } finally {
      progress = { indexed: -1, at: Date.now() };
      restarting = false;
    }
  }, 2_000);
  timer.unref();
}

/** The ports this start listens on, by the variable that sets each. */
function stackPorts(): [string, number][] {
  return [
    ["PORT", apiPort],
    ["INDEXER_PORT", indexerPort],
    ...(localChain ? ([["CHAIN_PORT", chainPort]] as [string, number][]) : []),
    ...(env.DATABASE_URL ? [] : ([["DB_PORT", databasePort]] as [string, number][])),
  ];
}

/** Two services given one port: the second could not listen, and its neighbour would answer. */
function portClash(): string | undefined {
  const ports = stackPorts();
  for (const [i, [name, port]] of ports.entries()) {
    const other = ports.slice(i + 1).find(([, p]) => p === port);
    if (other) return `${name} and ${other[0]} are both ${port}: each service needs its own port`;
  }
  return undefined;
}

async function main() {
  const clash = portClash();
  if (clash) throw new Error(clash);
  // Before anything is touched: a part of an earlier stack still running on the data folder (its
  // start was killed) or on a port would fight this one over both. A PostgreSQL left on the
  // folder is not in the way: it is stopped cleanly and started again (embeddedPostgres.ts).
  await waitForStoppingParts(data, log);
  const earlier =
    earlierStackOn(data) ?? (await portTaken(stackPorts().filter(([name]) => name !== "DB_PORT")));
  if (earlier) throw new Error(`${earlier}. Nothing was changed.`);
  // Checked before a chain is started for it: otherwise the indexer is the first to find out.
  const databaseProblem = env.DATABASE_URL && (await connectionProblem(env.DATABASE_URL));
  if (databaseProblem) {
    throw new Error(
      `DATABASE_URL (${redactPassword(env.DATABASE_URL as string)}) cannot be used: ` +
        `${databaseProblem}. Nothing was started`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const leftover = fresh ? undefined : pgliteLeftover(data);
  if (leftover && !env.DATABASE_URL) {
    throw new Error(
      `${leftover} holds the API's database of an earlier release (PGlite), which this one ` +
        "does not read: keep that release to use it, or remove the local data with " +
        "`pnpm start --fresh` (it names what it removes)",
    );
  }
  if (fresh) await startOver();
  // Whatever the chain: the embedded PostgreSQL in the folder is this stack's, and a second start
  // on the folder would stop it to start its own (embeddedPostgres.ts), so it is refused instead.
  const { lastRunCrashed } = claimData(data);
  dataClaimed = true;
  let rpcUrl = env.RPC_URL ?? localRpcUrl;

  let auditChain = false;
  if (localChain) {
    ({ rpcUrl, auditChain } = await startLocalStack(lastRunCrashed));
  }
  const databaseUrl = env.DATABASE_URL ?? (await startDatabase());
  if (auditChain) {
    log("rebuilding the indexer from the chain; the API will check its records against it");
    await dropSchema(databaseUrl, indexerSchema);
  }

  const shared = sharedSettings(rpcUrl, databaseUrl);

  log(`starting the indexer on http://127.0.0.1:${indexerPort}`);
  const indexer = await startIndexer(shared);
  // Ponder answers /ready once its backfill is done, but on a restart it indexes the recent,
  // unfinalized blocks again live: the API starts once the indexer has the chain's head, so its
  // first answers already show every claim's edition and holder.
  const head = await chainHead(rpcUrl);
  await indexer.current.waitUntil(
    `caught up with the chain (block ${head})`,
    async () => (await indexedBlock(indexerPort)) >= head,
    300_000,
  );

  log(`starting the API on http://127.0.0.1:${apiPort}`);
  // Node itself rather than the package's start script, as for the indexer: a pnpm in between
  // prints its ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL lines when the API ends on the stop signal.
  const api = startService(
    "api",
    {
      command: process.execPath,
      args: [...KNOWN_MODULE_FORMATS, ...API_NODE_FLAGS, "src/index.ts"],
      cwd: `${root}packages/api`,
    },
    { ...apiSettings(shared), ...(auditChain ? { CHAIN_AUDIT: "1" } : {}) },
  );
  await api.waitUntil("ready", () => httpAnswers(`http://127.0.0.1:${apiPort}/ready`), 60_000);

  // The service handles do not hold this process open (so a test never hangs on one): this does,
  // until Ctrl-C or a service's exit stops everything.
  setInterval(() => {}, 60_000);
  if (localChain) superviseIndexer(indexer, rpcUrl, shared);
  log("ready");
  console.log(
    [
      "",
      `  API        http://127.0.0.1:${apiPort}   (docs: http://127.0.0.1:${apiPort}/docs)`,
      `  Indexer    http://127.0.0.1:${indexerPort}`,
      `  Chain      ${rpcUrl} (chain id ${chainId})`,
      `  Data       ${dataDir}`,
      "  API key    printed by the API above (or the API_KEY you set)",
      "",
      "  Ctrl-C stops everything.",
      "",
    ].join("\n"),
  );
}

main().catch((error: Error) => {
  log(`failed: ${error.message}`);
  void stopAll(1);
});
