/**
 * End-to-end claims per second through the HTTP API on the local chain: a burst of BENCH_CLAIMS
 * (5,000) `POST /claims`, from the request to the claim minted and indexed, with the API and the
 * indexer on PostgreSQL and on PGlite (one variant each, in turn), beside the same number of
 * claims sent straight to the contract with viem, one per transaction, once in the same run.
 *
 * The measuring runs in a process of its own (`claims/driver.ts`, with tsx, which can load the
 * workspace's TypeScript sources and viem); this module turns its figures into the common rows.
 *
 *   BENCH_CLAIMS=5000                        claims in each burst and in the baseline
 *   BENCH_CLAIM_DATABASES=postgres,pglite    variants to run, in this order
 *   BENCH_CLAIM_CONNECTIONS=50               POST /claims in flight at once
 *   BENCH_BASELINE_IN_FLIGHT=16              baseline transactions in flight at once
 *   BENCH_CLAIM_POLL_MS=100                  how often the indexer is asked for new claims
 *   BENCH_API_NODE_ARGS                      extra Node flags for the API process
 *   BENCH_PROFILE=1 (pnpm bench --profile)   the API's CPU profile summarised into the report
 *
 * The PostgreSQL variant creates two databases (indexer, API) on the server `ctx.postgresUrl`
 * names and drops them at the end, also when it fails or the run is interrupted.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DriverResult } from "../claims/driver.ts";
import type { VariantFailure, VariantResult } from "../claims/variant.ts";
import { profileNote } from "../lib/cpuProfile.ts";
import { killGroup, MiB, runCommand } from "../lib/proc.ts";
import type { Benchmark, Row } from "../lib/result.ts";

// Issue 13's goals: 1.4x the direct one-claim-per-transaction baseline (about 500 claims/s on a
// quiet 2-core machine, at most ~4 ms of CPU per claim across every process), and PGlite at least
// half of PostgreSQL.
const GOAL_RATIO = 1.4;
const GOAL_PER_SECOND = 500;
const GOAL_CPU_MS_PER_CLAIM = 4;
const GOAL_PGLITE_OF_POSTGRES = 0.5;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const DIRECT = "direct viem, 1 claim/tx";
const mib = (bytes: number) => Math.round(bytes / MiB);
const tenths = (curve: number[]) => curve.map((ms) => (ms / 1000).toFixed(1)).join(", ");

/** The rows of one variant, each named after its database, against the one baseline. */
function variantRows(v: VariantResult, baseline: DriverResult["baseline"]): Row[] {
  const { burst } = v;
  const ratio = burst.confirmedPerSecond / baseline.claimsPerSecond;
  const rows: Row[] = [
    {
      name: `${v.name}: claims/s confirmed (POST to indexed)`,
      unit: "claims/s",
      figure: burst.confirmedPerSecond,
      baseline: { name: DIRECT, value: baseline.claimsPerSecond },
      goal: `>= ${GOAL_RATIO}x direct viem`,
      met: ratio >= GOAL_RATIO,
      higherIsBetter: true,
    },
    {
      name: `${v.name}: claims/s confirmed, absolute`,
      unit: "claims/s",
      figure: burst.confirmedPerSecond,
      goal: `>= ${GOAL_PER_SECOND} claims/s`,
      goalValue: GOAL_PER_SECOND,
      met: burst.confirmedPerSecond >= GOAL_PER_SECOND,
      higherIsBetter: true,
    },
    {
      name: `${v.name}: claims/s accepted (POST to 202)`,
      unit: "claims/s",
      figure: burst.acceptedPerSecond,
      baseline: { name: DIRECT, value: baseline.claimsPerSecond },
      higherIsBetter: true,
    },
    ...(["p50", "p95", "p99"] as const).map(
      (p): Row => ({
        name: `${v.name}: accept latency ${p} (POST to 202)`,
        unit: "ms",
        figure: burst.acceptMs[p],
        baseline: { name: `direct viem, send to tx hash ${p}`, value: baseline.sendMs[p] },
      }),
    ),
    ...(["p50", "p95", "p99"] as const).map(
      (p): Row => ({
        name: `${v.name}: confirm latency ${p} (POST to indexed)`,
        unit: "ms",
        figure: burst.confirmMs[p],
        baseline: { name: `direct viem, send to receipt ${p}`, value: baseline.latencyMs[p] },
      }),
    ),
    {
      name: `${v.name}: CPU per confirmed claim, every process together`,
      unit: "ms",
      figure: v.cpuMsPerClaim.total ?? 0,
      goal: `<= ${GOAL_CPU_MS_PER_CLAIM} ms`,
      goalValue: GOAL_CPU_MS_PER_CLAIM,
      met: (v.cpuMsPerClaim.total ?? Number.POSITIVE_INFINITY) <= GOAL_CPU_MS_PER_CLAIM,
    },
    ...Object.entries(v.cpuMsPerClaim)
      .filter(([process]) => process !== "total")
      .map(
        ([process, ms]): Row => ({
          name: `${v.name}: CPU per confirmed claim, ${process}`,
          unit: "ms",
          figure: ms,
        }),
      ),
    {
      name: `${v.name}: peak RSS of the API during the burst`,
      unit: "MiB",
      figure: mib(v.memoryBytes.api.burst),
      baseline: { name: "idle before the burst", value: mib(v.memoryBytes.api.idle) },
    },
    {
      name: `${v.name}: peak RSS of the indexer (Ponder) during the burst`,
      unit: "MiB",
      figure: mib(v.memoryBytes.indexer.burst),
      baseline: { name: "idle before the burst", value: mib(v.memoryBytes.indexer.idle) },
    },
  ];
  return rows.map((row) => ({ ...row, group: `${v.name} (API and indexer)` }));
}

