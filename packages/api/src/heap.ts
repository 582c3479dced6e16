/**
 * How the API's JS heap grows and gives memory back.
 *
 * By default V8 grows the JS heap up to fourfold past what its last full collection kept while
 * the allocation rate is high: under a list load (GET /claims at some 1,100 req/s) the API's heap
 * reached 262 MiB around 61 MiB of live objects, and its RSS 390 MiB. At half again it peaked at
 * 272–283 MiB RSS for the same requests per second. This is a growth factor, not a limit: the
 * heap still grows to whatever its live objects need.
 *
 * The young generation (new objects, up to three 16 MiB semi-spaces by default) is bounded too,
 * at 4 MiB a semi-space: GET /claims answered from kept answers at some 3,200 req/s peaked at
 * 294–296 MiB RSS with the default and 237–244 MiB with it, for 2–3% fewer requests per second;
 * a burst of 5,000 claims ran as fast (605–607 claims/s against 592–621) with 50–90 MiB less
 * RSS. V8 reads that size only when the process starts: it is a Node flag of the API's start
 * script (`API_NODE_FLAGS`, checked against package.json by heap.test.ts).
 *
 * Starting leaves garbage behind (compiled modules, the request schemas and the OpenAPI document
 * built from them): some 70 MiB the heap keeps its pages for until a full collection that a busy
 * API may not run for long. One full collection once the API listens gives them back: after
 * loading the app, RSS went from 223–226 MiB to 150–159 MiB.
 */
import v8 from "node:v8";
import vm from "node:vm";

/** Node flags the API's process starts with (its package.json `start` script passes them). */
export const API_NODE_FLAGS = ["--max-semi-space-size=4"];

const HEAP_GROWING_PERCENT = 50;

/** Applies the growth factor to this process (V8 reads it at each collection). */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** One full collection, without leaving `gc` exposed to the process. */
export function collectStartupGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}
