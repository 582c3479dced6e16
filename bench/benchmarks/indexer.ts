/**
 * Indexer catch-up, from the indexer package's own benchmark (`pnpm --filter
 * @collectibles/indexer bench`): 10,000 claim events on PostgreSQL, beside a Ponder app with the
 * same config and empty handlers. Peak RSS of the Ponder processes is sampled here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { MiB, pnpmCommand, runCommand, sampleTreeRss } from "../lib/proc.ts";
import type { Benchmark, Row } from "../lib/result.ts";

interface CatchupSummary {
  app: "indexer" | "baseline";
  events: number;
  eventsPerSecond: number;
  indexingEventsPerSecond: number;
  backfillMs: number;
  readyMs: number;
}

export const indexerBenchmark: Benchmark = {
  id: "indexer",
  title: "Indexer catch-up",
  async run(ctx) {
    const pnpm = pnpmCommand();
    const events = process.env.BENCH_EVENTS ?? "10000";
    const databaseUrl = await ctx.postgres();
    ctx.log(`pnpm --filter @collectibles/indexer bench (${events} claim events)`);
    const running = runCommand(
      pnpm.command,
      [...pnpm.args, "--filter", "@collectibles/indexer", "bench"],
      {
        cwd: ctx.root,
        env: { BENCH_DATABASE_URL: databaseUrl, BENCH_EVENTS: events },
        timeoutMs: 8 * 60_000,
        onLine: (line) => {
          // "[bench] run 1: indexer (postgres://…)": the Ponder app measured from here on.
          const phase = /\[bench\] run \d+: (\w+)/.exec(line);
          if (phase?.[1]) memory.mark(phase[1]);
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
    const find = (app: CatchupSummary["app"]) => {
      const found = results.summary.find((s) => s.app === app);
      if (!found) throw new Error(`catchup.json has no ${app} run`);
      return found;
    };
    const ours = find("indexer");
    const base = find("baseline");
    const ourPeak = peaks.indexer;
    const basePeak = peaks.baseline;
    const rows: Row[] = [
      {
        name: "catch-up (fetch + index)",
        unit: "events/s",
        figure: ours.eventsPerSecond,
        baseline: { name: "empty handlers", value: base.eventsPerSecond },
        higherIsBetter: true,
      },
      {
        name: "indexing only",
        unit: "events/s",
        figure: ours.indexingEventsPerSecond,
        baseline: { name: "empty handlers", value: base.indexingEventsPerSecond },
        higherIsBetter: true,
      },
      ...(ourPeak
        ? [
            {
              name: "peak RSS of the Ponder process during catch-up",
              unit: "MiB",
              figure: Math.round(ourPeak / MiB),
              ...(basePeak
                ? { baseline: { name: "empty handlers", value: Math.round(basePeak / MiB) } }
                : {}),
            },
          ]
        : []),
    ];
    return {
      description:
        `${events} Claimed events (claimBatch, 100 per transaction) on a fresh local chain (anvil), ` +
        "caught up by a fresh `ponder start` of the indexer and of a baseline app with the same " +
        "config and tables but empty handlers, each on a PostgreSQL database of its own. Figures are Ponder's " +
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
