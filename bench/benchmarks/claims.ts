/**
 * End-to-end claims per second through the HTTP API on the local chain: a burst of BENCH_CLAIMS
 * (5,000) `POST /claims`, from the request to the claim minted and indexed, with the API and the
 * indexer on PostgreSQL, beside the same number of claims sent straight to the contract with
 * viem, one per transaction, in the same run.
 *
 * The measuring runs in a process of its own (`claims/driver.ts`, with tsx, which can load the
 * workspace's TypeScript sources and viem); this module turns its figures into the common rows.
 *
 *   BENCH_CLAIMS=5000                        claims in the burst and in the baseline
 *   BENCH_CLAIM_CONNECTIONS=50               POST /claims in flight at once
 *   BENCH_BASELINE_IN_FLIGHT=16              baseline transactions in flight at once
 *   BENCH_CLAIM_POLL_MS=100                  how often the indexer is asked for new claims
 *   BENCH_API_NODE_ARGS                      extra Node flags for the API process
 *   BENCH_PROFILE=1 (pnpm bench --profile)   the API's CPU profile summarised into the report
 *
 * It creates two databases (indexer, API) on the PostgreSQL server the harness gives and drops
 * them at the end, also when it fails or the run is interrupted.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DriverResult } from "../claims/driver.ts";
import type { ServiceResult } from "../claims/service.ts";
import { profileNote } from "../lib/cpuProfile.ts";
import { killGroup, MiB, runCommand } from "../lib/proc.ts";
import type { Benchmark, Row } from "../lib/result.ts";
import { STACK_MEMORY_NOTE, stackRows } from "../lib/stackMemory.ts";

// Issue 13's goals: 1.4x the direct one-claim-per-transaction baseline and at least 500 claims/s
// on a quiet 2-core machine, at most ~4 ms of CPU per claim across every process.
const GOAL_RATIO = 1.4;
const GOAL_PER_SECOND = 500;
const GOAL_CPU_MS_PER_CLAIM = 4;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const DIRECT = "direct viem, 1 claim/tx";
const mib = (bytes: number) => Math.round(bytes / MiB);
const tenths = (curve: number[]) => curve.map((ms) => (ms / 1000).toFixed(1)).join(", ");

/** The service's rows against the one baseline. */
function serviceRows(s: ServiceResult, baseline: DriverResult["baseline"]): Row[] {
  const { burst } = s;
  const ratio = burst.confirmedPerSecond / baseline.claimsPerSecond;
  return [
    {
      name: "claims/s confirmed (POST to indexed)",
      unit: "claims/s",
      figure: burst.confirmedPerSecond,
      baseline: { name: DIRECT, value: baseline.claimsPerSecond },
      goal: `>= ${GOAL_RATIO}x direct viem`,
      met: ratio >= GOAL_RATIO,
      higherIsBetter: true,
    },
    {
      name: "claims/s confirmed, absolute",
      unit: "claims/s",
      figure: burst.confirmedPerSecond,
      goal: `>= ${GOAL_PER_SECOND} claims/s`,
      goalValue: GOAL_PER_SECOND,
      met: burst.confirmedPerSecond >= GOAL_PER_SECOND,
      higherIsBetter: true,
    },
    {
      name: "claims/s accepted (POST to 202)",
      unit: "claims/s",
      figure: burst.acceptedPerSecond,
      baseline: { name: DIRECT, value: baseline.claimsPerSecond },
      higherIsBetter: true,
    },
    ...(["p50", "p95", "p99"] as const).map(
      (p): Row => ({
        name: `accept latency ${p} (POST to 202)`,
        unit: "ms",
        figure: burst.acceptMs[p],
        baseline: { name: `direct viem, send to tx hash ${p}`, value: baseline.sendMs[p] },
      }),
    ),
    ...(["p50", "p95", "p99"] as const).map(
      (p): Row => ({
        name: `confirm latency ${p} (POST to indexed)`,
        unit: "ms",
        figure: burst.confirmMs[p],
        baseline: { name: `direct viem, send to receipt ${p}`, value: baseline.latencyMs[p] },
      }),
    ),
    {
      name: "CPU per confirmed claim, every process together",
      unit: "ms",
      figure: s.cpuMsPerClaim.total ?? 0,
      goal: `<= ${GOAL_CPU_MS_PER_CLAIM} ms`,
      goalValue: GOAL_CPU_MS_PER_CLAIM,
      met: (s.cpuMsPerClaim.total ?? Number.POSITIVE_INFINITY) <= GOAL_CPU_MS_PER_CLAIM,
    },
    ...Object.entries(s.cpuMsPerClaim)
      .filter(([process]) => process !== "total")
      .map(
        ([process, ms]): Row => ({
          name: `CPU per confirmed claim, ${process}`,
          unit: "ms",
          figure: ms,
        }),
      ),
    ...memoryRows(s),
  ];
}

