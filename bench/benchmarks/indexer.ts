/**
 * Indexer catch-up, from the indexer package's own benchmark (`pnpm --filter
 * @collectibles/indexer bench`): 10,000 claim events on PGlite and PostgreSQL, beside a Ponder app
 * with the same config and empty handlers. Peak RSS of the Ponder processes is sampled here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MiB, pnpmCommand, runCommand, sampleTreeRss } from "../lib/proc.ts";
import type { Benchmark, Row } from "../lib/result.ts";

interface CatchupSummary {
  app: "indexer" | "baseline";
  database: "pglite" | "postgres";
  events: number;
  eventsPerSecond: number;
  indexingEventsPerSecond: number;
  backfillMs: number;
  readyMs: number;
}

const DATABASE_NAMES = { pglite: "PGlite", postgres: "PostgreSQL" } as const;

export const indexerBenchmark: Benchmark = {
  id: "indexer",
  title: "Indexer catch-up",
  async run(ctx) {
    const pnpm = pnpmCommand();
    const events = process.env.BENCH_EVENTS ?? "10000";
    ctx.log(`pnpm --filter @collectibles/indexer bench (${events} claim events, both databases)`);
    const running = runCommand(
      pnpm.command,
      [...pnpm.args, "--filter", "@collectibles/indexer", "bench"],
      {
        cwd: ctx.root,
        env: { BENCH_DATABASE_URL: ctx.postgresUrl, BENCH_EVENTS: events },
        timeoutMs: 8 * 60_000,
        onLine: (line) => {
          const phase = /\[bench\] run \d+: (\w+) on (\w+)/.exec(line);
          if (phase) memory.mark(`${phase[1]} on ${phase[2]}`);
          if (line.startsWith("[bench]")) ctx.log(line.slice("[bench] ".length));
        },
      },
    );
    const memory = sampleTreeRss(running.pid, /ponder/);
    memory.mark("setup");
    let peaks: Record<string, number> = {};
    try {
      await running.done;
    } finally {
      peaks = memory.stop();
    }
    const results = JSON.parse(
      readFileSync(path.join(ctx.root, "packages/indexer/bench/results/catchup.json"), "utf8"),
    ) as { summary: CatchupSummary[]; machine: unknown };
    const find = (app: CatchupSummary["app"], database: CatchupSummary["database"]) => {
      const found = results.summary.find((s) => s.app === app && s.database === database);
      if (!found) throw new Error(`catchup.json has no ${app} on ${database}`);
      return found;
    };
    const rows: Row[] = [];
    for (const database of ["pglite", "postgres"] as const) {
      const ours = find("indexer", database);
      const base = find("baseline", database);
      const name = DATABASE_NAMES[database];
      rows.push(
        {
          name: `${name}: catch-up (fetch + index)`,
          unit: "events/s",
          figure: ours.eventsPerSecond,
          baseline: { name: "empty handlers", value: base.eventsPerSecond },
          higherIsBetter: true,
        },
        {
          name: `${name}: indexing only`,
          unit: "events/s",
          figure: ours.indexingEventsPerSecond,
          baseline: { name: "empty handlers", value: base.indexingEventsPerSecond },
          higherIsBetter: true,
        },
      );
      const ourPeak = peaks[`indexer on ${database}`];
      const basePeak = peaks[`baseline on ${database}`];
      if (ourPeak) {
        rows.push({
          name: `${name}: peak RSS of the Ponder process during catch-up`,
          unit: "MiB",
          figure: Math.round(ourPeak / MiB),
          ...(basePeak
            ? { baseline: { name: "empty handlers", value: Math.round(basePeak / MiB) } }
            : {}),
        });
      }
    }
    return {
      description:
        `${events} Claimed events (claimBatch, 100 per transaction) on a fresh Hardhat node, ` +
        "caught up by a fresh `ponder start` of the indexer and of a baseline app with the same " +
        "config and tables but empty handlers, on PGlite and on PostgreSQL. Figures are Ponder's " +
        "own backfill timings; RSS is sampled here every 250 ms over the Ponder processes.",
      rows,
      notes: [
        "Catch-up includes fetching blocks and logs from the local node, which dominates; " +
          "'indexing only' is the time inside handlers and their writes.",
        "The issue sets no numeric goal here: the figure is reported beside its baseline.",
        "Full results: packages/indexer/bench/results/catchup.md (rewritten by this run).",
      ],
      raw: { ...results, peakRssBytes: peaks },
    };
  },
};
