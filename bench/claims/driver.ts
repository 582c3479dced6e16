/**
 * The measuring process of the end-to-end claims benchmark (started with tsx by
 * bench/benchmarks/claims.ts):
 *
 * 1. the baseline (claims/baseline.ts), before anything else runs, on a local chain and
 *    deployment of its own, stopped afterwards;
 * 2. then the service (claims/service.ts) with its burst (claims/burst.ts).
 *
 * Progress lines go to stderr as `[claims] ...`; the last stdout line is `RESULT <json>`.
 * Every process and database made here goes at the end, also on failure or SIGINT/SIGTERM/SIGHUP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { startLocalChain } from "@collectibles/devkit/chain";
import { agent } from "../lib/apiProcess.ts";
import { type BaselineResult, baseline } from "./baseline.ts";
import { BASELINE_IN_FLIGHT, CLAIMS, cleanUp, log, onCleanUp, POLL_MS } from "./config.ts";
import { runService, type ServiceResult } from "./service.ts";

type Hex = `0x${string}`;

/** The last stdout line, `RESULT <json>`, read by bench/benchmarks/claims.ts. */
export interface DriverResult {
  holders: string;
  pollMs: number;
  baseline: BaselineResult;
  service: ServiceResult;
  cpus: number;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-claims-"));
  onCleanUp(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  log(`${CLAIMS} claims: the baseline, then the service`);

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

  const service = await runService(tmp);
  const result: DriverResult = {
    holders: "email",
    pollMs: POLL_MS,
    baseline: base,
    service,
    cpus: os.availableParallelism(),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

// A signal (the benchmark's parent passes on its own) still stops every process and drops every
// database made here; the process helper kills the tracked process groups at once beside this.
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
