/**
 * The load generator, in a process of its own so it does not share a CPU queue with the server:
 * `node bench/lists/load.ts '<json options>'` runs autocannon (a short warm-up, then the
 * measurement) and prints one JSON line with latency percentiles, req/s and error counts.
 *
 * Each request asks the url's own path, or the next of `paths` in turn, or (`random`) one of
 * `paths` at random; `distinctSince` adds to each an `updated_since` of its own (the n-th request
 * a time n milliseconds into 1970, before every row), so no two requests are the same list and
 * none can be answered from what an earlier one kept. It also prints its own CPU time and the
 * requests answered with the warm-up's, so the caller can say what each request cost.
 */
import autocannon from "autocannon";

interface LoadOptions {
  url: string;
  paths?: string[];
  random?: boolean;
  distinctSince?: boolean;
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;
const { pathname, search } = new URL(options.url);
const paths = options.paths?.length ? options.paths : [pathname + search];
const varies = paths.length > 1 || options.distinctSince;

// Counts across the warm-up and the measurement: the measurement asks nothing the warm-up did.
let sent = 0;
function nextPath(): string {
  const n = sent++;
  const path = options.random
    ? paths[Math.floor(Math.random() * paths.length)]
    : paths[n % paths.length];
  return options.distinctSince
    ? `${path}&updated_since=${new Date(n + 1).toISOString()}`
    : `${path}`;
}

function run(duration: number) {
  return autocannon({
    url: options.url,
    ...(varies
      ? {
          requests: [
            {
              setupRequest: (request: Record<string, unknown>) => ({
                ...request,
                path: nextPath(),
              }),
            },
          ],
        }
      : {}),
    headers: options.headers,
    connections: options.connections,
    duration,
    // A request slower than this counts as a timeout (reported, not fatal).
    timeout: 30,
  });
}

// Its own CPU from here on, the warm-up's included, as the servers' is read around this process.
const startCpu = process.cpuUsage();
const warmup = options.warmupSeconds > 0 ? await run(options.warmupSeconds) : undefined;
const result = await run(options.durationSeconds);
const cpu = process.cpuUsage(startCpu);
console.log(
  JSON.stringify({
    requests: result.requests.total,
    requestsWithWarmup: result.requests.total + (warmup?.requests.total ?? 0),
    cpuMs: (cpu.user + cpu.system) / 1000,
    requestsPerSecond: result.requests.average,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.mean,
    },
    bytesPerSecond: result.throughput.average,
    non2xx: result.non2xx,
    // Which statuses, so a failed run says what the server answered.
    statusCodes: (result as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
