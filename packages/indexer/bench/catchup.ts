/**
 * Benchmark: historical catch-up speed of the indexer, in events per second.
 *
 * One run: a fresh local chain, the contract, one collectible and N claims minted with claimBatch
 * (100 per transaction), then 31 empty blocks so every claim is past Ponder's 30-block finality
 * and indexed as history. Then a fresh `ponder start` of the indexer and of a baseline app (same
 * config, same tables, empty handlers) catches up from the deployment block; Ponder's own log
 * gives the backfill's duration and event count.
 *
 *   pnpm bench                      # 10,000 claim events
 *   BENCH_EVENTS=2000 pnpm bench    # fewer events
 *   BENCH_RUNS=3 pnpm bench         # repeat each measurement, report the median
 *
 * PostgreSQL comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else a throw-away server
 * started for the run; each measurement gets a database of its own.
 * Results: bench/results/catchup.json and catchup.md (overwritten).
 */

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { deployCollectibles } from "@collectibles/deploy/testing";
import { startLocalChain } from "@collectibles/devkit/chain";
import { startTestPostgres } from "@collectibles/devkit/embedded-postgres";
import type { PonderLogLine } from "@collectibles/devkit/ponder";
import {
  createPostgresDatabase as createTestDatabase,
  redactPassword as redact,
  type ThrowAwayDatabase as TestDatabase,
} from "@collectibles/devkit/postgres";
import type { Address } from "viem";
import { collectible, createClient, eq, schema } from "../client.ts";
import { chainActions } from "../test/chainActions.ts";
import { indexerRoot, startIndexer } from "../testing/startIndexer.ts";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const BATCH = 100;
const GIVEN_DATABASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const resultsDir = path.join(indexerRoot, "bench/results");

type App = "indexer" | "baseline";

interface Measurement {
  app: App;
  run: number;
  /** Events Ponder reports it indexed during the backfill. */
  events: number;
  /** Backfill wall time (fetching + indexing), Ponder's own figure. */
  backfillMs: number;
  /** Time inside indexing functions and their database writes only. */
  indexingMs: number;
  /** From spawning `ponder start` to `/ready` answering 200. */
  readyMs: number;
  eventsPerSecond: number;
  indexingEventsPerSecond: number;
}