/** The API's memory beside its idle figure, then the rest of the stack's. */
function memoryRows(s: ServiceResult): Row[] {
  const { idle, burst } = s.memoryBytes;
  return [
    {
      name: "peak RSS of the API during the burst",
      unit: "MiB",
      figure: mib(burst.api?.rss ?? 0),
      baseline: { name: "idle before", value: mib(idle.api?.rss ?? 0) },
    },
    ...stackRows(burst, idle, "during the burst"),
  ];
}

/** Where the burst's time went, start-up and lifetime memory. */
function serviceNote(s: ServiceResult, claims: number): string {
  const t = s.burst.timelineMs;
  const c = s.burst.curves;
  return (
    `All ${claims.toLocaleString("en")} accepted after ` +
    `${seconds(t.allAccepted)}, all mined after ${seconds(t.allMined)}, all indexed after ` +
    `${seconds(t.allIndexed)}; GET /claims listed every claim confirmed after ` +
    `${seconds(t.apiAllConfirmed)}. Per 10 % of the claims, accepted at ${tenths(c.accepted)} s; ` +
    `mined at ${tenths(c.mined)} s; indexed at ${tenths(c.indexed)} s (${s.burst.polls} polls). ` +
    `Start-up, not measured: indexer ready in ${seconds(s.startup.indexerReadyMs)}, API up in ` +
    `${seconds(s.startup.apiStartMs)}. Lifetime peak RSS (VmHWM, start-up included): API ` +
    `${mib(s.lifetimePeakBytes.api)} MiB, indexer ${mib(s.lifetimePeakBytes.indexer)} MiB. ` +
    `The service's run took ${seconds(s.durationMs)} in all.`
  );
}

