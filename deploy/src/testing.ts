/**
 * Test helpers for every package that needs a chain: start a throw-away Hardhat node and deploy
 * Collectibles to it in well under a second (plain viem, not Ignition).
 *
 * ```ts
 * const chain = await startLocalChain();
 * const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir: tmp });
 * // ... test ...
 * await chain.stop();
 * ```
 *
 * The contract comes from deploy/artifacts (`pnpm build` / `pnpm test` build it first; when it is
 * missing or older than the sources in contracts/, the first deploy builds it, ~10 s).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import { pathToFileURL } from "node:url";
import { type Address, createPublicClient, createWalletClient, http } from "viem";
import { childEnv, collectiblesArtifact, contractsRoot, hardhatCli, node22 } from "./artifact.ts";
import { type Deployment, writeDeployment } from "./index.ts";

/** Hardhat's well-known development mnemonic: accounts of every `hardhat node`. Never on a real chain. */
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";
/** Account #0 of `hardhat node`: deployer, admin and default minter of test deployments. */
export const HARDHAT_ACCOUNT_0: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

export interface LocalChain {
  rpcUrl: string;
  chainId: 31337;
  port: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/** Process groups of chains still running, killed when this process exits however it exits. */
const running = new Set<number>();
let cleanupInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on("exit", () => {
    for (const pid of running) killGroup(pid, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      for (const pid of running) killGroup(pid, "SIGKILL");
      running.clear();
      // Keep the default behaviour (exit by that signal) unless someone else handles it.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function chainIdAt(rpcUrl: string): Promise<string | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result;
  } catch {
    return undefined;
  }
}

class ChainStartError extends Error {
  readonly portInUse: boolean;
  constructor(message: string, portInUse: boolean) {
    super(message);
    this.portInUse = portInUse;
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function spawnChain(port: number): Promise<LocalChain> {
  installCleanup();
  const child = spawn(
    node22(),
    [hardhatCli(contractsRoot), "node", "--hostname", "127.0.0.1", "--port", String(port)],
    // Its own process group, so stop() ends it with everything it may have started.
    { cwd: contractsRoot, detached: true, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("Could not spawn `hardhat node`");
  running.add(pid);

  // The node logs every request: keep reading so it never blocks, keep the tail for errors.
  let tail = "";
  const keepTail = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on("data", keepTail);
  child.stderr?.on("data", keepTail);
  // A test that forgets stop() must not keep its process alive; the exit hook still kills it.
  child.unref();
  (child.stdout as { unref?: () => void } | null)?.unref?.();
  (child.stderr as { unref?: () => void } | null)?.unref?.();

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      killGroup(pid, "SIGTERM");
      if (!(await waitForExit(child, 5_000))) {
        killGroup(pid, "SIGKILL");
        await waitForExit(child, 5_000);
      }
      running.delete(pid);
    })();
    return stopped;
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(pid);
      throw new ChainStartError(
        `\`hardhat node\` on port ${port} exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail}`,
        /EADDRINUSE|address already in use/i.test(tail),
      );
    }
    const chainId = await chainIdAt(rpcUrl);
    if (chainId !== undefined) {
      if (chainId !== "0x7a69") {
        await stop();
        throw new Error(`Expected chain id 31337 at ${rpcUrl}, got ${Number(chainId)}`);
      }
      return { rpcUrl, chainId: 31337, port, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`\`hardhat node\` on port ${port} did not answer within 60 s:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Spawns `hardhat node --port <port>` (free port when omitted) from the contracts package on
 * Node 22, waits until eth_chainId answers, and kills it (whole process group) on stop().
 */
export async function startLocalChain(opts: { port?: number } = {}): Promise<LocalChain> {
  if (opts.port !== undefined) return spawnChain(opts.port);
  // A free port can be taken between finding it and the node binding it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnChain(await freePort());
    } catch (error) {
      if (!(error instanceof ChainStartError && error.portInUse) || attempt >= 3) throw error;
    }
  }
}

/**
 * Deploys Collectibles to rpcUrl with viem (fast; not Ignition) from the compiled artifact,
 * admin = minter = Hardhat's account #0 (or opts.minter), and writes <deploymentsDir>/<chainId>.json.
 * The admin delay is 0: tests may transfer the admin role without waiting.
 */
export async function deployCollectibles(opts: {
  rpcUrl: string;
  deploymentsDir: string;
  minter?: `0x${string}`;
}): Promise<Deployment> {
  const artifact = await collectiblesArtifact();
  const transport = http(opts.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport, pollingInterval: 50 });
  let chainId: number;
  try {
    chainId = await publicClient.getChainId();
  } catch (error) {
    throw new Error(`Cannot reach the chain at ${opts.rpcUrl}: ${(error as Error).message}`);
  }
  const wallet = createWalletClient({ account: HARDHAT_ACCOUNT_0, transport });
  const hash = await wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [0, HARDHAT_ACCOUNT_0, opts.minter ?? HARDHAT_ACCOUNT_0],
    chain: null,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new Error(`Deploying Collectibles failed in transaction ${hash}`);
  }
  const deployment: Deployment = {
    chainId,
    contract: "Collectibles",
    address: receipt.contractAddress,
    deployBlock: Number(receipt.blockNumber),
    deployTransaction: hash,
  };
  writeDeployment(deployment, pathToFileURL(`${opts.deploymentsDir.replace(/\/+$/, "")}/`));
  return deployment;
}
