/**
 * The claims benchmark's settings (from the environment, see bench/benchmarks/claims.ts) and the
 * small helpers every part of the driver shares: progress lines and clean-ups.
 */
import { performance } from "node:perf_hooks";

export const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 5000);
export const CONNECTIONS = Number(process.env.BENCH_CLAIM_CONNECTIONS ?? 50);
export const BASELINE_IN_FLIGHT = Number(process.env.BENCH_BASELINE_IN_FLIGHT ?? 16);
export const POLL_MS = Number(process.env.BENCH_CLAIM_POLL_MS ?? 100);
/** PostgreSQL server (a role allowed to create databases) for the API's and indexer's databases. */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "";
/** `BENCH_PROFILE=1` (`pnpm bench --profile`): the API runs with --cpu-prof, summarised. */
export const PROFILE = process.env.BENCH_PROFILE === "1";
/** The burst fails when neither acceptance nor indexing moves for this long. */
export const STALL_MS = 180_000;

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const log = (message: string) => process.stderr.write(`[claims] ${message}\n`);

// Clean-up: every step registers how to undo itself; run in reverse order, whatever happened.
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning = Promise.resolve();

export function onCleanUp(step: () => Promise<unknown>): void {
  cleanups.push(step);
}

/**
 * Runs (and removes) the registered clean-ups, one at a time: a call made while another runs (a
 * signal during the clean-up at the end) waits for it, then goes on.
 */
export function cleanUp(): Promise<void> {
  cleaning = cleaning.then(async () => {
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop();
      await cleanup?.().catch((error: Error) => log(`clean-up: ${error.message}`));
    }
  });
  return cleaning;
}