const log = (message: string) => console.log(`[bench] ${message}`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function main(serverUrl: string) {
  // Fail before minting when PostgreSQL is unreachable: half a benchmark is not a benchmark.
  const probe = await createTestDatabase(serverUrl, "indexer_bench");
  await probe.drop();

  const started = Date.now();
  const loadAtStart = os.loadavg().map((n) => Number(n.toFixed(2)));
  log(`starting a local chain and deploying (load average ${loadAtStart.join(" ")})`);
  const chain = await startLocalChain();
  const deploymentsDir = mkdtempSync(path.join(tmpdir(), "indexer-bench-deployments-"));
  const databases: TestDatabase[] = [];
  try {
    const deployment = await deployCollectibles({ rpcUrl: chain.rpcUrl, deploymentsDir });
    const actions = chainActions(chain.rpcUrl, deployment.address);
    const { id: collectibleId } = await actions.createCollectible({ totalSupply: BigInt(EVENTS) });

    log(`minting ${EVENTS} claims in ${EVENTS / BATCH} claimBatch transactions`);
    const holders = Array.from(
      { length: 50 },
      () => `0x${randomUUID().replaceAll("-", "")}${"0".repeat(8)}` as Address,
    );
    const mintStarted = Date.now();
    let last: `0x${string}` | undefined;
    for (let tx = 0; tx < EVENTS / BATCH; tx++) {
      const claims = Array.from({ length: BATCH }, (_, i) => ({
        collectibleId,
        claimId: randomUUID(),
        to: holders[(tx * BATCH + i) % holders.length] as Address,
      }));
      ({ hash: last } = await actions.claimBatch(claims, { wait: false }));
      if ((tx + 1) % 20 === 0) log(`  ${(tx + 1) * BATCH} claims sent`);
    }
    if (last) await actions.confirmed(last);
    // Past Ponder's 30-block finality on 31337, so all of it is history, not live blocks.
    await actions.mine(31);
    const head = await actions.blockNumber();
    log(`minted in ${((Date.now() - mintStarted) / 1000).toFixed(1)} s; chain head ${head}`);

    const measurements: Measurement[] = [];
    for (let run = 1; run <= RUNS; run++) {
      for (const app of ["baseline", "indexer"] as const) {
        const database = await createTestDatabase(serverUrl, "indexer_bench");
        databases.push(database);
        log(`run ${run}: ${app} (${redact(database.url)})`);
        const lines: PonderLogLine[] = [];
        const spawned = Date.now();
        const indexer = await startIndexer({
          rpcUrl: chain.rpcUrl,
          deploymentsDir,
          databaseUrl: database.url,
          root: app === "baseline" ? path.join(indexerRoot, "bench/baseline") : indexerRoot,
          schema: "bench",
          waitForReady: true,
          onLog: (line) => {
            lines.push(line);
            if (process.env.BENCH_VERBOSE) {
              log(`  +${line.time - spawned} ms ${line.msg} ${JSON.stringify(line).slice(0, 160)}`);
            }
            if (line.msg === "Indexed block range") {
              log(`  indexed ${line.event_count} events in blocks ${line.block_range}`);
            }
          },
        });
        const readyMs = Date.now() - spawned;
        try {
          if (app === "indexer") {
            const { db } = createClient(`${indexer.url}/sql`, { schema });
            const [row] = await db
              .select()
              .from(collectible)
              .where(eq(collectible.id, collectibleId));
            if (row?.claimedCount !== BigInt(EVENTS)) {
              throw new Error(`indexer counted ${row?.claimedCount} claims, expected ${EVENTS}`);
            }
          }
        } finally {
          await indexer.stop();
        }
        const completed = lines.find(
          (l) => l.msg === "Completed backfill indexing across all chains",
        );
        const ranges = lines.filter((l) => l.msg === "Indexed block range");
        const events = ranges.reduce((n, l) => n + Number(l.event_count ?? 0), 0);
        const indexingMs = ranges.reduce((n, l) => n + Number(l.duration ?? 0), 0);
        const backfillMs = Number(completed?.duration ?? Number.NaN);
        if (!completed || events < EVENTS) {
          throw new Error(`${app}: backfill saw ${events} events:\n${indexer.logTail()}`);
        }
        const m: Measurement = {
          app,
          run,
          events,
          backfillMs: Math.round(backfillMs),
          indexingMs: Math.round(indexingMs),
          readyMs,
          eventsPerSecond: Math.round((events / backfillMs) * 1000),
          indexingEventsPerSecond: Math.round((events / indexingMs) * 1000),
        };
        measurements.push(m);
        log(
          `  ${m.events} events: backfill ${m.backfillMs} ms = ${m.eventsPerSecond} events/s ` +
            `(indexing alone ${m.indexingEventsPerSecond} events/s); ready after ${m.readyMs} ms`,
        );
      }
    }

    const summary = (["baseline", "indexer"] as const).map((app) => {
      const ms = measurements.filter((m) => m.app === app);
      return {
        app,
        events: ms[0]?.events ?? 0,
        eventsPerSecond: median(ms.map((m) => m.eventsPerSecond)),
        indexingEventsPerSecond: median(ms.map((m) => m.indexingEventsPerSecond)),
        backfillMs: median(ms.map((m) => m.backfillMs)),
        readyMs: median(ms.map((m) => m.readyMs)),
      };
    });
    const [base, ours] = summary;
    const relativeToBaseline =
      base && ours ? ours.eventsPerSecond / base.eventsPerSecond : Number.NaN;

    const result = {
      benchmark: "indexer historical catch-up",
      date: new Date().toISOString(),
      claimEvents: EVENTS,
      claimsPerTransaction: BATCH,
      runs: RUNS,
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? "unknown",
        node: process.version,
        // Other work on the machine slows both apps alike; a high load makes the figures noisy.
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: os.loadavg().map((n) => Number(n.toFixed(2))),
      },
      ponder: "0.16.10",
      database: "PostgreSQL",
      summary,
      relativeToBaseline,
      measurements,
    };
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, "catchup.json"), `${JSON.stringify(result, null, 2)}\n`);
    const rows = summary.map(
      (s) =>
        `| ${s.app} | ${s.events} | ${s.eventsPerSecond} | ${s.indexingEventsPerSecond} | ${s.backfillMs} | ${s.readyMs} |`,
    );
    const markdown = [
      "# Indexer historical catch-up",
      "",
      `${result.date}: ${EVENTS} claim events (claimBatch of ${BATCH}) from a local chain (anvil), ` +
        `Ponder ${result.ponder}, Node ${process.version}, ${result.machine.cpus} × ${result.machine.cpu} ` +
        `(load average ${loadAtStart[0]} at start), PostgreSQL; median of ${RUNS} run(s). ` +
        "Produced by `pnpm --filter @collectibles/indexer bench`.",
      "",
      "| app | events | events/s (backfill) | events/s (indexing only) | backfill ms | start → ready ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `Indexer vs baseline (backfill events/s): ${(relativeToBaseline * 100).toFixed(0)} %.`,
      "",
      "The baseline is the same Ponder app with empty handlers (bench/baseline): the gap is what",
      "our handlers and their writes cost. Backfill time includes fetching logs and blocks over",
      "JSON-RPC; 'indexing only' is the time Ponder spent in handlers and database writes.",
      "",
    ].join("\n");
    writeFileSync(path.join(resultsDir, "catchup.md"), markdown);
    console.log(`\n${markdown}`);
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; results in ${resultsDir}`);
  } finally {
    await chain.stop();
    for (const db of databases) await db.drop().catch(() => {});
    rmSync(deploymentsDir, { recursive: true, force: true });
  }
}

if (!Number.isInteger(EVENTS) || EVENTS < BATCH || EVENTS % BATCH !== 0) {
  throw new Error(`BENCH_EVENTS must be a multiple of ${BATCH}, got ${process.env.BENCH_EVENTS}`);
}
// Started before main() reads the load average: starting a server is work of its own.
const server = GIVEN_DATABASE_URL ? undefined : await startTestPostgres();
try {
  await main(GIVEN_DATABASE_URL ?? (server?.url as string));
} finally {
  await server?.stop();
}
