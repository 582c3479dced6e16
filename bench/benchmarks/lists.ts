/**
 * List reads through the real API on the default stack (PostgreSQL, a local chain, the indexer
 * running), with autocannon in a second process, beside a bare node:http endpoint and a bare
 * Express endpoint answering a JSON body of the same size, in the same run.
 *
 * The figures that count (the design's decision 12, in the team's shared notes) ask what no
 * earlier request asked: a distinct list each request, and random pages while claims are written
 * at a steady rate. The same page asked again and again (first page, deep page, deep cursor) and
 * every page by cursor in turn are kept as informative rows.
 *
 * `listBenchmark({ seed, rows, targets })` is the reusable part; the seeds are in `lists/seeds.ts`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startProcess } from "@collectibles/devkit/processes";
import { API_KEY, callJson, confirmedCollectible } from "../lib/apiProcess.ts";
import { treesCpu, type Watched } from "../lib/cpu.ts";
import { profileNote, topSelfTime } from "../lib/cpuProfile.ts";
import { MiB, runCommand, sampleProcessRss } from "../lib/proc.ts";
import type { BenchContext, Benchmark, Row } from "../lib/result.ts";
import { startStack } from "../lib/stack.ts";
import {
  peakOver,
  STACK_MEMORY_NOTE,
  type StackPeaks,
  sampleStack,
  stackRows,
} from "../lib/stackMemory.ts";
import { startWriter, type WriteResult } from "../lists/writer.ts";

export interface ListTarget {
  /** Path of the list, e.g. "/users"; `?limit=100&...` is appended. */
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

// The issue's goals, each beside bare Express in the same run.
const GOAL = {
  distinct: { ofExpress: 0.5, p99Ms: 20 },
  underWrites: { ofExpress: 0.4, p99Ms: 30 },
  writesPerSecond: 100,
  writesP99Ms: 100,
  apiRssOfExpress: 1.5,
};

interface Load {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  bytesPerSecond: number;
  non2xx: number;
  statusCodes?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  /** No request was answered within the measurement (its latency is then a lower bound). */
  unanswered?: boolean;
  /** Requests answered, warm-up included, and the load generator's CPU over them. */
  requestsWithWarmup: number;
  cpuMs: number;
  /** CPU milliseconds per request of each watched server, and of the load generator. */
  cpuMsPerRequest: Record<string, number>;
}

/** How each request of a load picks its path (see lists/load.ts). */
interface Asked {
  paths?: string[];
  random?: boolean;
  distinctSince?: boolean;
}

const settings = () => ({
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  // Asked 5% above the goal: the accepted rate counts to the last answer, so a server that keeps
  // up with exactly 100/s shows some 99/s, and could never show that it takes 100.
  writesPerSecond: Number(process.env.BENCH_WRITE_RATE ?? GOAL.writesPerSecond * 1.05),
});

/** tsx's loader, so a child runs TypeScript that imports workspace packages. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
}

/** Starts `lists/server.ts <args>` in its own process, answering its first IPC message. */
function startServerProcess(ctx: BenchContext, args: string[]) {
  const child = startProcess({
    name: `list server ${args[0]}`,
    command: process.execPath,
    args: ["--import", tsxLoader(), path.join(ctx.root, "bench/lists/server.ts"), ...args],
    cwd: ctx.root,
    env: process.env,
    discardStdout: true,
    ipc: true,
  });
  const message = (async () => {
    const reported = (await child.nextMessage(30 * 60_000)) as Record<string, unknown>;
    if (typeof reported.error === "string") throw new Error(`${args[0]}: ${reported.error}`);
    return reported;
  })();
  return { child, message };
}

/** Fills the API's database in a process of its own, before the API opens it. */
async function seedDatabase(ctx: BenchContext, url: string, seed: string, rows: number) {
  const { child, message } = startServerProcess(ctx, ["seed", url, seed, String(rows)]);
  try {
    return (await message).seeded as Record<string, number>;
  } finally {
    await child.stop(15_000);
  }
}

