/**
 * The service as it runs by default, started after the baseline: a fresh local chain and
 * deployment; two fresh databases (indexer, API) on BENCH_POSTGRES_URL's server, dropped at the
 * end; the Ponder indexer and the real API entry (CONFIRM_TIMEOUT_MS=0) as child processes; an
 * organization and a collectible of BENCH_CLAIMS editions through the API; then the burst, with
 * the memory of the whole stack sampled and CPU time per process read from /proc around it (and,
 * with BENCH_PROFILE=1, the API's CPU profile summarised).
 */
import path from "node:path";
import { confirmedCollectible } from "../lib/apiProcess.ts";
import { cpuPerClaim, cpuSnapshot, type Watched } from "../lib/cpu.ts";
import { type SelfTime, topSelfTime } from "../lib/cpuProfile.ts";
import { statusBytes } from "../lib/proc.ts";
import { startStack } from "../lib/stack.ts";
import { type Footprint, sampleStack } from "../lib/stackMemory.ts";
import { type BurstResult, burst } from "./burst.ts";
import { CLAIMS, log, now, onCleanUp, POSTGRES_URL, PROFILE, sleep } from "./config.ts";
import { viem } from "./viem.ts";

export interface ServiceResult {
  startup: { indexerReadyMs: number; apiStartMs: number };
  burst: BurstResult;
  /** CPU milliseconds per confirmed claim of each process (and their total) during the burst. */
  cpuMsPerClaim: Record<string, number>;
  /** With BENCH_PROFILE=1: the API's functions with the most self time over its whole run. */
  apiProfile?: { totalMs: number; rows: SelfTime[] };
  /**
   * Peak footprint of each part of the stack (api, postgres, indexer, chain) and of the `stack`
   * as a whole, in the 3 s before the burst (`idle`) and during it (`burst`), in bytes.
   */
  memoryBytes: Record<"idle" | "burst", Record<string, Footprint>>;
  /** VmHWM of the API and of the indexer: their lifetime peak RSS, start-up included. */
  lifetimePeakBytes: { api: number; indexer: number };
  durationMs: number;
}

export async function runService(tmp: string): Promise<ServiceResult> {
  const started = now();
  if (!POSTGRES_URL) throw new Error("BENCH_POSTGRES_URL is not set");
  const dir = path.join(tmp, "service");
  const profileDir = PROFILE ? path.join(dir, "api-profile") : undefined;
  const stack = await startStack({
    postgresUrl: POSTGRES_URL,
    dir,
    name: "bench_claims",
    log,
    profileDir,
  });
  onCleanUp(() => stack.stop());
  const { api, indexer, chain, contract, pids } = stack;
  const memory = sampleStack(pids);
  onCleanUp(async () => {
    memory.stop();
  });

  const collectibleId = await confirmedCollectible(api.url, "Burst", CLAIMS);
  // Let the API settle after start-up, so its idle memory is measured as such.
  await sleep(1000);
  memory.mark("idle");
  await sleep(2000);

  log(`collectible ${collectibleId} confirmed; burst of ${CLAIMS} POST /claims`);
  const chainClient = viem.createPublicClient({
    transport: viem.http(chain.rpcUrl, { retryCount: 0 }),
  });
  const watched: Record<string, Watched> = {
    API: { pid: pids.api },
    "indexer (Ponder)": { pid: pids.indexer },
    "chain (anvil)": { pid: pids.chain },
    ...(pids.postgres ? { "PostgreSQL server": { pid: pids.postgres } } : {}),
  };
  const cpuBefore = cpuSnapshot(watched);
  const result = await burst(api.url, indexer.url, chainClient, contract, collectibleId, memory);
  const cpuMsPerClaim = cpuPerClaim(cpuBefore, cpuSnapshot(watched), result.accepted);
  memory.stop();
  if (result.rejected.length > 0 || result.accepted !== result.claims) {
    throw new Error(
      `${result.claims - result.accepted} of ${result.claims} claims were not accepted, e.g. ` +
        JSON.stringify(result.rejected[0]),
    );
  }
  const peaks = memory.peaks();
  const lifetimePeakBytes = {
    api: statusBytes(api.pid, "VmHWM"),
    indexer: statusBytes(pids.indexer, "VmHWM"),
  };
  let apiProfile: ServiceResult["apiProfile"];
  if (profileDir) {
    await api.stop(); // after reading its memory: V8 writes the profile as the process exits
    apiProfile = topSelfTime(profileDir);
  }
  log(
    `burst: ${result.confirmedPerSecond.toFixed(0)} confirmed claims/s; accept p50 ${result.acceptMs.p50} ms, ` +
      `confirm p50 ${result.confirmMs.p50} ms; API listed all confirmed after ${result.timelineMs.apiAllConfirmed} ms`,
  );
  return {
    startup: stack.startup,
    burst: result,
    cpuMsPerClaim,
    ...(apiProfile ? { apiProfile } : {}),
    memoryBytes: { idle: peaks.idle ?? {}, burst: peaks.burst ?? {} },
    lifetimePeakBytes,
    durationMs: Math.round(now() - started),
  };
}
