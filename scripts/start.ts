/**
 * `pnpm start`: the whole service on one machine with no configuration.
 *
 * Local default (no RPC_URL): starts a Hardhat node, deploys the contract, runs the indexer on
 * embedded PGlite and the API on embedded PGlite, waits until each is ready, prints the base URL,
 * the API key and where data lives, and stops everything cleanly on Ctrl-C.
 *
 * With RPC_URL and CHAIN_ID set it uses that chain and its committed deployment instead of
 * starting one; DATABASE_URL switches both databases to PostgreSQL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const env = process.env;
const localChain = !env.RPC_URL;
const chainPort = Number(env.CHAIN_PORT ?? 8545);
const rpcUrl = env.RPC_URL ?? `http://127.0.0.1:${chainPort}`;
const chainId = env.CHAIN_ID ?? "31337";
const indexerPort = Number(env.INDEXER_PORT ?? 42069);
const apiPort = Number(env.PORT ?? 3000);
const dataDir = env.DATA_DIR ?? `${root}.data`;
const pnpmCli = env.npm_execpath;

interface Service {
  name: string;
  child: ChildProcess;
  /** Ponder must be stopped with SIGINT, or its next start waits on a schema lock. */
  stopSignal: NodeJS.Signals;
}

const services: Service[] = [];
let stopping = false;

function log(message: string) {
  console.log(`[start] ${message}`);
}

function pnpm(args: string[], extraEnv: Record<string, string>): ChildProcess {
  const [command, prefix] = pnpmCli ? [process.execPath, [pnpmCli]] : ["pnpm", []];
  return spawn(command, [...prefix, ...args], {
    cwd: root,
    env: { ...env, PONDER_TELEMETRY_DISABLED: "1", ...extraEnv },
    // Own process group: stopping a service stops everything it started.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function startService(
  name: string,
  args: string[],
  extraEnv: Record<string, string>,
  options: { stopSignal?: NodeJS.Signals; logFile?: string } = {},
) {
  const { stopSignal = "SIGTERM", logFile } = options;
  const child = pnpm(args, extraEnv);
  if (logFile) {
    // The Hardhat node prints every RPC call; keep that out of the terminal.
    const file = createWriteStream(logFile);
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
    services.push({ name, child, stopSignal });
    watchExit(name, child);
    return child;
  }
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => `[${name}] ${line}`)
      .join("\n");
  child.stdout?.on("data", (chunk: Buffer) => console.log(prefix(chunk)));
  child.stderr?.on("data", (chunk: Buffer) => console.error(prefix(chunk)));
  services.push({ name, child, stopSignal });
  watchExit(name, child);
  return child;
}

/** One part dying takes the others down: a half-running service would only mislead. */
function watchExit(name: string, child: ChildProcess) {
  child.on("exit", (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${signal ?? code}); stopping the rest`);
      void stopAll(1);
    }
  });
}

async function runOnce(
  name: string,
  args: string[],
  extraEnv: Record<string, string>,
): Promise<void> {
  const child = pnpm(args, extraEnv);
  child.stdout?.on("data", (chunk: Buffer) => process.stdout.write(`[${name}] ${chunk}`));
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`${name} failed (exit ${code})`);
}

async function waitFor(
  name: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = Date.now();
  while (Date.now() < deadline) {
    if (stopping) throw new Error("stopped");
    if (await check().catch(() => false)) return;
    if (Date.now() - last > 10_000) {
      log(`still waiting for ${name}...`);
      last = Date.now();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready after ${timeoutMs / 1000}s`);
}

const httpOk = (url: string) => async () =>
  (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;

async function rpcAnswers(): Promise<boolean> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    signal: AbortSignal.timeout(2_000),
  });
  return response.ok;
}

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log("stopping...");
  // Reverse order: API first, chain last, so nothing loses its upstream while still serving.
  for (const service of [...services].reverse()) {
    const { child } = service;
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      process.kill(-child.pid, service.stopSignal);
    } catch {}
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), 10_000)),
    ]);
    if (timedOut) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
    log(`${service.name} stopped`);
  }
  process.exit(exitCode);
}

process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const deploymentsDir = localChain ? `${dataDir}/deployments` : (env.DEPLOYMENTS_DIR ?? "");

  if (localChain) {
    if (await rpcAnswers().catch(() => false)) {
      throw new Error(`something already answers on ${rpcUrl}; stop it or set CHAIN_PORT`);
    }
    // A Hardhat node keeps no state between runs, so the local sandbox starts fresh each time:
    // data recorded against the previous chain would point at tokens that no longer exist.
    for (const dir of ["deployments", "indexer", "api"])
      rmSync(`${dataDir}/${dir}`, { recursive: true, force: true });
    log(`starting a local Hardhat chain on ${rpcUrl} (chain id 31337)`);
    const chainLog = `${dataDir}/chain.log`;
    startService(
      "chain",
      [
        "--filter",
        "@collectibles/contracts",
        "exec",
        "hardhat",
        "node",
        "--hostname",
        "127.0.0.1",
        "--port",
        String(chainPort),
      ],
      {},
      { logFile: chainLog },
    );
    log(`chain log: ${chainLog}`);
    await waitFor("the chain", rpcAnswers, 60_000);
    log("deploying the Collectibles contract");
    await runOnce("deploy", ["--filter", "@collectibles/deploy", "run", "deploy:local"], {
      RPC_URL: rpcUrl,
      DEPLOYMENTS_DIR: deploymentsDir,
    });
  }

  const shared: Record<string, string> = {
    RPC_URL: rpcUrl,
    CHAIN_ID: chainId,
    ...(deploymentsDir ? { DEPLOYMENTS_DIR: deploymentsDir } : {}),
  };

  log(`starting the indexer on http://127.0.0.1:${indexerPort}`);
  startService(
    "indexer",
    ["--filter", "@collectibles/indexer", "run", "start"],
    { ...shared, INDEXER_PORT: String(indexerPort), INDEXER_DATA_DIR: `${dataDir}/indexer` },
    { stopSignal: "SIGINT" },
  );
  await waitFor("the indexer", httpOk(`http://127.0.0.1:${indexerPort}/ready`), 120_000);

  log(`starting the API on http://127.0.0.1:${apiPort}`);
  startService("api", ["--filter", "@collectibles/api", "run", "start"], {
    ...shared,
    PORT: String(apiPort),
    INDEXER_URL: `http://127.0.0.1:${indexerPort}`,
    DATA_DIR: dataDir,
  });
  await waitFor("the API", httpOk(`http://127.0.0.1:${apiPort}/ready`), 60_000);

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
