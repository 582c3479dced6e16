/**
 * End-to-end claims per second through the HTTP API on the local chain: a burst of BENCH_CLAIMS
 * (5,000) `POST /claims`, from the request to the claim minted and indexed, beside the same number
 * of claims sent straight to the contract with viem, one per transaction, in the same run.
 *
 * The measuring runs in a process of its own (`claims/driver.ts`, with tsx, which can load the
 * workspace's TypeScript sources and viem); this module turns its figures into the common rows.
 *
 *   BENCH_CLAIMS=5000              claims in the burst and in the baseline
 *   BENCH_CLAIM_CONNECTIONS=50     POST /claims in flight at once
 *   BENCH_BASELINE_IN_FLIGHT=16    baseline transactions in flight at once
 *   BENCH_CLAIM_POLL_MS=100        how often the indexer is asked for newly indexed claims
 *   BENCH_API_NODE_ARGS            extra Node flags for the API process (e.g. --cpu-prof)
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MiB, runCommand } from "../lib/proc.ts";
import type { Benchmark, Row } from "../lib/result.ts";

interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The driver's `RESULT` line (see claims/driver.ts). */
interface DriverResult {
  database: string;
  holders: string;
  pollMs: number;
  startup: { indexerReadyMs: number; apiStartMs: number };
  baseline: {
    claims: number;
    inFlight: number;
    windowMs: number;
    claimsPerSecond: number;
    sendMs: Percentiles;
    latencyMs: Percentiles;
    gasPerClaim: number;
  };
  burst: {
    claims: number;
    connections: number;
    accepted: number;
    rejected: { status: number; body: string }[];
    acceptMs: Percentiles;
    confirmMs: Percentiles;
    windowMs: number;
    confirmedPerSecond: number;
    acceptedPerSecond: number;
    timelineMs: {
      allAccepted: number;
      allMined: number;
      allIndexed: number;
      apiAllConfirmed: number;
    };
    curves: { accepted: number[]; mined: number[]; indexed: number[] };
    polls: number;
  };
  memoryBytes: Record<"api" | "indexer", { idle: number; burst: number; lifetimePeak: number }>;
}

