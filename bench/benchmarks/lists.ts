/**
 * List reads through the real API: `GET <path>?limit=100`, first page and last (deepest) page,
 * the last both by `page` and by `cursor` (the next_cursor of the page before it), and every
 * page by cursor in turn, with autocannon in a second process, beside a bare node:http endpoint
 * and a bare Express endpoint answering a JSON body of the same size, in the same run, on
 * PostgreSQL and PGlite.
 *
 * `listBenchmark({ seed, rows, targets })` is the reusable part; the seeds are in `lists/seeds.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { API_NODE_FLAGS, API_START_ENV } from "@collectibles/api/heap";
import { type ManagedProcess, startProcess } from "@collectibles/devkit/processes";
import { profileNote, topSelfTime } from "../lib/cpuProfile.ts";
import { MiB, runCommand, sampleProcessRss } from "../lib/proc.ts";
import type { BenchContext, Benchmark, Row } from "../lib/result.ts";

export interface ListTarget {
  /** Path of the list, e.g. "/users"; `?limit=100&page=N` is appended. */
  path: string;
}

export interface ListBenchmarkOptions {
  id: string;
  title: string;
  /** Name of a seed in `lists/seeds.ts`, and how many rows it makes. */
  seed: string;
  rows: number;
  /** What the seed makes, in words, for the report. */
  seedDescription: string;
  targets: ListTarget[];
  notes?: string[];
}

const LIMIT = 100;
const DRIVERS = [
  { driver: "postgres", name: "PostgreSQL" },
  { driver: "pglite", name: "PGlite" },
] as const;

interface Load {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  bytesPerSecond: number;
  non2xx: number;
  statusCodes?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}

interface Server {
  process: ManagedProcess;
  url: string;
  key?: string;
  seeded?: Record<string, number>;
  seedMs?: number;
  /** `process.memoryUsage()`, when the server reports it (bare-pglite). */
  reportedMemory?: NodeJS.MemoryUsage;
  memory: ReturnType<typeof sampleProcessRss>;
  stop(): Promise<Record<string, number>>;
}

const settings = () => ({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
});

/** tsx's loader, so a child runs TypeScript that imports workspace packages. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
}

/** Starts `lists/server.ts` in its own process and waits for its `{ url }` report. */
async function startServer(
  ctx: BenchContext,
  args: string[],
  profileDir?: string,
): Promise<Server> {
  const profiling = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  // The API's process starts as its start script starts it.
  const apiFlags = args[0] === "api" ? API_NODE_FLAGS : [];
  const apiEnv = args[0] === "api" ? API_START_ENV : {};
  const server = startProcess({
    name: `list server ${args.join(" ")}`,
    command: process.execPath,
    args: [
      ...apiFlags,
      ...profiling,
      "--import",
      tsxLoader(),
      path.join(ctx.root, "bench/lists/server.ts"),
      ...args,
    ],
    cwd: ctx.root,
    env: { ...process.env, ...apiEnv, BENCH_POSTGRES_URL: ctx.postgresUrl },
    // stdout carries the API's request log: discarded, as a log shipper would take it away.
    discardStdout: true,
    ipc: true,
  });
  // The server's own process: the API's local chain and indexer are its children, not the API.
  const memory = sampleProcessRss(server.pid);
  memory.mark("start");
  const message = (await server.nextMessage(180_000)) as Record<string, unknown>;
  if (typeof message.error === "string") throw new Error(`server ${args[0]}: ${message.error}`);
  return {
    process: server,
    url: String(message.url),
    key: message.key as string | undefined,
    seeded: message.seeded as Record<string, number> | undefined,
    seedMs: message.seedMs as number | undefined,
    reportedMemory: message.memory as NodeJS.MemoryUsage | undefined,
    memory,
    async stop() {
      const peaks = memory.stop();
      await server.stop(15_000);
      return peaks;
    },
  };
}