/** One note per variant: where its time went, start-up and lifetime memory. */
function variantNote(v: VariantResult, claims: number): string {
  const t = v.burst.timelineMs;
  const c = v.burst.curves;
  return (
    `${v.name}: all ${claims.toLocaleString("en")} accepted after ` +
    `${seconds(t.allAccepted)}, all mined after ${seconds(t.allMined)}, all indexed after ` +
    `${seconds(t.allIndexed)}; GET /claims listed every claim confirmed after ` +
    `${seconds(t.apiAllConfirmed)}. Per 10 % of the claims, accepted at ${tenths(c.accepted)} s; ` +
    `mined at ${tenths(c.mined)} s; indexed at ${tenths(c.indexed)} s (${v.burst.polls} polls). ` +
    `Start-up, not measured: indexer ready in ${seconds(v.startup.indexerReadyMs)}, API up in ` +
    `${seconds(v.startup.apiStartMs)}. Lifetime peak RSS (VmHWM, start-up included): API ` +
    `${mib(v.memoryBytes.api.lifetimePeak)} MiB, indexer ${mib(v.memoryBytes.indexer.lifetimePeak)} MiB. ` +
    `The variant took ${seconds(v.durationMs)} in all.`
  );
}

export const claimsBenchmark: Benchmark = {
  id: "claims",
  title: "End-to-end claims",
  async run(ctx) {
    const claims = Number(process.env.BENCH_CLAIMS ?? 5000);
    const databases = (process.env.BENCH_CLAIM_DATABASES ?? "postgres,pglite")
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    const unknown = databases.filter((d) => d !== "postgres" && d !== "pglite");
    if (databases.length === 0 || unknown.length > 0) {
      throw new Error(
        `BENCH_CLAIM_DATABASES: expected a comma-separated list of postgres, pglite; got ` +
          `"${process.env.BENCH_CLAIM_DATABASES}"`,
      );
    }
    ctx.log(`${claims} claims; baseline, then ${databases.join(", ")}`);
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const running = runCommand(
      process.execPath,
      ["--import", tsx, path.join(ctx.root, "bench/claims/driver.ts")],
      {
        cwd: ctx.root,
        env: {
          BENCH_CLAIMS: String(claims),
          BENCH_CLAIM_DATABASES: databases.join(","),
          BENCH_POSTGRES_URL: ctx.postgresUrl,
          ...(ctx.profile ? { BENCH_PROFILE: "1" } : {}),
        },
        // The baseline and start-ups, then up to 40 minutes per variant.
        timeoutMs: (20 + 40 * databases.length) * 60_000,
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
    const { baseline } = r;
    const measured = r.variants.filter((v): v is VariantResult => !("error" in v));
    const failed = r.variants.filter((v): v is VariantFailure => "error" in v);
    for (const f of failed) ctx.log(`${f.name} variant FAILED: ${f.error.split("\n")[0]}`);
    if (measured.length === 0) {
      throw new Error(failed.map((f) => `${f.name}: ${f.error}`).join("; "));
    }

    const rows = measured.flatMap((v) => variantRows(v, baseline));
    const postgres = measured.find((v) => v.database === "postgres");
    const pglite = measured.find((v) => v.database === "pglite");
    if (postgres && pglite) {
      rows.push({
        name: "PGlite: claims/s confirmed against PostgreSQL's",
        unit: "claims/s",
        figure: pglite.burst.confirmedPerSecond,
        baseline: { name: "PostgreSQL, same run", value: postgres.burst.confirmedPerSecond },
        goal: `>= ${GOAL_PGLITE_OF_POSTGRES}x PostgreSQL`,
        met:
          pglite.burst.confirmedPerSecond >=
          GOAL_PGLITE_OF_POSTGRES * postgres.burst.confirmedPerSecond,
        higherIsBetter: true,
      });
    }
    const order = r.variants.map((v) => v.name).join(", then ");
    return {
      description:
        `For each database, in turn (${order}), after the baseline: a fresh local chain (anvil), the ` +
        `contract, the Ponder indexer and the real API entry (packages/api/src/index.ts; ` +
        `CONFIRM_TIMEOUT_MS=0 so POST answers 202 at once; relayer settings at their defaults) ` +
        `as child processes, the indexer and the API each on a database of its own: on ` +
        `PostgreSQL, two fresh databases on the local server (DATABASE_URL for each, dropped at ` +
        `the end); on PGlite, the default, embedded in each process. One collectible of ` +
        `${claims.toLocaleString("en")} editions, then a burst of ` +
        `${claims.toLocaleString("en")} POST /claims by email (the API creates each holder and ` +
        `its wallet, as an integration granting a collectible to a customer would), ` +
        `${measured[0]?.burst.connections ?? "?"} at once over keep-alive HTTP. A claim counts ` +
        `as confirmed when the indexer has it (mined and indexed); claims/s is claims over ` +
        `first POST to last claim indexed. Baseline, measured once in the same run before any ` +
        `variant starts, on a local chain (anvil) and deployment of its own: the same number of ` +
        `claims sent straight to the contract with viem, one claim per transaction, signed ` +
        `locally with the minter's key, explicit nonces, ${baseline.inFlight} in flight, each ` +
        `waited for until its receipt; its latencies (send to transaction hash, send to receipt) ` +
        `stand beside accept and confirm latency. Each variant's rows are named after its ` +
        `database.`,
      rows,
      notes: [
        ...failed.map(
          (f) =>
            `${f.name} variant FAILED after ${seconds(f.durationMs)}, so it has no rows: ` +
            `${f.error.split("\n")[0]}`,
        ),
        ...(postgres && pglite
          ? [
              `PostgreSQL against PGlite, same run: ` +
                `${(postgres.burst.confirmedPerSecond / pglite.burst.confirmedPerSecond).toFixed(2)}× ` +
                `the confirmed claims/s, ` +
                `${(postgres.burst.acceptedPerSecond / pglite.burst.acceptedPerSecond).toFixed(2)}× ` +
                `the accepted claims/s.`,
            ]
          : []),
        ...measured.map((v) => variantNote(v, claims)),
        ...measured.flatMap((v) =>
          v.apiProfile ? [profileNote(v.name, "start-up", v.apiProfile)] : [],
        ),
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
          `claims accepted; 'PostgreSQL server' is every postgres process of the shared local ` +
          `server; on PGlite the database's time is inside the API's and the indexer's.`,
        `Peak RSS: VmRSS of each process and its children sampled every 200 ms; 'idle' is the ` +
          `3 s before the burst. On PostgreSQL the server's own processes (shared, started ` +
          `outside the benchmark) are not counted in either figure.`,
        "The request log is on at info (stdout read and dropped); the per-key rate limit is " +
          "raised so the burst is not answered 429.",
        "The load generator, the chain, the indexer, the API and PostgreSQL share this " +
          "machine's cores, so the figures are lower than on separate machines.",
      ],
      raw: r,
    };
  },
};
