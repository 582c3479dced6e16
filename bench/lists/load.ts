/**
 * The load generator, in a process of its own so it does not share a CPU queue with the server:
 * `node bench/lists/load.ts '<json options>'` runs autocannon (a short warm-up, then the
 * measurement; the same path every time, or `paths` in turn) and prints one JSON line with
 * latency percentiles, req/s and error counts.
 */
import autocannon from "autocannon";

interface LoadOptions {
  url: string;
  /** Paths sent in turn instead of the url's own (each request the next one). */
  paths?: string[];
  headers?: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;

let sent = 0;
const paths = options.paths ?? [];

function run(duration: number) {
  return autocannon({
    url: options.url,
    ...(paths.length > 0
      ? {
          requests: [
            {
              setupRequest: (request: Record<string, unknown>) => ({
                ...request,
                path: paths[sent++ % paths.length],
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

if (options.warmupSeconds > 0) await run(options.warmupSeconds);
const result = await run(options.durationSeconds);
console.log(
  JSON.stringify({
    requests: result.requests.total,
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