/** What the API process's memory is made of, asked after its load (not at the peak). */
async function memoryBreakdown(name: string, api: Server): Promise<string> {
  api.process.send("memory");
  const { memory, webAssembly } = (await api.process.nextMessage(10_000)) as {
    memory: NodeJS.MemoryUsage;
    webAssembly?: { reserved: number; resident: number };
  };
  const mib = (bytes: number) => Math.round(bytes / MiB);
  const wasm = webAssembly
    ? ` + PGlite's WebAssembly memory ${mib(webAssembly.resident)} (resident, of ` +
      `${mib(webAssembly.reserved)} reserved)`
    : name === "PGlite"
      ? " (PGlite's WebAssembly memory not found: counted in the rest)"
      : "";
  const rest = memory.rss - memory.heapTotal - memory.arrayBuffers - (webAssembly?.resident ?? 0);
  return (
    `${name}: after the load, RSS ${mib(memory.rss)} MiB = JS heap ${mib(memory.heapTotal)} + ` +
    `buffers ${mib(memory.arrayBuffers)} (kept answers among them)${wasm} + the rest ` +
    `${mib(rest)} (code, threads and the C heap: compilers, the wallet worker while it runs).`
  );
}

async function load(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  paths?: string[],
): Promise<Load> {
  const options = { url, headers, paths, ...settings() };
  const { output } = await runCommand(
    process.execPath,
    [path.join(ctx.root, "bench/lists/load.ts"), JSON.stringify(options)],
    { cwd: ctx.root, timeoutMs: (options.durationSeconds + options.warmupSeconds + 60) * 1000 },
  ).done;
  const line = output.trim().split("\n").at(-1) ?? "";
  const result = JSON.parse(line) as Load;
  // A wrong answer invalidates the measurement; slow ones are part of it (counted in notes).
  if (result.non2xx > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodes ?? {})})`,
    );
  }
  return result;
}

/** The path of every page of `first`'s list, following next_cursor from the first page. */
async function cursorWalk(
  baseUrl: string,
  first: string,
  headers: Record<string, string>,
): Promise<string[]> {
  const paths = [first];
  for (;;) {
    const response = await fetch(baseUrl + (paths.at(-1) ?? first), { headers });
    if (response.status !== 200) throw new Error(`walking ${first}: ${response.status}`);
    const { pagination } = (await response.json()) as { pagination: { next_cursor: string } };
    if (!pagination.next_cursor) return paths;
    paths.push(`${first}&cursor=${pagination.next_cursor}`);
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

export function listBenchmark(options: ListBenchmarkOptions): Benchmark {
  return {
    id: options.id,
    title: options.title,
    async run(ctx) {
      const rows: Row[] = [];
      const raw: Record<string, unknown> = { settings: settings(), measurements: [] };
      const measurements = raw.measurements as unknown[];
      const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-lists-"));
      const bare = new Map<string, { http: Load; express: Load; bytes: number }>();
      const bareMemory: Record<string, number> = {};
      const memoryNotes: string[] = [];
      const problems: string[] = [];
      const profiles: string[] = [];
      try {
        for (const { driver, name } of DRIVERS) {
          ctx.log(
            `${name}: seeding ${options.rows.toLocaleString("en")} rows (${options.seed}) and starting the API`,
          );
          // `pnpm bench --profile`: the API under --cpu-prof (seeding included), summarised.
          const profileDir = ctx.profile ? path.join(tmp, `profile-${driver}`) : undefined;
          const api = await startServer(
            ctx,
            ["api", driver, options.seed, String(options.rows)],
            profileDir,
          );
          try {
            ctx.log(
              `${name}: API up at ${api.url}, seeded ${JSON.stringify(api.seeded)} in ${api.seedMs} ms`,
            );
            measurements.push({ driver, seeded: api.seeded, seedMs: api.seedMs });
            const auth = {
              authorization: `Basic ${Buffer.from(`${api.key}:`).toString("base64")}`,
            };
            api.memory.mark("load");
            for (const target of options.targets) {
              const first = `${target.path}?limit=${LIMIT}`;
              const response = await fetch(api.url + first, { headers: auth });
              const body = await response.text();
              if (response.status !== 200)
                throw new Error(`GET ${first}: ${response.status} ${body}`);
              const pages = (JSON.parse(body) as { pagination: { pages: number } }).pagination
                .pages;
              const deep = `${target.path}?limit=${LIMIT}&page=${pages}`;
              // The same last page by cursor: the next_cursor of the page before it.
              const before = await fetch(
                `${api.url}${target.path}?limit=${LIMIT}&page=${Math.max(1, pages - 1)}`,
                { headers: auth },
              );
              const cursor = ((await before.json()) as { pagination: { next_cursor: string } })
                .pagination.next_cursor;
              const deepCursor = `${target.path}?limit=${LIMIT}&cursor=${cursor}`;
              const cursorRow = (pages - 1) * LIMIT;
              // Every page of the list by cursor, for a load that asks a different page each time.
              const walk = await cursorWalk(api.url, first, auth);

              // Baselines, once per target: same body size, no database, no auth.
              let baseline = bare.get(target.path);
              if (!baseline) {
                const bodyFile = path.join(tmp, `${target.path.replaceAll("/", "_")}.json`);
                writeFileSync(bodyFile, body);
                const bytes = Buffer.byteLength(body);
                const results: Partial<Record<"http" | "express", Load>> = {};
                for (const kind of ["http", "express"] as const) {
                  ctx.log(
                    `bare ${kind === "http" ? "node:http" : "Express"} with the ${bytes} B body of ${first}`,
                  );
                  const server = await startServer(ctx, [`bare-${kind}`, bodyFile]);
                  server.memory.mark("load");
                  try {
                    results[kind] = await load(ctx, server.url + first, {});
                  } finally {
                    const peaks = await server.stop();
                    bareMemory[kind] = Math.max(bareMemory[kind] ?? 0, peaks.load ?? 0);
                  }
                  ctx.log(`  ${describe(results[kind] as Load)}`);
                }
                baseline = { http: results.http as Load, express: results.express as Load, bytes };
                bare.set(target.path, baseline);
                measurements.push({ target: target.path, bare: baseline });
                rows.push({
                  name: `bare Express, ${bytes} B body (as ${first}): req/s`,
                  unit: "req/s",
                  figure: baseline.express.requestsPerSecond,
                  baseline: { name: "bare node:http", value: baseline.http.requestsPerSecond },
                  higherIsBetter: true,
                });
              }

              ctx.log(`${name}: GET ${first}`);
              const firstLoad = await load(ctx, api.url + first, auth);
              ctx.log(`  ${describe(firstLoad)}`);
              ctx.log(`${name}: GET ${deep} (last page)`);
              const deepLoad = await load(ctx, api.url + deep, auth);
              ctx.log(`  ${describe(deepLoad)}`);
              ctx.log(`${name}: GET ${target.path} by cursor at row ${cursorRow}`);
              const cursorLoad = await load(ctx, api.url + deepCursor, auth);
              ctx.log(`  ${describe(cursorLoad)}`);
              ctx.log(`${name}: GET ${target.path}, the ${walk.length} pages by cursor in turn`);
              const walkLoad = await load(ctx, api.url, auth, walk);
              ctx.log(`  ${describe(walkLoad)}`);
              measurements.push({
                driver,
                target: target.path,
                pages,
                first: firstLoad,
                deep: deepLoad,
                cursor: cursorLoad,
                walk: walkLoad,
              });
              for (const [which, l] of [
                [first, firstLoad],
                [deep, deepLoad],
                [deepCursor, cursorLoad],
                [`${target.path} (every page by cursor)`, walkLoad],
              ] as const) {
                if (l.errors > 0 || l.timeouts > 0) {
                  problems.push(
                    `${name} GET ${which}: ${l.timeouts} request(s) over 30 s and ${l.errors} ` +
                      "connection error(s) during the measurement (not counted in the latency).",
                  );
                }
              }

              const label = `${name} GET ${target.path}`;
              const p99 = firstLoad.latencyMs.p99;
              const throughputRatio =
                firstLoad.requestsPerSecond / baseline.express.requestsPerSecond;
              rows.push(
                {
                  name: `${label} first page: p99 latency`,
                  unit: "ms",
                  figure: p99,
                  baseline: { name: "bare Express p99", value: baseline.express.latencyMs.p99 },
                  goal: "<= 20 ms",
                  met: p99 <= 20,
                },
                {
                  name: `${label} first page: p50 latency`,
                  unit: "ms",
                  figure: firstLoad.latencyMs.p50,
                  baseline: { name: "bare Express p50", value: baseline.express.latencyMs.p50 },
                },
                {
                  name: `${label} cursor at row ${cursorRow} (deep): p99 latency`,
                  unit: "ms",
                  figure: cursorLoad.latencyMs.p99,
                  baseline: { name: "first page p99", value: p99 },
                  goal: "<= 1.5x first page",
                  met: cursorLoad.latencyMs.p99 / p99 <= 1.5,
                },
                {
                  name: `${label} page ${pages} (deep, by page): p99 latency`,
                  unit: "ms",
                  figure: deepLoad.latencyMs.p99,
                  baseline: { name: "first page p99", value: p99 },
                },
                {
                  name: `${label} first page: req/s`,
                  unit: "req/s",
                  figure: firstLoad.requestsPerSecond,
                  baseline: { name: "bare Express", value: baseline.express.requestsPerSecond },
                  goal: ">= 0.5x bare Express",
                  met: throughputRatio >= 0.5,
                  higherIsBetter: true,
                },
                {
                  name: `${label} a different page each request (none kept): p99 latency`,
                  unit: "ms",
                  figure: walkLoad.latencyMs.p99,
                  baseline: { name: "bare Express p99", value: baseline.express.latencyMs.p99 },
                },
                {
                  name: `${label} a different page each request (none kept): req/s`,
                  unit: "req/s",
                  figure: walkLoad.requestsPerSecond,
                  baseline: { name: "bare Express", value: baseline.express.requestsPerSecond },
                  higherIsBetter: true,
                },
                {
                  name: `${label} page ${pages} (deep): req/s`,
                  unit: "req/s",
                  figure: deepLoad.requestsPerSecond,
                  baseline: { name: "first page", value: firstLoad.requestsPerSecond },
                  higherIsBetter: true,
                },
              );
            }
            memoryNotes.push(await memoryBreakdown(name, api));
          } finally {
            const peaks = await api.stop();
            if (peaks.load) {
              const figure = Math.round(peaks.load / MiB);
              const bareExpress = bareMemory.express && Math.round(bareMemory.express / MiB);
              rows.push({
                name: `${name}: peak RSS of the API process under list load`,
                unit: "MiB",
                figure,
                ...(bareExpress
                  ? {
                      baseline: { name: "bare Express", value: bareExpress },
                      goal: "<= 2x bare Express",
                      met: figure <= 2 * bareExpress,
                    }
                  : {}),
              });
              measurements.push({ driver, peakRssBytes: peaks });
            }
            if (profileDir) profiles.push(profileNote(name, "seeding", topSelfTime(profileDir)));
          }
          // What the embedded database costs by itself, beside the API's figure above.
          if (driver === "pglite" && bareMemory.express) {
            ctx.log(`${name} alone: a database seeded the same way, opened in a bare Node process`);
            const alone = await startServer(ctx, [
              "bare-pglite",
              options.seed,
              String(options.rows),
            ]);
            await alone.stop();
            const rss = alone.reportedMemory?.rss;
            if (rss) {
              rows.push({
                name: `${name} alone (the seeded database open in a bare Node process): RSS`,
                unit: "MiB",
                figure: Math.round(rss / MiB),
                baseline: { name: "bare Express", value: Math.round(bareMemory.express / MiB) },
              });
            }
          }
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
      const s = settings();
      return {
        description:
          `${options.seedDescription}, inserted in bulk through the API's database module by a ` +
          "process of its own before the API opens the database, as a production API finds its " +
          "data. Each " +
          `measurement: autocannon in a second process, ${s.connections} connections, ` +
          `${s.warmupSeconds} s warm-up then ${s.durationSeconds} s, against the real app ` +
          "(createApp: Basic auth with an API key, per-key rate limit, request logging at info, " +
          "validation; its chain services on a local chain with the indexer running) on " +
          `127.0.0.1, first page, last page and the last page by cursor, limit=${LIMIT}. Baselines: a bare ` +
          "node:http server and a bare Express app answering a JSON body of the same size, no " +
          "database and no auth, measured the same way in the same run.",
        rows,
        notes: [
          ...problems,
          ...(options.notes ?? []),
          "Latency is measured under load (all connections busy), so it includes queueing on this " +
            "2-core machine, shared with the load generator.",
          "The request log is on as in production (stdout discarded); the rate limit is raised so " +
            "the load generator is not answered 429.",
          "Peak RSS is the API process's own (not its local chain or indexer), sampled every 250 ms " +
            "over the measurement (seeding excluded). The API starts as its start script starts " +
            "it (API_NODE_FLAGS, API_START_ENV in packages/api/src/heap.ts); bare Express with " +
            "Node's defaults (with the API's allocator setting it measured some 5 MiB less).",
          ...memoryNotes,
          ...profiles,
        ],
        raw,
      };
    },
  };
}

