/**
 * The measuring process of the end-to-end claims benchmark (started with tsx by
 * bench/benchmarks/claims.ts):
 *
 * 1. the baseline (claims/baseline.ts), before anything else runs, on a local chain and
 *    deployment of its own, stopped afterwards;
 * 2. then, for each database in BENCH_CLAIM_DATABASES (`postgres`, `pglite`; in that order by
 *    default), one variant of the service (claims/variant.ts) with its burst (claims/burst.ts).
 *    A variant that fails is recorded as failed (with its error) and the next one still runs.
 *
 * Progress lines go to stderr as `[claims] ...`; the last stdout line is `RESULT <json>`.
 * Every process and database made here goes at the end, also on failure or SIGINT/SIGTERM/SIGHUP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { startLocalChain } from "@collectibles/devkit/chain";
import { agent } from "./apiProcess.ts";
import { type BaselineResult, baseline } from "./baseline.ts";
import {
  BASELINE_IN_FLIGHT,
  CLAIMS,
  cleanUp,
  cleanUpMark,
  DATABASE_NAMES,
  type DatabaseKind,
  log,
  now,
  onCleanUp,
  POLL_MS,
  parseDatabases,
  setVariantLabel,
} from "./config.ts";
import { runVariant, type VariantFailure, type VariantResult } from "./variant.ts";

type Hex = `0x${string}`;

const DATABASES = parseDatabases(process.env.BENCH_CLAIM_DATABASES);

/** The last stdout line, `RESULT <json>`, read by bench/benchmarks/claims.ts. */
export interface DriverResult {
  holders: string;
  pollMs: number;
  databases: DatabaseKind[];
  baseline: BaselineResult;
  variants: (VariantResult | VariantFailure)[];
  cpus: number;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-claims-"));
  onCleanUp(async () => fs.rmSync(tmp, { recursive: true, force: true }));
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
    setVariantLabel(`${name}: `);
    log(`variant ${i + 1}/${DATABASES.length}`);
    const keep = cleanUpMark();
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
    setVariantLabel("");
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
