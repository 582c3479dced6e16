/** Runs this package's scripts the way a developer's shell does. */
import { type RunResult, runToEnd } from "@collectibles/devkit/processes";
import { childEnv, deployRoot, hardhatCli, node22 } from "../src/artifact.ts";

/** Runs a command to completion with the given environment on top of the developer's. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<RunResult> {
  return runToEnd({
    name: args.slice(0, 3).join(" "),
    command,
    args,
    cwd: deployRoot,
    // As from a developer's shell: none of the markers `hardhat test` sets for itself.
    env: { ...childEnv(env), HH_TEST: "", NODE_ENV: "" },
    timeoutMs: 180_000,
  });
}

/** `hardhat run --no-compile --network <network> scripts/deploy.ts`, as `pnpm deploy:local` runs it. */
export function runDeployScript(network: string, env: Record<string, string>): Promise<RunResult> {
  return run(
    node22(),
    [hardhatCli(deployRoot), "run", "--no-compile", "--network", network, "scripts/deploy.ts"],
    env,
  );
}
