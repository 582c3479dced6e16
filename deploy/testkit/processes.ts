/** Helpers shared by this package's tests. */
import { spawn, spawnSync } from "node:child_process";
import { childEnv, deployRoot, hardhatCli, node22 } from "../src/artifact.ts";

/** Whether any process still has `--port <port>` on its command line (an orphaned node). */
export function processOnPort(port: number): string | undefined {
  const ps = spawnSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return ps.stdout
    .split("\n")
    .find((line) => line.includes(`--port ${port}`) && !line.includes("ps -eo"));
}

/** Whether something answers JSON-RPC at `rpcUrl`. */
export async function answers(rpcUrl: string): Promise<boolean> {
  try {
    await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return true;
  } catch {
    return false;
  }
}

export interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to completion, collecting stdout and stderr together. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = deployRoot,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      // As from a developer's shell: none of the markers `hardhat test` sets for itself.
      env: { ...childEnv(env), HH_TEST: "", NODE_ENV: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** `hardhat run --no-compile --network <network> scripts/deploy.ts`, as `pnpm deploy:local` runs it. */
export function runDeployScript(network: string, env: Record<string, string>): Promise<Run> {
  return run(
    node22(),
    [hardhatCli(deployRoot), "run", "--no-compile", "--network", network, "scripts/deploy.ts"],
    env,
  );
}