/** A bare server answering `bodyFile`, its own RSS sampled. */
async function startBareServer(ctx: BenchContext, kind: "http" | "express", bodyFile: string) {
  const { child, message } = startServerProcess(ctx, [`bare-${kind}`, bodyFile]);
  const memory = sampleProcessRss(child.pid);
  try {
    const { url } = await message;
    return {
      url: String(url),
      pid: child.pid,
      memory,
      async stop() {
        const peaks = memory.stop();
        await child.stop(15_000);
        return peaks;
      },
    };
  } catch (error) {
    memory.stop();
    await child.stop(15_000);
    throw error;
  }
}

/**
 * One load (lists/load.ts) on `url`, with the CPU each request cost every process of `watched`
 * (read around the load generator's run: warm-up and measurement) and the load generator.
 */
async function load(
  ctx: BenchContext,
  url: string,
  headers: Record<string, string>,
  watched: Record<string, Watched>,
  asked: Asked = {},
): Promise<Load> {
  const options = { url, headers, ...asked, ...settings() };
  const cpuBefore = treesCpu(watched);
  const { output } = await runCommand(
    process.execPath,
    [path.join(ctx.root, "bench/lists/load.ts"), JSON.stringify(options)],
    { cwd: ctx.root, timeoutMs: (options.durationSeconds + options.warmupSeconds + 60) * 1000 },
  ).done;
  const cpuAfter = treesCpu(watched);
  const line = output.trim().split("\n").at(-1) ?? "";
  const result = JSON.parse(line) as Load;
  const perRequest = (ms: number) => ms / Math.max(1, result.requestsWithWarmup);
  result.cpuMsPerRequest = Object.fromEntries([
    ...Object.keys(watched).map((name) => [
      name,
      perRequest((cpuAfter[name] ?? 0) - (cpuBefore[name] ?? 0)),
    ]),
    ["load generator", perRequest(result.cpuMs)],
  ]);
  // A wrong answer invalidates the measurement; slow ones are part of it (counted in notes).
  if (result.non2xx > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodes ?? {})})`,
    );
  }
  if (result.requests === 0) {
    // autocannon says 0 ms when nothing came back: every request took at least the measurement.
    const atLeast = options.durationSeconds * 1000;
    const latencyMs = { p50: atLeast, p90: atLeast, p99: atLeast, max: atLeast, mean: atLeast };
    return { ...result, latencyMs, unanswered: true };
  }
  return result;
}

/**
 * Where a load's CPU went, per request, each beside bare Express's: the API against the bare
 * server, PostgreSQL on its own (bare Express has none), the load generator against its own.
 * On this machine's two cores, requests per second are at most 2,000 ms over their sum.
 */
function cpuRows(name: string, measured: Load, express: Load): Row[] {
  const cpu = measured.cpuMsPerRequest;
  const bare = express.cpuMsPerRequest;
  const row = (part: string, figure: number | undefined, baseline?: Row["baseline"]): Row[] =>
    figure === undefined
      ? []
      : [{ name: `${name}: CPU per request, ${part}`, unit: "ms", figure, baseline }];
  return [
    ...row("API", cpu.API, { name: "bare Express", value: bare.server ?? 0 }),
    ...row("PostgreSQL", cpu.PostgreSQL),
    ...row("load generator", cpu["load generator"], {
      name: "load generator for bare Express",
      value: bare["load generator"] ?? 0,
    }),
  ];
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

/**
 * Waits until every claim of `collectibleId` is confirmed (none pending) and answers how long it
 * took, so that finishing the writes does not fall into the next measurement.
 */
async function confirmedAll(apiUrl: string, collectibleId: string): Promise<number> {
  const started = performance.now();
  const deadline = started + 5 * 60_000;
  for (;;) {
    const { json } = await callJson<{ pagination: { count: number } }>(
      apiUrl,
      "GET",
      `/claims?collectible_id=${collectibleId}&status=pending&limit=1`,
    );
    if (json.pagination.count === 0) return performance.now() - started;
    if (performance.now() > deadline) {
      throw new Error(`${json.pagination.count} claims written still pending after 5 minutes`);
    }
    await sleep(250);
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

const describeWrites = (w: WriteResult) =>
  `${w.acceptedPerSecond.toFixed(0)}/s accepted of ${w.sent} sent, p50 ${ms(w.latencyMs.p50)}, ` +
  `p99 ${ms(w.latencyMs.p99)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(load: Load): string {
  return (
    `${load.requestsPerSecond.toFixed(0)} req/s, p50 ${ms(load.latencyMs.p50)}, ` +
    `p99 ${ms(load.latencyMs.p99)} (${load.requests} requests)`
  );
}

export function listBenchmark(options: ListBenchmarkOptions): Benchmark {
  return {
    id: options.id,
    title: options.title,
    async run(ctx) {
      const s = settings();
      const rows: Row[] = [];
      const raw: Record<string, unknown> = { settings: s, measurements: [] };
      const measurements = raw.measurements as unknown[];
      const problems: string[] = [];
      const notes: string[] = [];
      const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-lists-"));
      // `pnpm bench --profile`: the API under --cpu-prof, summarised once it has stopped.
      const profileDir = ctx.profile ? path.join(tmp, "profile") : undefined;
      const bareExpressPeaks: number[] = [];
      try {
        ctx.log(
          `the stack, its API's database seeded with ${options.rows.toLocaleString("en")} rows ` +
            `(${options.seed})`,
        );
        const postgresUrl = await ctx.postgres();
        const stack = await startStack({
          postgresUrl,
          dir: path.join(tmp, "stack"),
          name: "bench_lists",
          log: ctx.log,
          profileDir,
          prepareApiDatabase: async (url) => {
            const started = Date.now();
            const seeded = await seedDatabase(ctx, url, options.seed, options.rows);
            ctx.log(`seeded ${JSON.stringify(seeded)} in ${Date.now() - started} ms`);
            measurements.push({ seeded, seedMs: Date.now() - started });
          },
        });
        const memory = sampleStack(stack.pids);
        let peaks: StackPeaks = {};
        try {
          const { api } = stack;
          const auth = { authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}` };
          // Whose CPU each request costs: the API, and PostgreSQL when it runs on this machine.
          const serverPids: Record<string, Watched> = { API: { pid: stack.pids.api } };
          if (stack.pids.postgres) serverPids.PostgreSQL = { pid: stack.pids.postgres };
          /** A load on the API, its memory kept under `phase`. */
          const apiLoad = async (phase: "reads" | "writes", what: string, asked: Asked) => {
            ctx.log(what);
            memory.mark(phase);
            try {
              const result = await load(
                ctx,
                api.url + (asked.paths?.[0] ?? ""),
                auth,
                serverPids,
                asked,
              );
              ctx.log(`  ${describe(result)}`);
              if (result.unanswered) {
                problems.push(
                  `${what}: no request was answered within the ${s.durationSeconds} s ` +
                    "measurement; its latency is shown as that length, a lower bound.",
                );
              }
              if (result.errors > 0 || result.timeouts > 0) {
                problems.push(
                  `${what}: ${result.timeouts} request(s) over 30 s and ${result.errors} ` +
                    "connection error(s) during the measurement (not counted in the latency).",
                );
              }
              return result;
            } finally {
              memory.mark("between");
            }
          };

          // Claims written beside reads go to a collectible of their own, with editions to spare
          // for every target's writes (the writer runs from 1 s before the reads' warm-up to
          // their end; starting the load generator takes a few seconds more on a busy machine).
          const writesPerTarget = Math.ceil(
            s.writesPerSecond * (1 + s.warmupSeconds + s.durationSeconds + 30),
          );
          const collectibleId = await confirmedCollectible(
            api.url,
            "Written beside reads",
            // The targets' writes, and the same writes once with no reads beside them.
            writesPerTarget * (options.targets.length + 1),
          );
          memory.mark("idle");
          await sleep(2000);
          memory.mark("between");

          // The writes' own latency, no reads beside them: what the writes beside reads owe to
          // the reads is the difference.
          ctx.log(`POST /claims at ${s.writesPerSecond}/s alone, no reads`);
          const aloneWriter = startWriter(api.url, collectibleId, s.writesPerSecond);
          await sleep((1 + s.warmupSeconds + s.durationSeconds) * 1000);
          const writesAlone = await aloneWriter.stop();
          ctx.log(`  writes: ${describeWrites(writesAlone)}`);
          if (writesAlone.accepted < writesAlone.sent) {
            problems.push(
              `POST /claims alone: ${writesAlone.sent - writesAlone.accepted} of ` +
                `${writesAlone.sent} were not accepted, e.g. ${JSON.stringify(writesAlone.rejected[0])}`,
            );
          }
          await confirmedAll(api.url, collectibleId);
          measurements.push({ writesAlone });
          notes.push(
            `POST /claims alone (the writes' baseline): ${writesAlone.sent} asked at ` +
              `${writesAlone.rate}/s for ${1 + s.warmupSeconds + s.durationSeconds} s with no ` +
              `reads, before the first list's loads, accepted at ` +
              `${writesAlone.acceptedPerSecond.toFixed(0)}/s, latency from when each was due: p50 ` +
              `${ms(writesAlone.latencyMs.p50)}, p99 ${ms(writesAlone.latencyMs.p99)}, max ` +
              `${ms(writesAlone.latencyMs.max)}.`,
          );

          for (const target of options.targets) {
            const first = `${target.path}?limit=${LIMIT}`;
            const response = await fetch(api.url + first, { headers: auth });
            const body = await response.text();
            if (response.status !== 200) {
              throw new Error(`GET ${first}: ${response.status} ${body}`);
            }
            const pages = (JSON.parse(body) as { pagination: { pages: number } }).pagination.pages;
            // Every page by cursor, from the first: the deep cursor is the last one.
            const walk = await cursorWalk(api.url, first, auth);
            const deep = `${first}&page=${pages}`;
            const deepCursor = walk.at(-1) ?? first;
            const cursorRow = (walk.length - 1) * LIMIT;

            // Baselines: the same body, no database, no auth.
            const bodyFile = path.join(tmp, `${target.path.replaceAll("/", "_")}.json`);
            writeFileSync(bodyFile, body);
            const bytes = Buffer.byteLength(body);
            const bare: Partial<Record<"http" | "express", Load>> = {};
            for (const kind of ["http", "express"] as const) {
              ctx.log(`bare ${kind === "http" ? "node:http" : "Express"}, the ${bytes} B body`);
              const server = await startBareServer(ctx, kind, bodyFile);
              server.memory.mark("load");
              try {
                bare[kind] = await load(
                  ctx,
                  server.url + first,
                  {},
                  {
                    server: { pid: server.pid },
                  },
                );
              } finally {
                const barePeaks = await server.stop();
                if (kind === "express" && barePeaks.load) bareExpressPeaks.push(barePeaks.load);
              }
              ctx.log(`  ${describe(bare[kind] as Load)}`);
            }
            const express = bare.express as Load;
            const http = bare.http as Load;

            const label = `GET ${target.path}`;
            const distinct = await apiLoad(
              "reads",
              `${label}: a distinct list each request (updated_since)`,
              { paths: [first], distinctSince: true },
            );
            const firstLoad = await apiLoad("reads", `${label}: the first page again and again`, {
              paths: [first],
            });
            const deepLoad = await apiLoad("reads", `${label}: page ${pages} again and again`, {
              paths: [deep],
            });
            const cursorLoad = await apiLoad(
              "reads",
              `${label}: the cursor at row ${cursorRow} again and again`,
              { paths: [deepCursor] },
            );
            const walkLoad = await apiLoad(
              "reads",
              `${label}: the ${walk.length} pages by cursor in turn`,
              { paths: walk },
            );
            // Last, as the claims written go on being confirmed (relayer, chain, indexer, API)
            // after the writer stops: the next measurement starts once they all are.
            const writer = startWriter(api.url, collectibleId, s.writesPerSecond);
            let underWrites: Load;
            let writes: WriteResult;
            try {
              // The writes run steadily before the reads start.
              await sleep(1000);
              underWrites = await apiLoad(
                "writes",
                `${label}: random pages by cursor, POST /claims at ${s.writesPerSecond}/s beside`,
                { paths: walk, random: true },
              );
            } finally {
              writes = await writer.stop();
            }
            ctx.log(`  writes: ${describeWrites(writes)}`);
            // A refused write is the service failing under this load: reported, and its goals
            // missed, but the reads beside it still measured.
            const refused = writes.sent - writes.accepted;
            if (refused > 0) {
              problems.push(
                `${label} beside its writes: ${refused} of ${writes.sent} POST /claims were not ` +
                  `accepted, e.g. ${JSON.stringify(writes.rejected[0])}; the writes' goals count ` +
                  "as missed.",
              );
            }
            const settled = await confirmedAll(api.url, collectibleId);
            ctx.log(
              `  the claims written were all confirmed ${ms(settled)} after the writer stopped`,
            );
            measurements.push({
              target: target.path,
              bytes,
              pages,
              bare,
              distinct,
              underWrites,
              writes,
              writesConfirmedAfterMs: Math.round(settled),
              first: firstLoad,
              deep: deepLoad,
              cursor: cursorLoad,
              walk: walkLoad,
            });

            const vsExpress = { name: "bare Express", value: express.requestsPerSecond };
            const vsExpressP99 = { name: "bare Express p99", value: express.latencyMs.p99 };
            const group = label;
            /** The goal rows of a load: req/s against bare Express's, and p99 latency. */
            const goalRows = (
              name: string,
              measured: Load,
              goal: { ofExpress: number; p99Ms: number },
            ): Row[] => [
              {
                name: `${name}: req/s`,
                unit: "req/s",
                figure: measured.requestsPerSecond,
                baseline: vsExpress,
                goal: `>= ${goal.ofExpress}x bare Express`,
                met: measured.requestsPerSecond >= goal.ofExpress * vsExpress.value,
                higherIsBetter: true,
              },
              {
                name: `${name}: p99 latency`,
                unit: "ms",
                figure: measured.latencyMs.p99,
                baseline: vsExpressP99,
                goal: `<= ${goal.p99Ms} ms`,
                goalValue: goal.p99Ms,
                met: measured.latencyMs.p99 <= goal.p99Ms,
              },
            ];
            const targetRows: Row[] = [
              {
                name: `bare Express, ${bytes} B body (as ${first}): req/s`,
                unit: "req/s",
                figure: express.requestsPerSecond,
                baseline: { name: "bare node:http", value: http.requestsPerSecond },
                higherIsBetter: true,
              },
              ...goalRows(`${label}, a distinct list each request`, distinct, GOAL.distinct),
              ...cpuRows(`${label}, a distinct list each request`, distinct, express),
              ...goalRows(
                `${label}, random pages while claims are written`,
                underWrites,
                GOAL.underWrites,
              ),
              {
                name: `POST /claims beside random pages of ${target.path}: accepted/s`,
                unit: "claims/s",
                figure: writes.acceptedPerSecond,
                baseline: { name: "asked", value: writes.rate },
                goal: `>= ${GOAL.writesPerSecond} claims/s`,
                goalValue: GOAL.writesPerSecond,
                met: refused === 0 && writes.acceptedPerSecond >= GOAL.writesPerSecond,
                higherIsBetter: true,
              },
              {
                name: `POST /claims beside random pages of ${target.path}: p99 latency`,
                unit: "ms",
                figure: writes.latencyMs.p99,
                baseline: { name: "the same writes, no reads", value: writesAlone.latencyMs.p99 },
                goal: `<= ${GOAL.writesP99Ms} ms`,
                goalValue: GOAL.writesP99Ms,
                met: refused === 0 && writes.latencyMs.p99 <= GOAL.writesP99Ms,
              },
              {
                name: `${label} first page, asked again and again: req/s`,
                unit: "req/s",
                figure: firstLoad.requestsPerSecond,
                baseline: vsExpress,
                higherIsBetter: true,
              },
              {
                name: `${label} first page, asked again and again: p99 latency`,
                unit: "ms",
                figure: firstLoad.latencyMs.p99,
                baseline: vsExpressP99,
              },
              {
                name: `${label} first page, asked again and again: p50 latency`,
                unit: "ms",
                figure: firstLoad.latencyMs.p50,
                baseline: { name: "bare Express p50", value: express.latencyMs.p50 },
              },
              {
                name: `${label} cursor at row ${cursorRow} (deep), asked again and again: p99 latency`,
                unit: "ms",
                figure: cursorLoad.latencyMs.p99,
                baseline: { name: "first page p99", value: firstLoad.latencyMs.p99 },
              },
              {
                name: `${label} page ${pages} (deep, by page), asked again and again: p99 latency`,
                unit: "ms",
                figure: deepLoad.latencyMs.p99,
                baseline: { name: "first page p99", value: firstLoad.latencyMs.p99 },
              },
              {
                name: `${label} page ${pages} (deep, by page), asked again and again: req/s`,
                unit: "req/s",
                figure: deepLoad.requestsPerSecond,
                baseline: { name: "first page", value: firstLoad.requestsPerSecond },
                higherIsBetter: true,
              },
              {
                name: `${label} every page by cursor in turn: p99 latency`,
                unit: "ms",
                figure: walkLoad.latencyMs.p99,
                baseline: vsExpressP99,
              },
              {
                name: `${label} every page by cursor in turn: req/s`,
                unit: "req/s",
                figure: walkLoad.requestsPerSecond,
                baseline: vsExpress,
                higherIsBetter: true,
              },
            ];
            rows.push(...targetRows.map((row) => ({ ...row, group })));
            notes.push(
              `${label} beside its writes: ${writes.sent} POST /claims asked at ` +
                `${writes.rate}/s from 1 s before the reads' warm-up to their end, accepted at ` +
                `${writes.acceptedPerSecond.toFixed(0)}/s, latency from when each was due: p50 ` +
                `${ms(writes.latencyMs.p50)}, p99 ${ms(writes.latencyMs.p99)}, max ` +
                `${ms(writes.latencyMs.max)}; all confirmed ${(settled / 1000).toFixed(1)} s ` +
                "after the writer stopped.",
            );
          }
        } finally {
          peaks = memory.stop();
          await stack.stop();
        }
        raw.memoryPeaks = peaks;
        // The API wrote its profile as it stopped (unless it had to be killed).
        if (profileDir && existsSync(profileDir))
          notes.push(profileNote("The API", "start-up", topSelfTime(profileDir)));
        const during = peakOver(peaks, ["reads", "writes"]);
        const apiMib = Math.round((during.api?.rss ?? 0) / MiB);
        const expressMib = Math.round(Math.max(0, ...bareExpressPeaks) / MiB);
        const memoryRows: Row[] = [
          {
            name: "peak RSS of the API process under list load",
            unit: "MiB",
            figure: apiMib,
            baseline: { name: "bare Express", value: expressMib },
            goal: `<= ${GOAL.apiRssOfExpress}x bare Express`,
            met: apiMib <= GOAL.apiRssOfExpress * expressMib,
          },
          ...stackRows(during, peakOver(peaks, ["idle"]), "under list load"),
        ];
        rows.push(...memoryRows.map((row) => ({ ...row, group: "memory" })));
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
      return {
        description:
          `${options.seedDescription}, inserted in bulk through the API's database module by a ` +
          "process of its own before the API opens the database, as a production API finds its " +
          "data. The stack as it runs by default: PostgreSQL (embedded, durable, unless " +
          "BENCH_DATABASE_URL names a server), a local chain (anvil) with the contract deployed, " +
          "the Ponder indexer following it, and the real API entry (packages/api/src/index.ts: " +
          "Basic auth with an API key, per-key rate limit, request logging at info, validation, " +
          "its relayer and chain services running). Each measurement: autocannon in a second " +
          `process, ${s.connections} connections, ${s.warmupSeconds} s warm-up then ` +
          `${s.durationSeconds} s, on 127.0.0.1, limit=${LIMIT}. The goal rows ask what no ` +
          "earlier request asked: 'a distinct list each request' is the first page with an " +
          "`updated_since` of its own per request (the n-th request n ms into 1970, before every " +
          "row: the same rows, a different list); 'random pages while claims are written' asks a " +
          "page at random among every page of the list by cursor, while the benchmark POSTs " +
          `/claims (by email, a new holder each) at ${s.writesPerSecond}/s to a collectible of ` +
          "their own, open loop. The rows marked 'asked again and again' repeat one request. " +
          "Baselines: a bare node:http server and a bare Express app answering a JSON body of " +
          "the same size (the list's first page), no database and no auth, measured the same " +
          "way in the same run.",
        rows,
        notes: [
          ...problems,
          ...(options.notes ?? []),
          ...notes,
          "CPU per request: utime + stime from /proc of each process tree (the API; the " +
            "postmaster and every process under it, the indexer's and relayer's statements " +
            "included; the bare server), read before and after the load generator's run and " +
            "divided by the requests it had answered, warm-up included; the load generator's own " +
            "from process.cpuUsage(). The two cores are shared, so req/s is at most 2,000 ms over " +
            "the sum of a request's parts. A CPU profile of the API charges much of its time to " +
            "socket writes (writev): the time it waits after waking PostgreSQL or the load " +
            "generator, which the scheduler often runs first.",
          "Latency is measured under load (all connections busy), so it includes queueing on this " +
            "machine, shared by the load generator, the API, PostgreSQL, the indexer and the chain.",
          "The request log is on as in production (read and dropped); the rate limit is raised so " +
            "the load generator is not answered 429. POST /claims answers 202 at once " +
            "(CONFIRM_TIMEOUT_MS=0): the writes' latency is the API accepting a claim, the relayer " +
            "and the indexer then confirm it in the background.",
          "The API starts as `pnpm start` starts it (KNOWN_MODULE_FORMATS, API_NODE_FLAGS); " +
            "bare Express with Node's defaults. Its RSS is peak over every load on the API, with " +
            "or without the writes; bare Express's over its own loads.",
          `${STACK_MEMORY_NOTE} 'Idle before' is 2 s before the first load.`,
        ],
        raw,
      };
    },
  };
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
    "Order, for each list: the bare baselines, a distinct list each request, the informative " +
      "rows, then random pages while claims are written; the next list starts once every claim " +
      "written is confirmed. Each write adds a claim and a user, so the lists grow by a few " +
      "thousand rows over the run.",
    "A distinct list differs from every earlier one, so nothing kept for an earlier request " +
      "could serve it (the API keeps no answers; its counts are read from counters the " +
      "writes keep). 'Every page by cursor in turn' asks each page once per turn of the list.",
    "Deep pages by `page`: OFFSET must walk every row before the page's first, and the walk " +
      "grows with the table. A `cursor` is a keyset position: its page starts there.",
    "Bare Express is itself far below bare node:http here: res.json() serialises the ~40 kB " +
      "body on every request, where node:http sends fixed bytes.",
  ],
});
