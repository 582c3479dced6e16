/**
 * The claims benchmark's settings (from the environment, see bench/benchmarks/claims.ts) and the
 * small helpers every part of the driver shares: progress lines and clean-ups.
 */
import { performance } from "node:perf_hooks";

export const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 5000);
export const CONNECTIONS = Number(process.env.BENCH_CLAIM_CONNECTIONS ?? 50);
export const BASELINE_IN_FLIGHT = Number(process.env.BENCH_BASELINE_IN_FLIGHT ?? 16);
export const POLL_MS = Number(process.env.BENCH_CLAIM_POLL_MS ?? 100);
/** PostgreSQL server (a role allowed to create databases) for the `postgres` variant. */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "";
/** `BENCH_PROFILE=1` (`pnpm bench --profile`): the API runs with --cpu-prof, summarised. */
export const PROFILE = process.env.BENCH_PROFILE === "1";
/** The burst fails when neither acceptance nor indexing moves for this long. */
export const STALL_MS = 180_000;

export const DATABASE_NAMES = { postgres: "PostgreSQL", pglite: "PGlite" } as const;
export type DatabaseKind = keyof typeof DATABASE_NAMES;

/** `BENCH_CLAIM_DATABASES` (comma-separated `postgres`, `pglite`), in the order given. */
export function parseDatabases(value: string | undefined): DatabaseKind[] {
  const kinds = (value ?? "postgres,pglite")
    .split(",")
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  const unknown = kinds.filter((k) => !(k in DATABASE_NAMES));
  if (unknown.length > 0 || kinds.length === 0) {
    throw new Error(
      `BENCH_CLAIM_DATABASES: expected a comma-separated list of postgres, pglite; got "${value}"`,
    );
  }
  return [...new Set(kinds)] as DatabaseKind[];
}

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The variant running, as a prefix of progress lines ("PostgreSQL: "). */
let variantLabel = "";
export function setVariantLabel(label: string): void {
  variantLabel = label;
}
export const log = (message: string) =>
  process.stderr.write(`[claims] ${variantLabel}${message}\n`);

// Clean-up: every step registers how to undo itself; run in reverse order, whatever happened.
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning = Promise.resolve();

export function onCleanUp(step: () => Promise<unknown>): void {
  cleanups.push(step);
}

/** How many clean-ups are registered: `cleanUp(mark)` later undoes only what came after. */
export function cleanUpMark(): number {
  return cleanups.length;
}

/**
 * Runs (and removes) the clean-ups registered after the first `keep`, one at a time: a call made
 * while another runs (a signal during a variant's own clean-up) waits for it, then goes on.
 */
export function cleanUp(keep = 0): Promise<void> {
  cleaning = cleaning.then(async () => {
    while (cleanups.length > keep) {
      const cleanup = cleanups.pop();
      await cleanup?.().catch((error: Error) => log(`clean-up: ${error.message}`));
    }
  });
  return cleaning;
}
