/**
 * `pnpm bench`: runs every benchmark (or those named: `pnpm bench gas lists`) and writes
 * bench/RESULTS.md, bench/results.json and bench/results.png. Naming a subset re-runs only those
 * and keeps the other benchmarks' last results; `pnpm bench --render` only re-draws the report
 * and chart from results.json; `pnpm bench --profile` also profiles the API (--cpu-prof) where a
 * benchmark runs it and writes the top functions by self time into the report; `--out=DIR`
 * writes the report to DIR instead. Progress goes to stderr.
 *
 *   BENCH_DURATION=10 BENCH_WARMUP=2 BENCH_CONNECTIONS=10   list-read load (seconds, connections)
 *   BENCH_LIST_ROWS=100000                                   rows seeded for list reads
 *   BENCH_WRITE_RATE=105                                     POST /claims per second beside reads
 *   BENCH_EVENTS=10000                                       indexer catch-up events
 *   BENCH_CLAIMS=5000                                        claims in the end-to-end burst
 *   BENCH_API_LOG=/tmp/api.log                               keep what the API prints (request log)
 *   BENCH_DATABASE_URL (else TEST_DATABASE_URL)              PostgreSQL allowed to create databases;
 *                                                            unset: an embedded one of its own
 *
 * A smoke run, small and kept apart from the real results (gas and indexer rewrite their own
 * packages' reports wherever --out points, so they are left out):
 *   BENCH_LIST_ROWS=2000 BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_CLAIMS=200 \
 *     pnpm bench --out=/tmp/bench-smoke lists claims
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type EmbeddedPostgres,
  startEmbeddedPostgres,
} from "@collectibles/devkit/embedded-postgres";
import { freePort } from "@collectibles/devkit/processes";
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

/**
 * The PostgreSQL server benchmarks make their databases on: the one the environment names, else
 * an embedded server (PostgreSQL from npm, as `pnpm start` runs it) in a temp folder, started
 * when a benchmark first asks and removed at the end; benchmarks that need none (gas) start none.
 * It is durable (fsync on) as the default stack's is: a throw-away test server skips the disk
 * flushes, which would flatter every write.
 */
const givenPostgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
let embeddedPostgres: Promise<EmbeddedPostgres> | undefined;
const embeddedDir = path.join(os.tmpdir(), `bench-postgres-${process.pid}`);
async function postgres(): Promise<string> {
  if (givenPostgresUrl) return givenPostgresUrl;
  if (!embeddedPostgres) {
    progress(`BENCH_DATABASE_URL is unset: starting an embedded PostgreSQL in ${embeddedDir}`);
    embeddedPostgres = freePort().then((port) =>
      startEmbeddedPostgres({ dir: embeddedDir, port, database: "postgres" }),
    );
  }
  return (await embeddedPostgres).url;
}

const flags = process.argv.slice(2).filter((a) => a.startsWith("--"));
const renderOnly = flags.includes("--render");
const profile = flags.includes("--profile");
// `--out=DIR`: the report goes there, not over bench/'s (a smoke run keeps the real results).
const outFlag = flags.find((f) => f.startsWith("--out="));
const outDir = outFlag ? path.resolve(outFlag.slice("--out=".length)) : benchDir;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const unknownFlags = flags.filter(
  (f) => f !== "--render" && f !== "--profile" && !f.startsWith("--out="),
);
if (unknownFlags.length > 0) {
  console.error(`unknown option ${unknownFlags.join(", ")}; known: --render, --profile, --out=DIR`);
  process.exit(2);
}
const unknown = wanted.filter((id) => !benchmarks.some((b) => b.id === id));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark ${unknown.join(", ")}; known: ${benchmarks.map((b) => b.id).join(", ")}`,
  );
  process.exit(2);
}
const selected = wanted.length > 0 ? benchmarks.filter((b) => wanted.includes(b.id)) : benchmarks;

const resultsFile = path.join(outDir, "results.json");
if (renderOnly) {
  // Re-draw RESULTS.md and the chart from results.json, measuring nothing.
  const saved = JSON.parse(readFileSync(resultsFile, "utf8")) as {
    machine: Machine;
    results: BenchResult[];
  };
  await writeReport(saved.machine, saved.results);
  progress(`re-rendered RESULTS.md and results.png from ${resultsFile}`);
  process.exit(0);
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
      postgres,
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
if (embeddedPostgres) {
  // A server that failed to start has already said so, in the benchmark that asked for it.
  await embeddedPostgres.then(
    (server) => server.stop(),
    () => {},
  );
  rmSync(embeddedDir, { recursive: true, force: true });
}

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
  `wrote RESULTS.md, results.json, results.png to ${outDir} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (failed > 0) {
  progress(`${failed} benchmark(s) failed`);
  process.exitCode = 1;
}

async function writeReport(machine: Machine, results: BenchResult[]): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  // Written in the repository's JSON style, so `biome check` stays clean after a run.
  if (outDir === benchDir) {
    execFileSync(path.join(root, "node_modules/.bin/biome"), ["format", "--write", resultsFile], {
      stdio: "ignore",
    });
  }
  writeFileSync(path.join(outDir, "RESULTS.md"), renderMarkdown(results, machine));
  // sharp (with its own libvips) rasterises the SVG, no browser.
  const { default: sharp } = await import("sharp");
  await sharp(Buffer.from(renderSvg(results, machine)), { density: 96 })
    .png()
    .toFile(path.join(outDir, "results.png"));
}
