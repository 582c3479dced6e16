/**
 * Starting and stopping `hardhat node` processes from the contracts package: the engine behind
 * `startLocalChain` (testing.ts), with the chain id as an option so tests can also stand in for a
 * "real" chain.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { childEnv, contractsRoot, hardhatCli, node22 } from "./artifact.ts";
import { freePort, killGroup, trackGroup, untrackGroup } from "./childProcesses.ts";

export interface HardhatNode {
  rpcUrl: string;
  chainId: number;
  port: number;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

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

async function spawnNode(port: number, chainId: number): Promise<HardhatNode> {
  const child = spawn(
    node22(),
    [
      hardhatCli(contractsRoot),
      "node",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(port),
      "--chain-id",
      String(chainId),
    ],
    // Its own process group, so stop() ends it with everything it may have started.
    { cwd: contractsRoot, detached: true, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("Could not spawn `hardhat node`");
  trackGroup(pid);

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
      untrackGroup(pid);
    })();
    return stopped;
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      untrackGroup(pid);
      throw new ChainStartError(
        `\`hardhat node\` on port ${port} exited (${child.exitCode ?? child.signalCode}) before answering:\n${tail}`,
        /EADDRINUSE|address already in use/i.test(tail),
      );
    }
    const answered = await chainIdAt(rpcUrl);
    if (answered !== undefined) {
      if (Number(answered) !== chainId) {
        await stop();
        throw new Error(`Expected chain id ${chainId} at ${rpcUrl}, got ${Number(answered)}`);
      }
      return { rpcUrl, chainId, port, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`\`hardhat node\` on port ${port} did not answer within 60 s:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Spawns `hardhat node --port <port> --chain-id <chainId>` (free port when omitted, chain 31337
 * by default) from the contracts package on Node 22, waits until eth_chainId answers, and kills it
 * (whole process group) on stop().
 */
export async function startHardhatNode(
  opts: { port?: number; chainId?: number } = {},
): Promise<HardhatNode> {
  const chainId = opts.chainId ?? 31337;
  if (opts.port !== undefined) return spawnNode(opts.port, chainId);
  // A free port can be taken between finding it and the node binding it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnNode(await freePort(), chainId);
    } catch (error) {
      if (!(error instanceof ChainStartError && error.portInUse) || attempt >= 3) throw error;
    }
  }
}