export const claimsBenchmark: Benchmark = {
  id: "claims",
  title: "End-to-end claims",
  async run(ctx) {
    const claims = Number(process.env.BENCH_CLAIMS ?? 5000);
    const postgresUrl = await ctx.postgres();
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const running = runCommand(
      process.execPath,
      ["--import", tsx, path.join(ctx.root, "bench/claims/driver.ts")],
      {
        cwd: ctx.root,
        env: {
          BENCH_CLAIMS: String(claims),
          BENCH_POSTGRES_URL: postgresUrl,
          ...(ctx.profile ? { BENCH_PROFILE: "1" } : {}),
        },
        // The baseline and start-ups, then up to 40 minutes for the service.
        timeoutMs: 60 * 60_000,
        onLine: (line) => {
          if (line.startsWith("[claims] ")) ctx.log(line.slice("[claims] ".length));
        },
      },
    );
    // The driver runs in a process group of its own, which a Ctrl-C in the terminal does not
    // reach: pass the signal on and wait until it has stopped its processes and dropped its
    // databases.
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    let interrupted = false;
    const forward = (signal: NodeJS.Signals) => {
      if (interrupted) return;
      interrupted = true;
      ctx.log(`${signal}: stopping the claims driver and waiting for its clean-up`);
      killGroup(running.pid, "SIGTERM");
      const force = setTimeout(() => killGroup(running.pid, "SIGKILL"), 60_000);
      running.done
        .catch(() => {})
        .finally(() => {
          clearTimeout(force);
          process.exit(1);
        });
    };
    for (const signal of signals) process.on(signal, forward);
    let output: string;
    try {
      ({ output } = await running.done);
    } catch (error) {
      // Interrupted: exit once the driver is gone (above), writing no result.
      if (interrupted) await new Promise<never>(() => {});
      throw error;
    } finally {
      for (const signal of signals) process.removeListener(signal, forward);
    }
    const line = output
      .split("\n")
      .reverse()
      .find((l) => l.startsWith("RESULT "));
    if (!line) throw new Error(`the claims driver printed no result:\n${output.slice(-2000)}`);
    const r = JSON.parse(line.slice("RESULT ".length)) as DriverResult;
    const { baseline, service } = r;
    const rows = serviceRows(service, baseline);
    return {
      description:
        `After the baseline: a fresh local chain (anvil), the contract, the Ponder indexer and the ` +
        `real API entry (packages/api/src/index.ts; CONFIRM_TIMEOUT_MS=0 so POST answers 202 at ` +
        `once; relayer settings at their defaults) as child processes, the indexer and the API ` +
        `each on a fresh database of its own on the PostgreSQL server (embedded, durable, as ` +
        `\`pnpm start\` runs it, unless BENCH_DATABASE_URL names one; dropped at the end). One ` +
        `collectible of ${claims.toLocaleString("en")} editions, then a burst of ` +
        `${claims.toLocaleString("en")} POST /claims by email (the API creates each holder and ` +
        `its wallet, as an integration granting a collectible to a customer would), ` +
        `${service.burst.connections} at once over keep-alive HTTP. A claim counts as confirmed ` +
        `when the indexer has it (mined and indexed); claims/s is claims over first POST to last ` +
        `claim indexed. Baseline, measured once in the same run before the service starts, on a ` +
        `local chain (anvil) and deployment of its own: the same number of claims sent straight ` +
        `to the contract with viem, one claim per transaction, signed locally with the minter's ` +
        `key, explicit nonces, ${baseline.inFlight} in flight, each waited for until its ` +
        `receipt; its latencies (send to transaction hash, send to receipt) stand beside accept ` +
        `and confirm latency.`,
      rows,
      notes: [
        serviceNote(service, claims),
        ...(service.apiProfile ? [profileNote("The service", "start-up", service.apiProfile)] : []),
        `Confirmation is seen by polling the indexer's SQL route every ${r.pollMs} ms for the ` +
          `collectible's claims above the highest contiguous edition seen (each poll returns ` +
          `only new rows), plus one eth_call of claimedCount for the mined curve; confirm ` +
          `latency is therefore late by up to one poll interval. The API itself marks a claim ` +
          `confirmed just after the indexer has its block.`,
        `Baseline: ${baseline.claimsPerSecond.toFixed(0)} claims/s over ` +
          `${seconds(baseline.windowMs)}, ${baseline.gasPerClaim.toLocaleString("en")} gas per ` +
          `claim; the chain mines each transaction in its own block (automine), as the API's ` +
          `claimBatch transactions are.`,
        `CPU per claim: utime + stime from /proc of each process tree (and the children it ` +
          `reaped) from the first POST until the API lists every claim confirmed, over the ` +
          `claims accepted; 'PostgreSQL server' is the postmaster and every process under it ` +
          `(on a server named by BENCH_DATABASE_URL, other clients' work too).`,
        `${STACK_MEMORY_NOTE} 'Idle before' is the 3 s before the burst.`,
        "The request log is on at info (stdout read and dropped); the per-key rate limit is " +
          "raised so the burst is not answered 429.",
        "The load generator, the chain, the indexer, the API and PostgreSQL share this " +
          "machine's cores, so the figures are lower than on separate machines.",
      ],
      raw: r,
    };
  },
};
