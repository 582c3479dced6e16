/**
 * Shared by the fault tests (crash, chain down, indexer down): a seeded random source, so a run
 * that found a bug can be replayed with the same fault points (`FAULT_SEED=<n>`), polling with a
 * deadline instead of fixed sleeps, and a burst of requests with a bounded number in flight.
 */
import { randomInt } from "node:crypto";

export interface FaultRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** `count` distinct integers in [min, max], ascending. */
  distinctInts(count: number, min: number, max: number): number[];
}

/**
 * A random source seeded from `FAULT_SEED` (or a fresh seed), printed with `label` so that a
 * failing run names the seed that replays it.
 */
export function faultRandom(label: string): FaultRandom {
  const fromEnv = process.env.FAULT_SEED;
  const seed = fromEnv ? Number.parseInt(fromEnv, 10) : randomInt(1, 2 ** 31 - 1);
  if (!Number.isSafeInteger(seed)) throw new Error(`FAULT_SEED must be an integer, got ${fromEnv}`);
  console.info(`${label}: FAULT_SEED=${seed} replays this run`);
  // mulberry32: small, fast and good enough to pick fault points.
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    distinctInts(count, min, max) {
      if (max - min + 1 < count) throw new RangeError("range too small");
      const picked = new Set<number>();
      while (picked.size < count) picked.add(int(min, max));
      return [...picked].sort((a, b) => a - b);
    },
  };
}

/**
 * Polls `check` until it returns something other than `undefined` (a throw counts as "not yet"),
 * failing after `timeoutMs` with `what` and the last error seen.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  { timeoutMs = 180_000, intervalMs = 200 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Runs `task(i)` for i in [0, count) with at most `concurrency` in flight, calling
 * `onSettled(done)` after each one finishes (done = how many have finished so far). The fault
 * tests hang their faults on `onSettled`: "after the 137th answer, cut the RPC".
 */
export async function burst(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
  onSettled: (done: number) => void = () => {},
): Promise<void> {
  let nextIndex = 0;
  let done = 0;
  const worker = async () => {
    while (nextIndex < count) {
      const i = nextIndex++;
      await task(i);
      onSettled(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