function describe(load: Load): string {
  return (
    `${load.requestsPerSecond.toFixed(0)} req/s, p50 ${ms(load.latencyMs.p50)}, ` +
    `p99 ${ms(load.latencyMs.p99)} (${load.requests} requests)`
  );
}

const LIST_ROWS = Number(process.env.BENCH_LIST_ROWS ?? 100_000);

export const listsBenchmark = listBenchmark({
  id: "lists",
  title: "List reads",
  seed: "claims",
  rows: LIST_ROWS,
  seedDescription:
    `${LIST_ROWS.toLocaleString("en")} confirmed claims of ${Math.max(1, Math.floor(LIST_ROWS / 1000))} ` +
    `collectibles, by ${LIST_ROWS.toLocaleString("en")} users in ` +
    `${Math.floor(LIST_ROWS / 10).toLocaleString("en")} organizations`,
  targets: [{ path: "/claims" }, { path: "/users" }],
  notes: [
    "The API runs as in production: on a local chain (anvil) with the contract deployed and the " +
      "Ponder indexer following it, its relayer and transfer follower polling in the background. " +
      "A page still reads one database and never asks the indexer: the API keeps the chain facts " +
      "it shows (edition and transaction stored when a claim is confirmed, the holder after " +
      "transfers kept by the transfer follower, counts of confirmed claims).",
    "Counts: every list answer carries an exact `count`. Counting 100,000 claims takes ~50 ms " +
      "on PostgreSQL here, so the count is remembered between requests and dropped by every write " +
      "the process answers (packages/api/src/db/listCounts.ts); the first request after a write " +
      "pays for it. The first page then reads 100 rows from the (created_at, id, collectible_id) " +
      "index, with a query built and prepared once per shape of request (packages/api/src/db/" +
      "readers.ts), so neither the API nor PostgreSQL builds or plans it again per request.",
    "Kept answers: a list answer is kept as its JSON bytes beside the database snapshot it was " +
      "read at, and the same request gets it again while the snapshot is unchanged (packages/api/" +
      "src/http/listPages.ts; any write by anyone changes the snapshot). The first page, the last " +
      "page and the cursor rows ask the same page again and again, so they measure kept answers " +
      "(after the first); 'a different page each request' asks every page of the list in turn " +
      "(1,000 pages, more than the 8 MiB kept), so each is read from the database.",
    "Deep pages by `page`: OFFSET 99,900 must walk 99,900 index entries (and check each one's " +
      "collectible) before the 100 it returns, and the walk grows with the table. A `cursor` is a " +
      "keyset position: its page starts there, so at row 99,900 it costs what the first page costs.",
    "Bare Express is itself far below bare node:http here: res.json() serialises the ~40 kB body " +
      "on every request, where node:http sends fixed bytes.",
  ],
});