const GOAL_RATIO = 5;
const GOAL_PER_SECOND = 500;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const claimsBenchmark: Benchmark = {
  id: "claims",
  title: "End-to-end claims",
  async run(ctx) {
    const claims = Number(process.env.BENCH_CLAIMS ?? 5000);
    const tsx = pathToFileURL(
      createRequire(path.join(ctx.root, "packages/api/package.json")).resolve("tsx"),
    ).href;
    const running = runCommand(
      process.execPath,
      ["--import", tsx, path.join(ctx.root, "bench/claims/driver.ts")],
      {
        cwd: ctx.root,
        env: { BENCH_CLAIMS: String(claims) },
        timeoutMs: 40 * 60_000,
        onLine: (line) => {
          if (line.startsWith("[claims] ")) ctx.log(line.slice("[claims] ".length));
        },
      },
    );
    const { output } = await running.done;
    const line = output
      .split("\n")
      .reverse()
      .find((l) => l.startsWith("RESULT "));
    if (!line) throw new Error(`the claims driver printed no result:\n${output.slice(-2000)}`);
    const r = JSON.parse(line.slice("RESULT ".length)) as DriverResult;
    const { burst, baseline } = r;
    if (burst.rejected.length > 0 || burst.accepted !== burst.claims) {
      throw new Error(
        `${burst.claims - burst.accepted} of ${burst.claims} claims were not accepted, e.g. ` +
          JSON.stringify(burst.rejected[0]),
      );
    }
    const database = r.database.startsWith("PGlite") ? "PGlite" : "PostgreSQL";
    const ratio = burst.confirmedPerSecond / baseline.claimsPerSecond;
    const direct = `direct viem, 1 claim/tx`;
    const mib = (bytes: number) => Math.round(bytes / MiB);

    const rows: Row[] = [
      {
        name: `end-to-end claims/s, POST to indexed (${database})`,
        unit: "claims/s",
        figure: burst.confirmedPerSecond,
        baseline: { name: direct, value: baseline.claimsPerSecond },
        goal: `>= ${GOAL_RATIO}x direct viem`,
        met: ratio >= GOAL_RATIO,
        higherIsBetter: true,
      },
      {
        name: "end-to-end claims/s, absolute",
        unit: "claims/s",
        figure: burst.confirmedPerSecond,
        goal: `>= ${GOAL_PER_SECOND} claims/s`,
        goalValue: GOAL_PER_SECOND,
        met: burst.confirmedPerSecond >= GOAL_PER_SECOND,
        higherIsBetter: true,
      },
      {
        name: "POST /claims accepted (202) per second",
        unit: "claims/s",
        figure: burst.acceptedPerSecond,
        baseline: { name: direct, value: baseline.claimsPerSecond },
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
        name: "peak RSS of the API process during the burst",
        unit: "MiB",
        figure: mib(r.memoryBytes.api.burst),
        baseline: { name: "idle before the burst", value: mib(r.memoryBytes.api.idle) },
      },
      {
        name: "peak RSS of the indexer (Ponder) during the burst",
        unit: "MiB",
        figure: mib(r.memoryBytes.indexer.burst),
        baseline: { name: "idle before the burst", value: mib(r.memoryBytes.indexer.idle) },
      },
    ];

    const t = burst.timelineMs;
    return {
      description:
        `A fresh Hardhat node, the contract, the Ponder indexer (PGlite) and the real API entry ` +
        `(packages/api/src/index.ts on ${database}, the default; CONFIRM_TIMEOUT_MS=0 so POST ` +
        `answers 202 at once; relayer settings at their defaults) as child processes. One ` +
        `collectible of ${claims.toLocaleString("en")} editions, then a burst of ` +
        `${claims.toLocaleString("en")} POST /claims by email (the API creates each holder and ` +
        `its wallet, as an integration granting a collectible to a customer would), ` +
        `${burst.connections} at once over keep-alive HTTP. A claim counts as confirmed when the ` +
        `indexer has it (mined and indexed); claims/s is claims over first POST to last claim ` +
        `indexed. Baseline, in the same run before the API and indexer start, on a Hardhat node ` +
        `and deployment of its own: the same number of ` +
        `claims sent straight to the contract with viem, one claim per transaction, signed ` +
        `locally with the minter's key, explicit nonces, ${baseline.inFlight} in flight, each ` +
        `waited for until its receipt; its latencies (send to transaction hash, send to receipt) ` +
        `stand beside accept and confirm latency.`,
      rows,
      notes: [
        `Where the time goes (since the first POST): all ${claims.toLocaleString("en")} accepted ` +
          `after ${seconds(t.allAccepted)}, all mined after ${seconds(t.allMined)}, all indexed ` +
          `after ${seconds(t.allIndexed)}; GET /claims listed every claim confirmed after ` +
          `${seconds(t.apiAllConfirmed)}. Per 10 % of the claims, accepted at ` +
          `${burst.curves.accepted.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s; mined at ` +
          `${burst.curves.mined.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s; indexed at ` +
          `${burst.curves.indexed.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s.`,
        `Confirmation is seen by polling the indexer's SQL route every ${r.pollMs} ms for the ` +
          `collectible's claims above the highest contiguous edition seen (each poll returns ` +
          `only new rows; ${burst.polls} polls), plus one eth_call of claimedCount for the mined ` +
          `curve; confirm latency is therefore late by up to one poll interval. The API itself ` +
          `marks a claim confirmed just after the indexer has its block.`,
        `Baseline: ${baseline.claimsPerSecond.toFixed(0)} claims/s over ` +
          `${seconds(baseline.windowMs)}, ${baseline.gasPerClaim.toLocaleString("en")} gas per ` +
          `claim; the chain mines each transaction in its own block (automine), as the API's ` +
          `claimBatch transactions are.`,
        `Peak RSS: VmRSS of each process and its children sampled every 200 ms; 'idle' is the ` +
          `3 s before the burst. Lifetime peaks (VmHWM, including start-up): API ` +
          `${mib(r.memoryBytes.api.lifetimePeak)} MiB, indexer ${mib(r.memoryBytes.indexer.lifetimePeak)} MiB.`,
        `Start-up, not measured: indexer ready in ${seconds(r.startup.indexerReadyMs)}, API up ` +
          `in ${seconds(r.startup.apiStartMs)}. The request log is on at info (stdout read and ` +
          `dropped); the per-key rate limit is raised so the burst is not answered 429.`,
        "The load generator, the chain, the indexer and the API share this machine's cores, so " +
          "the figures are lower than on separate machines.",
      ],
      raw: r,
    };
  },
};
