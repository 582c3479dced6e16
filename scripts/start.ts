/**
 * `pnpm start`: the whole service on one machine with no configuration.
 *
 * Local default (no RPC_URL): starts a local chain (anvil), deploys the contract, runs the
 * indexer on embedded PGlite and the API on embedded PGlite, waits until each is ready, prints the
 * base URL, the API key and where data lives, and stops everything cleanly on Ctrl-C.
 *
 * With RPC_URL and CHAIN_ID set it uses that chain and its committed deployment instead of
 * starting one; DATABASE_URL switches both databases to PostgreSQL.
 */
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type LocalChain, startLocalChain } from "@collectibles/devkit/chain";
import {
  httpAnswers,
  type ManagedProcess,
  runToEnd,
  startProcess,
} from "@collectibles/devkit/processes";

const root = fileURLToPath(new URL("../", import.meta.url));
const env = process.env;
const localChain = !env.RPC_URL;
const chainPort = Number(env.CHAIN_PORT ?? 8545);
const chainId = env.CHAIN_ID ?? "31337";
const indexerPort = Number(env.INDEXER_PORT ?? 42069);
const apiPort = Number(env.PORT ?? 3000);
const dataDir = env.DATA_DIR ?? `${root}.data`;

/** Started in this order, stopped in the reverse one. */
const services: { name: string; stop(): Promise<unknown> }[] = [];
let stopping = false;

function log(message: string) {
  console.log(`[start] ${message}`);
}

/** pnpm from inside a pnpm script (it sets npm_execpath to itself), else from the PATH. */
function pnpm(args: string[]): { command: string; args: string[] } {
  const cli = env.npm_execpath;
  return cli ? { command: process.execPath, args: [cli, ...args] } : { command: "pnpm", args };
}

/** A service in the foreground: its lines prefixed with its name; its exit stops the rest. */
function startService(
  name: string,
  args: string[],
  extraEnv: Record<string, string>,
  stopSignal?: NodeJS.Signals,
) {
  const child: ManagedProcess = startProcess({
    name,
    ...pnpm(args),
    cwd: root,
    env: { ...env, PONDER_TELEMETRY_DISABLED: "1", ...extraEnv },
    onLine: (line) => {
      if (line.trim()) console.log(`[${name}] ${line}`);
    },
    stopSignal,
  });
  services.push(child);
  // One part dying takes the others down: a half-running service would only mislead.
  void child.exited.then((exit) => {
    if (stopping) return;
    log(`${name} exited (${exit.signal ?? exit.code}); stopping the rest`);
    void stopAll(1);
  });
  return child;
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log("stopping...");
  // Reverse order: API first, chain last, so nothing loses its upstream while still serving.
  for (const service of [...services].reverse()) {
    await service.stop().catch(() => {});
    log(`${service.name} stopped`);
  }
  process.exit(exitCode);
}

process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const deploymentsDir = localChain ? `${dataDir}/deployments` : (env.DEPLOYMENTS_DIR ?? "");
  let rpcUrl = env.RPC_URL ?? `http://127.0.0.1:${chainPort}`;

  if (localChain) {
    // The local chain keeps no state between runs, so the local sandbox starts fresh each time:
    // data recorded against the previous chain would point at tokens that no longer exist.
    for (const dir of ["deployments", "indexer", "api"]) {
      rmSync(`${dataDir}/${dir}`, { recursive: true, force: true });
    }
    log(`starting a local chain (anvil) on port ${chainPort} (chain id 31337)`);
    const chain: LocalChain = await startLocalChain({
      port: chainPort,
      logFile: `${dataDir}/chain.log`,
    }).catch((error: Error) => {
      throw new Error(`${error.message}\nIs something else on port ${chainPort}? Set CHAIN_PORT.`);
    });
    services.push({ name: "chain", stop: () => chain.stop() });
    rpcUrl = chain.rpcUrl;
    log(`chain log: ${dataDir}/chain.log`);
    log("deploying the Collectibles contract");
    const deploy = await runToEnd({
      name: "deploy",
      ...pnpm(["--filter", "@collectibles/deploy", "run", "deploy:local"]),
      cwd: root,
      env: { ...env, LOCAL_RPC_URL: rpcUrl, RPC_URL: rpcUrl, DEPLOYMENTS_DIR: deploymentsDir },
      onLine: (line) => console.log(`[deploy] ${line}`),
      timeoutMs: 300_000,
    });
    if (deploy.code !== 0) throw new Error(`deploy failed (exit ${deploy.code ?? deploy.signal})`);
  }

  const shared: Record<string, string> = {
    RPC_URL: rpcUrl,
    CHAIN_ID: chainId,
    ...(deploymentsDir ? { DEPLOYMENTS_DIR: deploymentsDir } : {}),
  };

  log(`starting the indexer on http://127.0.0.1:${indexerPort}`);
  const indexer = startService(
    "indexer",
    ["--filter", "@collectibles/indexer", "run", "start"],
    { ...shared, INDEXER_PORT: String(indexerPort), INDEXER_DATA_DIR: `${dataDir}/indexer` },
    // Ponder must be stopped with SIGINT, or its next start waits on a schema lock.
    "SIGINT",
  );
  await indexer.waitUntil(
    "ready",
    () => httpAnswers(`http://127.0.0.1:${indexerPort}/ready`),
    120_000,
  );

  log(`starting the API on http://127.0.0.1:${apiPort}`);
  const api = startService("api", ["--filter", "@collectibles/api", "run", "start"], {
    ...shared,
    PORT: String(apiPort),
    INDEXER_URL: `http://127.0.0.1:${indexerPort}`,
    DATA_DIR: dataDir,
  });
  await api.waitUntil("ready", () => httpAnswers(`http://127.0.0.1:${apiPort}/ready`), 60_000);

  // The service handles do not hold this process open (so a test never hangs on one): this does,
  // until Ctrl-C or a service's exit stops everything.
  setInterval(() => {}, 60_000);
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
