/**
 * `pnpm bench`: runs every benchmark (or those named: `pnpm bench gas lists`) and writes
 * bench/RESULTS.md, bench/results.json and bench/results.png. Naming a subset re-runs only those
 * and keeps the other benchmarks' last results; `pnpm bench --render` only re-draws the report
 * and chart from results.json; `pnpm bench --profile` also profiles the API (--cpu-prof) where a
 * benchmark runs it and writes the top functions by self time into the report. Progress goes to
 * stderr.
 *
 *   BENCH_DURATION=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=10   list-read load (seconds, connections)
 *   BENCH_LIST_ROWS=100000                                   rows seeded for list reads
 *   BENCH_EVENTS=10000                                       indexer catch-up events
 *   BENCH_DATABASE_URL (else TEST_DATABASE_URL)              PostgreSQL allowed to create databases
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { portAnswers } from "@collectibles/devkit/processes";
import { benchmarks } from "./benchmarks.ts";
import { type Machine, renderMarkdown, renderSvg } from "./lib/report.ts";
import type { BenchResult } from "./lib/result.ts";

const root = path.resolve(import.meta.dirname, "..");
const benchDir = path.join(root, "bench");
const started = Date.now();
const progress = (message: string) => {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
};

const postgresUrl =
  process.env.BENCH_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  "postgres://collectibles:collectibles@127.0.0.1:5432/collectibles_test";

/** Whether a PostgreSQL server answers at the URL's host and port. */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return portAnswers(Number(port || 5432), hostname);
}

const renderOnly = process.argv.includes("--render");
const profile = process.argv.includes("--profile");
const wanted = process.argv.slice(2).filter((a) => a !== "--render" && a !== "--profile");
const unknown = wanted.filter((id) => !benchmarks.some((b) => b.id === id));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark ${unknown.join(", ")}; known: ${benchmarks.map((b) => b.id).join(", ")}`,
  );
  process.exit(2);
}
const selected = wanted.length > 0 ? benchmarks.filter((b) => wanted.includes(b.id)) : benchmarks;

const resultsFile = path.join(benchDir, "results.json");
if (renderOnly) {
  // Re-draw RESULTS.md and the chart from results.json, measuring nothing.
  const saved = JSON.parse(readFileSync(resultsFile, "utf8")) as {
    machine: Machine;
    results: BenchResult[];
  };
  await writeReport(saved.machine, saved.results);
  progress("re-rendered bench/RESULTS.md and bench/results.png from bench/results.json");
  process.exit(0);
}

if (!(await reachable(postgresUrl))) {
  progress("PostgreSQL is not reachable: starting it with scripts/ci-postgres.sh");
  execFileSync("bash", [path.join(root, "scripts/ci-postgres.sh")], { stdio: "inherit" });
}

const loadAverageAtStart = os.loadavg();
// The machine is shared: keep the highest 1-minute load average seen while benchmarks run.
let loadAveragePeak = loadAverageAtStart[0] ?? 0;
const loadSampler = setInterval(() => {
  loadAveragePeak = Math.max(loadAveragePeak, os.loadavg()[0] ?? 0);
}, 5000);
progress(
  `running ${selected.map((b) => b.id).join(", ")}; load average ${loadAverageAtStart.map((v) => v.toFixed(2)).join(" ")}`,
);

const previous: BenchResult[] =
  wanted.length > 0 && existsSync(resultsFile)
    ? (JSON.parse(readFileSync(resultsFile, "utf8")) as { results: BenchResult[] }).results
    : [];
const fresh = new Map<string, BenchResult>();
let failed = 0;
for (const benchmark of selected) {
  progress(`== ${benchmark.title} (${benchmark.id})`);
  const t0 = Date.now();
  const startedAt = new Date(t0).toISOString();
  try {
    const result = await benchmark.run({
      root,
      postgresUrl,
      profile,
      log: (message) => progress(`${benchmark.id}: ${message}`),
    });
    fresh.set(benchmark.id, {
      id: benchmark.id,
      title: benchmark.title,
      durationMs: Date.now() - t0,
      startedAt,
      ...result,
    });
    progress(`${benchmark.id}: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } catch (error) {
    failed++;
    progress(`${benchmark.id}: FAILED: ${(error as Error).message}`);
    fresh.set(benchmark.id, {
      id: benchmark.id,
      title: benchmark.title,
      description: "This benchmark failed in the last run.",
      rows: [],
      notes: [`Error: ${(error as Error).message.split("\n")[0]}`],
      durationMs: Date.now() - t0,
      startedAt,
    });
  }
}

clearInterval(loadSampler);

// Registry order; benchmarks not run this time keep their previous result.
const results = benchmarks
  .map((b) => fresh.get(b.id) ?? previous.find((p) => p.id === b.id))
  .filter((r): r is BenchResult => r !== undefined);
const machine: Machine = {
  cpus: os.availableParallelism(),
  cpu: os.cpus()[0]?.model.trim() ?? "unknown",
  node: process.version,
  loadAverageAtStart,
  loadAverageAtEnd: os.loadavg(),
  loadAveragePeak,
  date: new Date(started).toISOString(),
};
await writeReport(machine, results);
progress(
  `wrote bench/RESULTS.md, bench/results.json, bench/results.png in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (failed > 0) {
  progress(`${failed} benchmark(s) failed`);
  process.exitCode = 1;
}

async function writeReport(machine: Machine, results: BenchResult[]): Promise<void> {
  writeFileSync(resultsFile, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  // Written in the repository's JSON style, so `biome check` stays clean after a run.
  execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", "--write", resultsFile], {
    stdio: "ignore",
  });
  writeFileSync(path.join(benchDir, "RESULTS.md"), renderMarkdown(results, machine));
  // sharp (with its own libvips) rasterises the SVG, no browser.
  const { default: sharp } = await import("sharp");
  await sharp(Buffer.from(renderSvg(results, machine)), { density: 96 })
    .png()
    .toFile(path.join(benchDir, "results.png"));
}
